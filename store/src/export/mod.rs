//! Exports of stored records.

mod jsonl;

#[cfg(test)]
mod tests;

pub use jsonl::write_jsonl;
