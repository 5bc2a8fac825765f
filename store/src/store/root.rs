//! The store root: `<root>/runs/<run_id>/` holds a run's manifest and segments.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::manifest::{read_manifest, validate_run_id, write_manifest, RunManifest};
use super::reader::RunReader;
use super::segment::sync_dir;
use super::writer::{RunWriter, SegmentWriter, WriterOptions};
use crate::error::{io_err, StoreError};

/// Where `crawl` writes unless told otherwise (`--out DIR`).
pub const DEFAULT_STORE_DIR: &str = "./mcpcensus-data";
const RUNS_DIR: &str = "runs";

/// The lock file that keeps a second process from writing a run (a resumed run started twice
/// by overlapping cron jobs, or while a killed crawl's orphan still runs).
const LOCK_FILE: &str = "writer.lock";

/// Takes the run's writer lock, or says who holds it.
pub(crate) fn lock_run(dir: &Path, run_id: &str) -> Result<fs::File, StoreError> {
    use rustix::fs::{flock, FlockOperation};
    let path = dir.join(LOCK_FILE);
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io_err("opening the run lock", &path))?;
    match flock(&file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(file),
        Err(rustix::io::Errno::WOULDBLOCK) => Err(StoreError::RunLocked {
            run_id: run_id.to_owned(),
            path,
        }),
        Err(e) => Err(io_err("locking", &path)(e.into())),
    }
}

/// An embedded store: a directory of runs.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
    runs_dir: PathBuf,
    options: WriterOptions,
}

impl Store {
    /// Opens the store at `root`, creating it if missing.
    pub fn open(root: impl AsRef<Path>) -> Result<Store, StoreError> {
        Store::open_with(root, WriterOptions::default())
    }

    pub fn open_with(root: impl AsRef<Path>, options: WriterOptions) -> Result<Store, StoreError> {
        let root = root.as_ref().to_owned();
        let runs_dir = root.join(RUNS_DIR);
        fs::create_dir_all(&runs_dir).map_err(io_err("creating store directory", &runs_dir))?;
        Ok(Store {
            root,
            runs_dir,
            options,
        })
    }

    pub(crate) fn options(&self) -> WriterOptions {
        self.options
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The directory of run `run_id` (which may not exist).
    pub fn run_dir(&self, run_id: &str) -> Result<PathBuf, StoreError> {
        validate_run_id(run_id)?;
        Ok(self.runs_dir.join(run_id))
    }

    fn existing_run_dir(&self, run_id: &str) -> Result<PathBuf, StoreError> {
        let dir = self.run_dir(run_id)?;
        if dir.is_dir() {
            Ok(dir)
        } else {
            Err(StoreError::RunNotFound {
                run_id: run_id.to_owned(),
                path: dir,
            })
        }
    }

    /// Creates the run directory, writes `manifest` and opens the first segment.
    /// Fails with `RunExists` if the run is already there.
    pub fn create_run(&self, manifest: &RunManifest) -> Result<RunWriter, StoreError> {
        let dir = self.run_dir(&manifest.run_id)?;
        match fs::create_dir(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Err(StoreError::RunExists {
                    run_id: manifest.run_id.clone(),
                    path: dir,
                })
            }
            Err(e) => return Err(io_err("creating run directory", &dir)(e)),
        }
        sync_dir(&self.runs_dir)?;
        let lock = lock_run(&dir, &manifest.run_id)?;
        write_manifest(&dir, manifest)?;
        let segments = SegmentWriter::create(&dir, self.options)?;
        Ok(RunWriter::new(&manifest.run_id, segments, lock))
    }

    /// Reopens a run for appending, cutting a torn tail off its last segment first.
    /// The manifest is left as it is; the caller updates it.
    pub fn resume_run(&self, run_id: &str) -> Result<RunWriter, StoreError> {
        let dir = self.existing_run_dir(run_id)?;
        let lock = lock_run(&dir, run_id)?;
        let segments = SegmentWriter::resume(&dir, self.options)?;
        Ok(RunWriter::new(run_id, segments, lock))
    }

    /// Takes run `run_id`'s writer lock if no process holds it (`None` if one does); hold the
    /// file while working on the run's data.
    pub fn try_lock_run(&self, run_id: &str) -> Result<Option<fs::File>, StoreError> {
        match lock_run(&self.existing_run_dir(run_id)?, run_id) {
            Ok(lock) => Ok(Some(lock)),
            Err(StoreError::RunLocked { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Deletes run `run_id`'s folder (manifest, segments, dead letters), unless a process is
    /// writing the run (its lock is held): then nothing is touched and the answer is `false`.
    /// The folder is first renamed to a hidden name, so the run is listed whole or not at all.
    pub fn remove_run(&self, run_id: &str) -> Result<bool, StoreError> {
        let dir = self.existing_run_dir(run_id)?;
        let Some(lock) = self.try_lock_run(run_id)? else {
            return Ok(false);
        };
        // A leading '.' is never a run id, so `runs()` skips the folder from here on.
        let doomed = self.runs_dir.join(format!(".removing-{run_id}"));
        fs::rename(&dir, &doomed).map_err(io_err("renaming for removal", &dir))?;
        drop(lock);
        sync_dir(&self.runs_dir)?;
        fs::remove_dir_all(&doomed).map_err(io_err("removing", &doomed))?;
        Ok(true)
    }

    /// Every run with a manifest, sorted by run id (so by start time). Directories without a
    /// manifest (a crash inside `create_run`) are skipped.
    pub fn runs(&self) -> Result<Vec<RunManifest>, StoreError> {
        let mut runs = Vec::new();
        let entries =
            fs::read_dir(&self.runs_dir).map_err(io_err("listing runs in", &self.runs_dir))?;
        for entry in entries {
            let entry = entry.map_err(io_err("listing runs in", &self.runs_dir))?;
            let is_run = entry.file_type().is_ok_and(|t| t.is_dir())
                && entry
                    .file_name()
                    .to_str()
                    .is_some_and(|name| validate_run_id(name).is_ok());
            if !is_run {
                continue;
            }
            if let Some(manifest) = read_manifest(&entry.path())? {
                runs.push(manifest);
            }
        }
        // Start order: run ids name the second only, and two runs started within one second
        // (a scheduler's back-to-back jobs, a re-scan right after a crawl) differ by a random
        // suffix.
        runs.sort_by(|a, b| (a.started_at, &a.run_id).cmp(&(b.started_at, &b.run_id)));
        Ok(runs)
    }

    /// The most recently started run.
    pub fn latest_run(&self) -> Result<Option<RunManifest>, StoreError> {
        Ok(self.runs()?.pop())
    }

    pub fn manifest(&self, run_id: &str) -> Result<RunManifest, StoreError> {
        let dir = self.existing_run_dir(run_id)?;
        read_manifest(&dir)?.ok_or_else(|| StoreError::RunNotFound {
            run_id: run_id.to_owned(),
            path: dir.join(super::manifest::MANIFEST_FILE),
        })
    }

    /// Replaces the manifest of an existing run, atomically.
    pub fn write_manifest(&self, manifest: &RunManifest) -> Result<(), StoreError> {
        let dir = self.existing_run_dir(&manifest.run_id)?;
        write_manifest(&dir, manifest)
    }

    /// Reads a run's records in write order.
    pub fn read_run(&self, run_id: &str) -> Result<RunReader, StoreError> {
        RunReader::open_dir(self.existing_run_dir(run_id)?)
    }
}
