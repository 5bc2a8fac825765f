//! The run manifest (`runs/<run_id>/manifest.json`): what was run, how, and how it ended.
//! Written whole to a temporary file and renamed, so a reader sees the old or the new one.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::counts::RunCounts;
use super::segment::sync_dir;
use crate::error::{io_err, StoreError};
use crate::record::SCHEMA_VERSION;

pub const MANIFEST_FILE: &str = "manifest.json";
const MANIFEST_TMP_FILE: &str = "manifest.json.tmp";
const MAX_RUN_ID_LEN: usize = 128;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Running,
    Complete,
    /// Stopped early (Ctrl-C, SIGTERM, `--max-duration`); `--resume` continues it.
    Interrupted,
    /// Stopped because records could not be written (`failure` says why); `--resume`
    /// continues it once the problem is fixed.
    Failed,
}

impl RunStatus {
    /// The status as the manifest spells it (`running`, `complete`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Complete => "complete",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunManifest {
    pub run_id: String,
    #[serde(with = "crate::rfc3339_ms")]
    pub started_at: u64,
    #[serde(with = "crate::rfc3339_ms_opt")]
    pub ended_at: Option<u64>,
    pub status: RunStatus,
    pub argv: Vec<String>,
    /// The effective configuration, flags applied.
    pub config: serde_json::Value,
    pub dry_run: bool,
    /// Records per outcome and other totals, filled in at the end (`None` until then).
    #[serde(default, with = "super::counts::optional")]
    pub counts: Option<RunCounts>,
    pub schema_version: u16,
    /// What makes the run's dataset citable; empty in manifests written before it existed.
    #[serde(default)]
    pub provenance: Provenance,
    /// Why the run failed (status `failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// What decides which sites are in the run (input files, shard, exclusions), so
    /// `--resume` can refuse when they changed. Opaque to the store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<serde_json::Value>,
    /// `crawl --label`: what the run is (e.g. `nightly`); reports trend by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// The build and inputs of a run (the settings are `config`); exports carry it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// e.g. `mcpcensus 0.1.0`.
    pub mcpcensus_version: String,
    /// The build: target and profile, e.g. `x86_64-unknown-linux-gnu release` (empty in
    /// manifests written before it was recorded).
    #[serde(default)]
    pub build: String,
    /// The public suffix list compiled in (the `psl` crate version, which tracks the list).
    pub public_suffix_list: String,
    pub inputs: Vec<InputChecksum>,
}

/// One input list as read: standard input has no size or checksum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputChecksum {
    /// The path as given, or `-`.
    pub input: String,
    pub bytes: Option<u64>,
    /// XXH3-64 of the file's bytes (compressed ones as stored), 16 hex digits.
    pub xxh3_64: Option<String>,
    /// The lines the run read from it, once it was read to its end (absent in manifests
    /// written before it was recorded, and for a list a re-scan only chose its targets from):
    /// a run written by shards counts each input's lines once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<u64>,
}

impl RunManifest {
    /// A manifest for a run starting now-ish: status `running`, no counts yet.
    pub fn new(
        run_id: impl Into<String>,
        started_at: u64,
        argv: Vec<String>,
        config: serde_json::Value,
        dry_run: bool,
    ) -> RunManifest {
        RunManifest {
            run_id: run_id.into(),
            started_at,
            ended_at: None,
            status: RunStatus::Running,
            argv,
            config,
            dry_run,
            counts: None,
            schema_version: SCHEMA_VERSION,
            provenance: Provenance::default(),
            failure: None,
            selection: None,
            label: None,
        }
    }

    /// The shard this manifest's process crawled (`2/4`, from its selection), `None` for a
    /// run of every site or a manifest that does not say.
    pub fn shard(&self) -> Option<&str> {
        self.selection
            .as_ref()?
            .get("shard")?
            .as_str()
            .filter(|s| *s != ALL_SHARDS)
    }
}

/// How a selection names the shard of every site (`--shard` not given).
pub const ALL_SHARDS: &str = "0/1";

/// A new run id such as `20261130T220101Z-a1b2c3`: UTC start time, so ids sort by time, and
/// 24 random bits so runs started in the same second do not collide.
pub fn new_run_id() -> String {
    let mut suffix = [0u8; 3];
    if getrandom::fill(&mut suffix).is_err() {
        // No OS randomness: the clock's nanoseconds and the pid still separate runs.
        let nanos = std::time::SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let mixed = nanos ^ std::process::id().rotate_left(12);
        suffix.copy_from_slice(&mixed.to_le_bytes()[..3]);
    }
    format_run_id(crate::record::now_ms(), suffix)
}

pub(crate) fn format_run_id(now_ms: u64, suffix: [u8; 3]) -> String {
    let time = humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_millis(now_ms));
    let compact: String = time
        .to_string()
        .chars()
        .filter(|c| *c != '-' && *c != ':')
        .collect();
    format!(
        "{compact}-{:02x}{:02x}{:02x}",
        suffix[0], suffix[1], suffix[2]
    )
}

/// Run ids name directories, so only plain names are accepted.
pub fn validate_run_id(run_id: &str) -> Result<(), StoreError> {
    let reason = if run_id.is_empty() {
        Some("empty")
    } else if run_id.len() > MAX_RUN_ID_LEN {
        Some("longer than 128 bytes")
    } else if run_id.starts_with('.') {
        Some("starts with '.'")
    } else if !run_id
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    {
        Some("only ASCII letters, digits, '-', '_' and '.' are allowed")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(StoreError::InvalidRunId {
            run_id: run_id.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}

/// Writes `manifest` into `run_dir` atomically: temporary file, fsync, rename, fsync directory.
pub(crate) fn write_manifest(run_dir: &Path, manifest: &RunManifest) -> Result<(), StoreError> {
    let tmp = run_dir.join(MANIFEST_TMP_FILE);
    let path = run_dir.join(MANIFEST_FILE);
    let mut json = serde_json::to_vec_pretty(manifest).map_err(|source| StoreError::Manifest {
        path: path.clone(),
        source,
    })?;
    json.push(b'\n');
    let mut file = File::create(&tmp).map_err(io_err("creating", &tmp))?;
    file.write_all(&json).map_err(io_err("writing", &tmp))?;
    file.sync_all().map_err(io_err("syncing", &tmp))?;
    drop(file);
    fs::rename(&tmp, &path).map_err(io_err("renaming manifest into", &path))?;
    sync_dir(run_dir)
}

/// Reads the manifest in `run_dir`; `Ok(None)` if there is none.
pub(crate) fn read_manifest(run_dir: &Path) -> Result<Option<RunManifest>, StoreError> {
    let path = run_dir.join(MANIFEST_FILE);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err("reading", &path)(e)),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| StoreError::Manifest { path, source })
}
