//! Records, the embedded store and its exports.

pub mod clickhouse;
pub mod derived;
pub mod error;
pub mod export;
pub mod record;
mod serde_helpers;
pub mod store;
#[cfg(test)]
mod testutil;

pub use derived::{document_kinds, origin_move, scanned, server_fingerprint, OriginMove};
pub use error::StoreError;
pub use export::write_jsonl;
pub use record::*;
pub use serde_helpers::rfc3339_ms::format as format_timestamp;
pub(crate) use serde_helpers::{json_text, rfc3339_ms, rfc3339_ms_opt};
pub use store::{
    new_run_id, Damage, DamageKind, RunManifest, RunReader, RunStatus, RunWriter, SegmentReader,
    SegmentWriter, Store, WriterOptions,
};
