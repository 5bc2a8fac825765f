//! The outage spool: while ClickHouse is unreachable, batches are appended to segment files
//! (the embedded store's format) in numbered generation folders under one root. A generation
//! is sealed (synced) before it is drained and removed only after every record in it was
//! inserted, so a crash at any point loses nothing; a replay may insert twice, which the
//! ReplacingMergeTree tables collapse.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{io_err, StoreError};
use crate::record::Record;
use crate::store::{list_segments, SegmentWriter, WriterOptions};

pub struct Spool {
    root: PathBuf,
    /// The generation being written, if any.
    writer: Option<SegmentWriter>,
    /// Sealed generations waiting to be drained, oldest first.
    sealed: Vec<PathBuf>,
    next_generation: u64,
    /// Records appended since this spool was opened and not yet drained.
    pending_records: u64,
}

impl Spool {
    /// Opens (creating) the spool at `root`; generations left by an earlier process are
    /// sealed and queued for draining.
    pub fn open(root: impl AsRef<Path>) -> Result<Spool, StoreError> {
        let root = root.as_ref().to_owned();
        fs::create_dir_all(&root).map_err(io_err("creating spool directory", &root))?;
        let mut generations = Vec::new();
        for entry in fs::read_dir(&root).map_err(io_err("reading spool directory", &root))? {
            let entry = entry.map_err(io_err("reading spool directory", &root))?;
            let name = entry.file_name();
            if let Some(n) = name.to_str().and_then(|n| n.parse::<u64>().ok()) {
                generations.push((n, entry.path()));
            }
        }
        generations.sort();
        let next_generation = generations.last().map_or(1, |(n, _)| n + 1);
        Ok(Spool {
            root,
            writer: None,
            sealed: generations.into_iter().map(|(_, p)| p).collect(),
            next_generation,
            pending_records: 0,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Nothing is waiting to be drained.
    pub fn is_empty(&self) -> bool {
        self.writer.is_none() && self.sealed.is_empty()
    }

    /// Records spooled by this process and not drained yet (leftovers of earlier ones are
    /// not counted).
    pub fn pending_records(&self) -> u64 {
        self.pending_records
    }

    /// Appends records to the current generation (starting one if needed) and flushes them
    /// to the file.
    pub fn append(&mut self, records: &[Record]) -> Result<(), StoreError> {
        let writer = match &mut self.writer {
            Some(w) => w,
            None => {
                let dir = self.root.join(format!("{:06}", self.next_generation));
                self.next_generation += 1;
                fs::create_dir_all(&dir).map_err(io_err("creating spool generation", &dir))?;
                self.writer
                    .insert(SegmentWriter::create(&dir, WriterOptions::default())?)
            }
        };
        for r in records {
            writer.append(r)?;
        }
        writer.flush()?;
        self.pending_records += records.len() as u64;
        Ok(())
    }

    /// Ends the current generation (synced to disk) and queues it for draining.
    pub fn seal(&mut self) -> Result<(), StoreError> {
        if let Some(writer) = self.writer.take() {
            let dir = writer.dir().to_owned();
            writer.finish()?;
            self.sealed.push(dir);
        }
        Ok(())
    }

    /// The sealed generations, oldest first.
    pub fn sealed(&self) -> &[PathBuf] {
        &self.sealed
    }

    /// Removes a drained generation (`records` of them).
    pub fn remove_drained(&mut self, dir: &Path, records: u64) -> Result<(), StoreError> {
        fs::remove_dir_all(dir).map_err(io_err("removing drained spool generation", dir))?;
        self.sealed.retain(|d| d != dir);
        self.pending_records = self.pending_records.saturating_sub(records);
        Ok(())
    }

    /// Removes the spool root if nothing is left in it.
    pub fn remove_if_empty(self) -> Result<(), StoreError> {
        if self.is_empty() {
            let _ = fs::remove_dir(&self.root);
        }
        Ok(())
    }
}

/// Directories under `dir` (itself included, up to three levels down) that hold segment
/// files: a run, a store's runs, or a spool's generations.
pub(crate) fn segment_dirs(dir: &Path) -> Result<Vec<PathBuf>, StoreError> {
    let mut out = Vec::new();
    walk(dir, 0, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) -> Result<(), StoreError> {
    if !list_segments(dir)?.is_empty() {
        out.push(dir.to_owned());
    }
    if depth >= 3 {
        return Ok(());
    }
    for entry in fs::read_dir(dir).map_err(io_err("reading directory", dir))? {
        let entry = entry.map_err(io_err("reading directory", dir))?;
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            walk(&entry.path(), depth + 1, out)?;
        }
    }
    Ok(())
}
