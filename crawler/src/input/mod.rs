//! Input: streaming domain lists, normalizing lines to origins, deduping, sharding and
//! applying the opt-out list.

mod columns;
mod dedupe;
mod exclude;
mod normalize;
mod plan;
#[cfg(test)]
mod props;
mod provenance;
mod reader;
mod shard;
#[cfg(test)]
mod tests;

pub use columns::{Column, ColumnChoice};
pub use dedupe::Dedupe;
pub use exclude::Exclusions;
pub use normalize::{normalize, Line, Target, MAX_LINE_BYTES};
pub use plan::{
    excluded_reason, registry_name, InputCounts, Planned, Planner, REGISTRY_ALL, REGISTRY_PREFIX,
};
pub use provenance::{provenance, PSL_CRATE_VERSION};
pub use reader::{LineReader, RawLine, Source};
pub use shard::Shard;
