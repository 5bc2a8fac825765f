//! Appending records to a directory of segments, rotating at a size limit. Segments are
//! fsynced when rotated away from and at `finish`; `flush` only empties the buffer.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::frame::{self, FrameEncoder, FRAME_HEADER_LEN, MAX_FRAME_LEN};
use super::reader::{Damage, SegmentReader};
use super::repair::repair_tail;
use super::segment::SEGMENT_HEADER_LEN;
use super::segment::{list_segments, segment_file_name, segment_header, sync_dir};
use crate::error::{io_err, StoreError};
use crate::record::{Record, SCHEMA_VERSION};

/// A segment is rotated before it would grow past this.
pub const DEFAULT_MAX_SEGMENT_BYTES: u64 = 64 * 1024 * 1024;
/// Write buffer per open segment.
pub const DEFAULT_WRITE_BUFFER_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterOptions {
    /// Rotate before a segment would exceed this (a segment always takes at least one record).
    pub max_segment_bytes: u64,
    pub write_buffer_bytes: usize,
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            max_segment_bytes: DEFAULT_MAX_SEGMENT_BYTES,
            write_buffer_bytes: DEFAULT_WRITE_BUFFER_BYTES,
        }
    }
}

/// Appends framed records to the segments of one directory.
pub struct SegmentWriter {
    dir: PathBuf,
    options: WriterOptions,
    index: u32,
    path: PathBuf,
    out: BufWriter<File>,
    /// Bytes in the current segment, buffered ones included.
    segment_len: u64,
    encoder: FrameEncoder,
    records_written: u64,
    /// Set after a failed write: the tail is unknown, so nothing more is appended.
    failed: bool,
    repaired: Option<Damage>,
}

impl SegmentWriter {
    /// Starts the first segment in `dir` (which must exist); fails if it already exists.
    pub fn create(
        dir: impl AsRef<Path>,
        options: WriterOptions,
    ) -> Result<SegmentWriter, StoreError> {
        let dir = dir.as_ref();
        let (path, out) = new_segment(dir, 1, &options)?;
        sync_dir(dir)?;
        Ok(SegmentWriter::with(
            dir,
            options,
            1,
            path,
            out,
            SEGMENT_HEADER_LEN as u64,
            None,
        ))
    }

    /// Continues the last segment in `dir`, first cutting off a torn or damaged tail
    /// (see [`SegmentWriter::repaired`]). Starts the first segment if there is none.
    pub fn resume(
        dir: impl AsRef<Path>,
        options: WriterOptions,
    ) -> Result<SegmentWriter, StoreError> {
        let dir = dir.as_ref();
        let Some((index, path)) = list_segments(dir)?.pop() else {
            return SegmentWriter::create(dir, options);
        };
        let repaired = repair_tail(&path)?;
        if SegmentReader::open(&path)?.schema_version() != SCHEMA_VERSION {
            // A store of an earlier schema: its segments stay as written (and readable); this
            // build's records go to a segment of their own.
            let (path, out) = new_segment(dir, index + 1, &options)?;
            sync_dir(dir)?;
            let len = SEGMENT_HEADER_LEN as u64;
            return Ok(SegmentWriter::with(
                dir,
                options,
                index + 1,
                path,
                out,
                len,
                repaired,
            ));
        }
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(io_err("opening segment for append", &path))?;
        let len = file
            .metadata()
            .map_err(io_err("reading metadata of segment", &path))?
            .len();
        let out = BufWriter::with_capacity(options.write_buffer_bytes, file);
        Ok(SegmentWriter::with(
            dir, options, index, path, out, len, repaired,
        ))
    }

    fn with(
        dir: &Path,
        options: WriterOptions,
        index: u32,
        path: PathBuf,
        out: BufWriter<File>,
        segment_len: u64,
        repaired: Option<Damage>,
    ) -> SegmentWriter {
        SegmentWriter {
            dir: dir.to_owned(),
            options,
            index,
            path,
            out,
            segment_len,
            encoder: FrameEncoder::new(),
            records_written: 0,
            failed: false,
            repaired,
        }
    }

