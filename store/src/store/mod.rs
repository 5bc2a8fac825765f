//! The embedded store: per run, a JSON manifest and append-only segment files of checksummed
//! rkyv records that survive crashes (torn tails are detected, never misread, and cut on resume).

mod counts;
mod frame;
mod manifest;
mod reader;
mod repair;
mod resume;
mod root;
mod schema2;
mod schema3;
mod schema4;
mod schema5;
mod segment;
mod set;
mod tool_v5;
mod writer;

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_counts;
#[cfg(test)]
mod tests_resume;
#[cfg(test)]
mod tests_set;

pub use counts::{RunCounts, OUTCOME_KEY_PREFIX};
pub use frame::{decode_frame_checked, FRAME_HEADER_LEN, MAX_FRAME_LEN};
pub(crate) use manifest::read_manifest;
pub use manifest::{
    new_run_id, validate_run_id, InputChecksum, Provenance, RunManifest, RunStatus, ALL_SHARDS,
    MANIFEST_FILE,
};
pub use reader::{Damage, DamageKind, RunReader, SegmentReader};
pub use resume::ResumePass;
pub use root::{Store, DEFAULT_STORE_DIR};
pub use segment::{
    list_segments, segment_file_name, READABLE_SCHEMA_VERSIONS, SEGMENT_HEADER_LEN, SEGMENT_MAGIC,
};
pub use set::{RunPart, SetReader, StoreSet};
pub use writer::{
    RunWriter, SegmentWriter, WriterOptions, DEFAULT_MAX_SEGMENT_BYTES, DEFAULT_WRITE_BUFFER_BYTES,
};
