//! Exports of stored records: JSON lines (whole records) and flat tables (Parquet, CSV).

mod columns;
mod jsonl;
mod tables;

#[cfg(test)]
mod table_tests;
#[cfg(test)]
mod tests;

pub use columns::{Kind, Table, FINDINGS, SITES, TABLES, TOOLS};
pub use jsonl::write_jsonl;
pub use tables::{write_tables, TableCounts, TableFormat, EXPORT_BATCH_ROWS, EXPORT_META_FILE};
