//! Records, the embedded store and its exports.

#[macro_use]
mod record_enum;

pub mod bound;
#[cfg(test)]
mod bound_tests;
pub mod clickhouse;
pub mod derived;
pub mod error;
pub mod export;
mod first_tools;
pub mod inert;
#[cfg(test)]
mod inert_tests;
mod readiness;
pub mod record;
#[cfg(test)]
mod record_tests;
mod registry;
mod serde_helpers;
pub mod store;
#[cfg(test)]
mod testutil;
mod tool_capability;
mod vocab;

pub use bound::bound;
pub use derived::{
    document_kinds, endpoint_key, endpoint_site, mcp_get_status, not_now_reading, origin_move,
    request_error_kinds, robots_kept_out, scanned, server_fingerprint, OriginMove, NOT_SCANNED,
};
pub use error::StoreError;
pub use export::{write_jsonl, write_tables, TableFormat};
pub use first_tools::{
    FirstToolNames, DEPRECATED_FIRST_TOOL_NAMES_KEY, FIRST_TOOL_NAMES, FIRST_TOOL_NAMES_KEY,
};
pub use record::*;
pub use registry::{
    initialized_400, registry_class, registry_server, signin_redirect, RegistryClass,
    NO_ANSWER_KINDS, REFUSED_KINDS,
};
pub use serde_helpers::rfc3339_ms::format as format_timestamp;
pub(crate) use serde_helpers::{json_text, rfc3339_ms, rfc3339_ms_opt};
pub use store::{
    decode_frame_checked, new_run_id, validate_run_id, Damage, DamageKind, InputChecksum,
    Provenance, ResumePass, RunCounts, RunManifest, RunReader, RunStatus, RunWriter, SegmentReader,
    SegmentWriter, SetReader, Store, StoreSet, WriterOptions, ALL_SHARDS, READABLE_SCHEMA_VERSIONS,
};
pub use tool_capability::{ToolCapability, ToolCapabilityCounts, CAPABILITIES_VERSION};
pub use vocab::{
    ChecklistStep, DeprecatedFeature, DiscoverySource, FailureKind, MigrationStatus, ProbeDepth,
    Severity, SurfaceSignal,
};
