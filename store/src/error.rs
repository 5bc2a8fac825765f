//! The store's one error type. Each variant names what failed (path, run, segment, offset);
//! the underlying cause is kept as `source`, not repeated in the message.

use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{op} {path}")]
    Io {
        /// What was being done, e.g. "creating directory".
        op: &'static str,
        path: PathBuf,
        source: io::Error,
    },

    #[error("invalid run id {run_id:?}: {reason}")]
    InvalidRunId {
        run_id: String,
        reason: &'static str,
    },

    #[error("run {run_id} already exists in {path}")]
    RunExists { run_id: String, path: PathBuf },

    #[error("run {run_id} not found (no {path})")]
    RunNotFound { run_id: String, path: PathBuf },

    #[error(
        "run {run_id}'s part for {shard} is in both {first} and {second}: give each shard's \
         store once (reading both would count its sites twice)"
    )]
    SamePartTwice {
        run_id: String,
        shard: String,
        first: PathBuf,
        second: PathBuf,
    },

    #[error("run manifest {path} is not valid")]
    Manifest {
        path: PathBuf,
        source: serde_json::Error,
    },

    /// Left untouched: a segment of another schema is never cut or rewritten as damage.
    #[error(
        "segment {path} has record schema version {found}; this build reads version {expected} \
         only. The segment was left untouched: read, export or resume that run with a build of \
         schema {found} (`mcpcensus export --format jsonl`), or start a new run"
    )]
    SchemaVersion {
        path: PathBuf,
        found: u16,
        expected: u16,
    },

    /// A frame whose checksum matched but whose payload is not a record of this schema.
    #[error("segment {path}, frame at offset {offset}: record does not decode")]
    Decode {
        path: PathBuf,
        offset: u64,
        source: rkyv::rancor::Error,
    },

    #[error("encoding a record for {path}")]
    Encode {
        path: PathBuf,
        source: rkyv::rancor::Error,
    },

    #[error("record of {len} bytes for {path} exceeds the frame limit of {max} bytes")]
    RecordTooLarge { path: PathBuf, len: usize, max: u32 },

    /// An earlier write failed part-way, so the segment tail is unknown; resume to repair it.
    #[error("writer for {path} failed earlier and accepts no more records")]
    WriterFailed { path: PathBuf },

    /// Another process is writing this run (two writers would interleave their frames).
    #[error("run {run_id} is being written by another process (lock {path} is held)")]
    RunLocked { run_id: String, path: PathBuf },

    #[error("encoding JSON line {line}")]
    ExportEncode {
        line: u64,
        source: serde_json::Error,
    },

    #[error("writing the export table {path}")]
    ExportTable {
        path: PathBuf,
        source: parquet::errors::ParquetError,
    },

    #[error("writing JSON line {line}")]
    ExportWrite { line: u64, source: io::Error },

    /// A ClickHouse request failed; `op` says which (e.g. "inserting into sites").
    #[error("ClickHouse: {op}")]
    ClickHouse {
        op: String,
        source: clickhouse::error::Error,
    },

    #[error("ClickHouse: {op} did not finish within {secs} s")]
    ClickHouseTimeout { op: String, secs: u64 },

    /// The URL is shown with its password redacted.
    #[error("invalid ClickHouse URL {url}: {reason}")]
    InvalidUrl { url: String, reason: String },

    #[error("the ClickHouse CA file {path} is not a readable PEM file with a certificate")]
    ClickHouseCaFile {
        path: PathBuf,
        source: rustls_pki_types::pem::Error,
    },

    #[error("the ClickHouse CA file {path} holds a certificate that cannot be a trust root")]
    ClickHouseCaCertificate {
        path: PathBuf,
        source: rustls::Error,
    },

    #[error("setting up TLS for ClickHouse")]
    ClickHouseTls { source: rustls::Error },

    #[error("invalid ClickHouse database name {name:?}: letters, digits and _ only")]
    InvalidDatabase { name: String },

    #[error("invalid ClickHouse cluster name {name:?}: letters, digits and _ only")]
    InvalidCluster { name: String },

    #[error("ClickHouse at {url} has no cluster {name:?} in system.clusters (its remote_servers)")]
    UnknownCluster { name: String, url: String },

    /// Records left in the outage spool because ClickHouse did not come back in time.
    #[error("{records} records are still in the spool {path} (ClickHouse unreachable); replay them with `mcpcensus load {path} --clickhouse URL`")]
    SpoolNotDrained { path: PathBuf, records: u64 },

    /// ClickHouse rejected more rows for their content than the dead-letter file may hold.
    #[error("ClickHouse rejected too many records: the dead-letter file {path} reached its cap of {cap_bytes} bytes; see the server errors in it")]
    DeadLetterFull { path: PathBuf, cap_bytes: u64 },

    #[error("dead-letter file {path}, line {line}: not a dead-letter entry")]
    DeadLetterLine {
        path: PathBuf,
        line: usize,
        source: serde_json::Error,
    },

    /// The batching task ended before the sink did (it panicked or was cancelled).
    #[error("the ClickHouse sink's task stopped unexpectedly")]
    SinkTaskGone,
}

/// `map_err` helper: `file.sync_all().map_err(io_err("syncing", &path))`.
/// The path is copied only when there is an error (this runs on the append path).
pub(crate) fn io_err<'a>(
    op: &'static str,
    path: &'a Path,
) -> impl FnOnce(io::Error) -> StoreError + 'a {
    move |source| StoreError::Io {
        op,
        path: path.to_owned(),
        source,
    }
}
