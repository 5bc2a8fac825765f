//! `mcpcensus load`: replays an embedded store (a store root, its `runs/` or one run) or a
//! spool into ClickHouse, with each run's manifest as its `runs` row (a spool has none). Safe
//! to repeat: the tables collapse rows with the same key.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::client::{Backoff, Connection};
use super::dead_letter::{insert_isolating, DeadLetters, InsertPolicy};
use super::insert::record_run;
use super::rows::RunRow;
use super::spool::segment_dirs;
use crate::error::StoreError;
use crate::store::{read_manifest, Damage, RunReader};

/// What a load did.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LoadSummary {
    /// Directories of segments read.
    pub dirs: Vec<PathBuf>,
    pub records: u64,
    pub batches: u64,
    /// Runs whose manifest was written into `runs`.
    pub runs: Vec<String>,
    /// Records that did not decode (skipped).
    pub unreadable: u64,
    /// Records the server refused, written to the dead-letter file (not in `records`).
    pub dead_lettered: u64,
    pub damage: Vec<Damage>,
}

/// Inserts every record found under `dir` in batches of `batch_rows`, retrying each batch
/// with `backoff` up to `attempts` times. With `dead`, records the server refuses are
/// isolated and written there (see [`insert_isolating`]) and the rest load; without, the
/// first refusal stops the load.
pub async fn load_dir(
    conn: &Connection,
    dir: &Path,
    batch_rows: usize,
    attempts: u32,
    backoff: &Backoff,
    timeout: Duration,
    mut dead: Option<&mut DeadLetters>,
) -> Result<LoadSummary, StoreError> {
    let mut summary = LoadSummary {
        dirs: segment_dirs(dir)?,
        ..LoadSummary::default()
    };
    let batch_rows = batch_rows.max(1);
    let mut failed = 0;
    for segments in summary.dirs.clone() {
        let mut reader = RunReader::open_dir(&segments)?;
        let mut batch = Vec::with_capacity(batch_rows);
        let records_before = summary.records;
        loop {
            batch.clear();
            let mut items = 0;
            for item in reader.by_ref().take(batch_rows) {
                items += 1;
                match item {
                    Ok(r) => batch.push(r),
                    Err(e) => {
                        summary.unreadable += 1;
                        tracing::warn!(error = %e, "skipping an unreadable record");
                    }
                }
            }
            if items == 0 {
                break;
            }
            if batch.is_empty() {
                continue;
            }
            let policy = InsertPolicy {
                timeout,
                attempts,
                backoff,
            };
            let dead_before = dead.as_ref().map_or(0, |d| d.written);
            insert_isolating(conn, &batch, &policy, &mut failed, dead.as_deref_mut()).await??;
            let refused = dead.as_ref().map_or(0, |d| d.written) - dead_before;
            summary.dead_lettered += refused;
            summary.records += batch.len() as u64 - refused;
            summary.batches += 1;
        }
        summary.damage.extend(reader.damage().iter().cloned());
        // After the records, so a run's row never names records ClickHouse does not hold.
        if let Some(manifest) = read_manifest(&segments)? {
            let mut row = RunRow::of_manifest(&manifest, "load", summary.records - records_before);
            row.server_version.clone_from(&conn.version);
            record_run(conn, &row).await?;
            summary.runs.push(manifest.run_id);
        }
    }
    Ok(summary)
}
