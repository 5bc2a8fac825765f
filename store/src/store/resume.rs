//! Preparing a run for `--resume`: one pass over its segments that shows the caller every
//! intact record and drops the ones it does not keep (placeholders such as `not_started`,
//! whose sites the resumed run scans again), so each input line ends with one record. Only the
//! segments holding dropped records are rewritten, each to a temporary file renamed over the
//! old one: a crash mid-way leaves every segment whole, and the next resume finishes the job.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::frame;
use super::reader::{Damage, SegmentReader};
use super::root::{lock_run, Store};
use super::segment::{list_segments, segment_header_of, sync_dir};
use super::writer::{RunWriter, SegmentWriter};
use crate::error::{io_err, StoreError};
use crate::record::Record;

const REWRITE_SUFFIX: &str = ".rewrite";

/// What the resume pass found.
#[derive(Debug, Default)]
pub struct ResumePass {
    /// Records kept (and shown to the caller).
    pub kept: u64,
    /// Records dropped from the run.
    pub dropped: u64,
    /// Intact frames that do not decode; kept in place, not shown.
    pub undecodable: u64,
    pub rewritten_segments: u32,
    /// Damage found (a torn tail is cut when the run is reopened for appending).
    pub damage: Vec<Damage>,
}

impl Store {
    /// Reopens `run_id` for appending like [`Store::resume_run`], after one pass over its
    /// records that calls `keep` on each; records it rejects are removed from the run. The
    /// run's writer lock is held from before the pass.
    pub fn resume_run_keeping(
        &self,
        run_id: &str,
        keep: impl FnMut(&Record) -> bool,
    ) -> Result<(RunWriter, ResumePass), StoreError> {
        let dir = self.read_run(run_id)?.dir().to_owned();
        let lock = lock_run(&dir, run_id)?;
        let pass = drop_rejected(&dir, keep)?;
        let segments = SegmentWriter::resume(&dir, self.options())?;
        Ok((RunWriter::new(run_id, segments, lock), pass))
    }
}

fn drop_rejected(
    dir: &Path,
    mut keep: impl FnMut(&Record) -> bool,
) -> Result<ResumePass, StoreError> {
    let mut pass = ResumePass::default();
    for (_, path) in list_segments(dir)? {
        let dropped = scan_segment(&path, &mut keep, &mut pass)?;
        if !dropped.is_empty() {
            rewrite_without(dir, &path, &dropped)?;
            pass.rewritten_segments += 1;
        }
    }
    Ok(pass)
}

/// Offsets of the frames of `path` that `keep` rejects.
fn scan_segment(
    path: &Path,
    keep: &mut impl FnMut(&Record) -> bool,
    pass: &mut ResumePass,
) -> Result<Vec<u64>, StoreError> {
    let mut reader = SegmentReader::open(path)?;
    let mut dropped = Vec::new();
    let version = reader.schema_version();
    while let Some((offset, payload)) = reader.next_frame()? {
        match frame::decode_version(version, payload) {
            Ok(record) if keep(&record) => pass.kept += 1,
            Ok(_) => {
                dropped.push(offset);
                pass.dropped += 1;
            }
            Err(_) => pass.undecodable += 1,
        }
    }
    pass.damage.extend(reader.damage().cloned());
    Ok(dropped)
}

/// Rewrites segment `path` without the frames at `dropped` (sorted offsets) and without any
/// damaged tail, then renames the new file over it.
fn rewrite_without(dir: &Path, path: &Path, dropped: &[u64]) -> Result<(), StoreError> {
    let tmp = PathBuf::from(format!("{}{REWRITE_SUFFIX}", path.display()));
    let mut out = BufWriter::new(File::create(&tmp).map_err(io_err("creating", &tmp))?);
    let mut reader = SegmentReader::open(path)?;
    // The frames are copied as they are, so the segment keeps its own schema version.
    out.write_all(&segment_header_of(reader.schema_version()))
        .map_err(io_err("writing", &tmp))?;
    let mut skip = dropped.iter().peekable();
    while let Some((offset, payload)) = reader.next_frame()? {
        if skip.peek() == Some(&&offset) {
            skip.next();
            continue;
        }
        out.write_all(&frame::header(payload))
            .and_then(|()| out.write_all(payload))
            .map_err(io_err("writing", &tmp))?;
    }
    let file = out
        .into_inner()
        .map_err(|e| io_err("writing", &tmp)(e.into_error()))?;
    file.sync_all().map_err(io_err("syncing", &tmp))?;
    drop(file);
    fs::rename(&tmp, path).map_err(io_err("renaming rewritten segment to", path))?;
    sync_dir(dir)
}