    pub fn append(&mut self, record: &Record) -> Result<(), StoreError> {
        if self.failed {
            return Err(StoreError::WriterFailed {
                path: self.path.clone(),
            });
        }
        self.encoder
            .encode(record)
            .map_err(|source| StoreError::Encode {
                path: self.path.clone(),
                source,
            })?;
        let len = self.encoder.payload().len();
        if len > MAX_FRAME_LEN as usize {
            return Err(StoreError::RecordTooLarge {
                path: self.path.clone(),
                len,
                max: MAX_FRAME_LEN,
            });
        }
        let frame_len = (FRAME_HEADER_LEN + len) as u64;
        let has_frames = self.segment_len > SEGMENT_HEADER_LEN as u64;
        if has_frames && self.segment_len + frame_len > self.options.max_segment_bytes {
            self.rotate().inspect_err(|_| self.failed = true)?;
        }
        let payload = self.encoder.payload();
        let written = self
            .out
            .write_all(&frame::header(payload))
            .and_then(|()| self.out.write_all(payload));
        if let Err(e) = written {
            self.failed = true;
            return Err(io_err("appending to segment", &self.path)(e));
        }
        self.segment_len += frame_len;
        self.records_written += 1;
        Ok(())
    }

    /// Hands buffered records to the OS (readers see them; a power loss may not).
    pub fn flush(&mut self) -> Result<(), StoreError> {
        self.out.flush().map_err(|e| {
            self.failed = true;
            io_err("flushing segment", &self.path)(e)
        })
    }

    /// Flushes and fsyncs the current segment.
    pub fn sync(&mut self) -> Result<(), StoreError> {
        self.flush()?;
        // A failed fsync may have dropped pages; retrying cannot tell, so stop appending.
        self.out.get_ref().sync_all().map_err(|e| {
            self.failed = true;
            io_err("syncing segment", &self.path)(e)
        })
    }

    /// Syncs everything written; the writer is closed afterwards.
    pub fn finish(mut self) -> Result<(), StoreError> {
        self.sync()
    }

    fn rotate(&mut self) -> Result<(), StoreError> {
        self.sync()?;
        let index = self.index + 1;
        let (path, out) = new_segment(&self.dir, index, &self.options)?;
        sync_dir(&self.dir)?;
        self.index = index;
        self.path = path;
        self.out = out;
        self.segment_len = SEGMENT_HEADER_LEN as u64;
        Ok(())
    }

    /// Records appended by this writer (not those already in a resumed segment).
    pub fn records_written(&self) -> u64 {
        self.records_written
    }

    /// The segment being appended to.
    pub fn segment_path(&self) -> &Path {
        &self.path
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// What `resume` cut off the last segment, if anything.
    pub fn repaired(&self) -> Option<&Damage> {
        self.repaired.as_ref()
    }
}

impl Drop for SegmentWriter {
    /// Best effort, for early returns: `finish` is what makes records durable.
    fn drop(&mut self) {
        if self.failed {
            return;
        }
        if let Err(e) = self.out.flush() {
            tracing::warn!(segment = %self.path.display(), error = %e, "flushing segment on drop failed");
        }
    }
}

/// Creates segment `index` in `dir` with its header buffered.
fn new_segment(
    dir: &Path,
    index: u32,
    options: &WriterOptions,
) -> Result<(PathBuf, BufWriter<File>), StoreError> {
    let path = dir.join(segment_file_name(index));
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(io_err("creating segment", &path))?;
    let mut out = BufWriter::with_capacity(options.write_buffer_bytes, file);
    out.write_all(&segment_header())
        .map_err(io_err("writing segment header", &path))?;
    Ok((path, out))
}

/// Appends one run's records. A thin layer over [`SegmentWriter`] that knows its run.
pub struct RunWriter {
    run_id: String,
    segments: SegmentWriter,
    /// Held while the writer lives; the OS releases it when the process dies.
    _lock: File,
}

impl RunWriter {
    pub(crate) fn new(run_id: &str, segments: SegmentWriter, lock: File) -> RunWriter {
        RunWriter {
            run_id: run_id.to_owned(),
            segments,
            _lock: lock,
        }
    }

    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    pub fn append(&mut self, record: &Record) -> Result<(), StoreError> {
        self.segments.append(record)
    }

    /// Empties the write buffer (no fsync).
    pub fn flush(&mut self) -> Result<(), StoreError> {
        self.segments.flush()
    }

    /// Flushes and fsyncs.
    pub fn sync(&mut self) -> Result<(), StoreError> {
        self.segments.sync()
    }

    /// Records appended by this writer (a resumed run's earlier records are not counted).
    pub fn records_written(&self) -> u64 {
        self.segments.records_written()
    }

    /// What resuming cut off the end of the run, if anything.
    pub fn repaired(&self) -> Option<&Damage> {
        self.segments.repaired()
    }

    /// Flushes and fsyncs; call at shutdown before writing the final manifest.
    pub fn finish(self) -> Result<(), StoreError> {
        self.segments.finish()
    }
}
