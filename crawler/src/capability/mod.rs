//! What a tool can do: capability tags read from its annotations, name, description and input
//! schema by one table of signals (`capabilities.toml` beside this module's folder; docs/rules.md,
//! "Tool capabilities"), and the toxic-flow finding over a server's tagged tools. Pure and
//! deterministic: no model, no network; the same tool always gets the same tags.

mod flow;
mod index;
mod table;
mod tag;
mod words;

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod index_tests;
#[cfg(test)]
mod tests;

pub use flow::{apply_to, toxic_flow};
pub use mcpcensus_store::{ToolCapability, CAPABILITIES_VERSION};
pub use table::{Place, Signal, Tags, SIGNALS};
pub use tag::tag_tool;
