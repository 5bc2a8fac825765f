//! Reading segments. Damage (a torn tail after a crash, a bad checksum, an impossible length)
//! ends the segment cleanly and is reported with the bytes skipped; it is never decoded and
//! never an error item. Error items are I/O failures, segments of another schema version, and
//! intact frames that do not decode.

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use rkyv::util::AlignedVec;

use super::frame::{self, FRAME_HEADER_LEN, MAX_FRAME_LEN};
use super::segment::{self, HeaderCheck, SEGMENT_HEADER_LEN};
use crate::error::{io_err, StoreError};
use crate::record::{Record, SCHEMA_VERSION};

const READ_BUFFER_BYTES: usize = 256 * 1024;

/// Where a segment stopped being readable, and how much of it was left unread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    pub segment: PathBuf,
    /// Offset of the first unreadable byte (a frame start, or 0 for the header).
    pub offset: u64,
    /// Bytes from `offset` to the end of the file.
    pub skipped_bytes: u64,
    pub kind: DamageKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DamageKind {
    /// The file ends inside the segment header.
    TornHeader,
    /// The header is not a segment header.
    BadMagic,
    /// The file ends inside a frame.
    TornFrame,
    /// A length of zero or over [`MAX_FRAME_LEN`].
    BadLength(u32),
    /// The payload does not match its checksum.
    Checksum,
}

impl DamageKind {
    /// What an interrupted write leaves, as opposed to bytes changed after writing.
    pub fn is_torn(self) -> bool {
        matches!(self, DamageKind::TornHeader | DamageKind::TornFrame)
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            DamageKind::TornHeader => "torn header".to_owned(),
            DamageKind::BadMagic => "not a segment header".to_owned(),
            DamageKind::TornFrame => "torn frame".to_owned(),
            DamageKind::BadLength(len) => format!("impossible frame length {len}"),
            DamageKind::Checksum => "checksum mismatch".to_owned(),
        };
        write!(
            f,
            "{}: {what} at offset {}, {} bytes skipped",
            self.segment.display(),
            self.offset,
            self.skipped_bytes
        )
    }
}

/// Reads one segment file, record by record.
pub struct SegmentReader {
    path: PathBuf,
    file: BufReader<File>,
    /// Taken at open: a writer appending meanwhile is not chased.
    file_len: u64,
    /// Start of the next frame; after the last intact frame once done.
    offset: u64,
    payload: AlignedVec,
    damage: Option<Damage>,
    done: bool,
    records_read: u64,
    /// The segment's schema version, from its header.
    version: u16,
}

impl SegmentReader {
    /// Opens a segment and checks its header. A torn or foreign header is damage (the reader
    /// yields nothing); a segment of another schema version is an error.
    pub fn open(path: impl AsRef<Path>) -> Result<SegmentReader, StoreError> {
        let path = path.as_ref();
        let file = File::open(path).map_err(io_err("opening segment", path))?;
        let file_len = file
            .metadata()
            .map_err(io_err("reading metadata of segment", path))?
            .len();
        let mut reader = SegmentReader {
            path: path.to_owned(),
            file: BufReader::with_capacity(READ_BUFFER_BYTES, file),
            file_len,
            offset: 0,
            payload: AlignedVec::new(),
            damage: None,
            done: false,
            records_read: 0,
            version: SCHEMA_VERSION,
        };
        reader.read_header()?;
        Ok(reader)
    }

    fn read_header(&mut self) -> Result<(), StoreError> {
        if self.file_len < SEGMENT_HEADER_LEN as u64 {
            self.stop(DamageKind::TornHeader);
            return Ok(());
        }
        let mut header = [0u8; SEGMENT_HEADER_LEN];
        if !self.read_exact_or_torn(&mut header)? {
            self.stop(DamageKind::TornHeader);
            return Ok(());
        }
        match segment::check_header(&header) {
            HeaderCheck::Ok(version) => {
                self.version = version;
                self.offset = SEGMENT_HEADER_LEN as u64;
                Ok(())
            }
            HeaderCheck::BadMagic => {
                self.stop(DamageKind::BadMagic);
                Ok(())
            }
            HeaderCheck::Version(found) => Err(StoreError::SchemaVersion {
                path: self.path.clone(),
                found,
                expected: SCHEMA_VERSION,
            }),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The segment's schema version (this build's, or an older one it reads).
    pub fn schema_version(&self) -> u16 {
        self.version
    }

    /// Where reading stopped early, if it did.
    pub fn damage(&self) -> Option<&Damage> {
        self.damage.as_ref()
    }

    pub fn skipped_bytes(&self) -> u64 {
        self.damage.as_ref().map_or(0, |d| d.skipped_bytes)
    }

    /// The end of the last intact frame read so far (0 if the header is damaged).
    pub fn valid_len(&self) -> u64 {
        self.offset
    }

    pub fn records_read(&self) -> u64 {
        self.records_read
    }

    /// The next intact frame as `(offset, payload)`, or `None` at the end or at damage.
    /// Checks length and checksum only; decoding is the caller's choice.
    pub(crate) fn next_frame(&mut self) -> Result<Option<(u64, &AlignedVec)>, StoreError> {
        if self.done {
            return Ok(None);
        }
        let remaining = self.file_len - self.offset;
        if remaining == 0 {
            self.done = true;
            return Ok(None);
        }
        let mut header = [0u8; FRAME_HEADER_LEN];
        if remaining < FRAME_HEADER_LEN as u64 || !self.read_exact_or_torn(&mut header)? {
            self.stop(DamageKind::TornFrame);
            return Ok(None);
        }
        let (len, crc) = frame::parse_header(&header);
        if len == 0 || len > MAX_FRAME_LEN {
            self.stop(DamageKind::BadLength(len));
            return Ok(None);
        }
        // Checked before allocating, so a damaged length cannot make us read past the end.
        if u64::from(len) > remaining - FRAME_HEADER_LEN as u64 {
            self.stop(DamageKind::TornFrame);
            return Ok(None);
        }
        let mut payload = std::mem::take(&mut self.payload);
        payload.clear();
        payload.resize(len as usize, 0);
        let whole = self.read_exact_or_torn(&mut payload);
        self.payload = payload;
        if !whole? {
            self.stop(DamageKind::TornFrame);
            return Ok(None);
        }
        if crc32fast::hash(&self.payload) != crc {
            self.stop(DamageKind::Checksum);
            return Ok(None);
        }
        let frame_offset = self.offset;
        self.offset += FRAME_HEADER_LEN as u64 + u64::from(len);
        self.records_read += 1;
        Ok(Some((frame_offset, &self.payload)))
    }

    /// `Ok(false)` if the file ended first (it shrank since open).
    fn read_exact_or_torn(&mut self, buf: &mut [u8]) -> Result<bool, StoreError> {
        match self.file.read_exact(buf) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(false),
            Err(e) => {
                self.done = true;
                Err(io_err("reading segment", &self.path)(e))
            }
        }
    }

    /// Ends the segment at the current offset because of damage.
    fn stop(&mut self, kind: DamageKind) {
        let damage = Damage {
            segment: self.path.clone(),
            offset: self.offset,
            skipped_bytes: self.file_len.saturating_sub(self.offset),
            kind,
        };
        tracing::warn!(
            segment = %damage.segment.display(),
            offset = damage.offset,
            skipped_bytes = damage.skipped_bytes,
            torn = kind.is_torn(),
            "segment damaged; reading stops there: {damage}"
        );
        self.damage = Some(damage);
        self.done = true;
    }
}

impl Iterator for SegmentReader {
    type Item = Result<Record, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        let offset = match self.next_frame() {
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
            Ok(Some((offset, _))) => offset,
        };
        // The frame is intact, so a decode failure skips just this record.
        Some(
            frame::decode_version(self.version, &self.payload).map_err(|source| {
                StoreError::Decode {
                    path: self.path.clone(),
                    offset,
                    source,
                }
            }),
        )
    }
}

/// Reads every segment of a directory in order: a run, or any directory of segment files
/// (such as a spool). Damage in one segment ends that segment; reading goes on with the next.
pub struct RunReader {
    dir: PathBuf,
    pending: std::vec::IntoIter<(u32, PathBuf)>,
    current: Option<SegmentReader>,
    damage: Vec<Damage>,
    records_read: u64,
}

impl RunReader {
    pub fn open_dir(dir: impl AsRef<Path>) -> Result<RunReader, StoreError> {
        let dir = dir.as_ref();
        let segments = segment::list_segments(dir)?;
        Ok(RunReader {
            dir: dir.to_owned(),
            pending: segments.into_iter(),
            current: None,
            damage: Vec::new(),
            records_read: 0,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Damage found in the segments read so far (complete once iteration has ended).
    pub fn damage(&self) -> &[Damage] {
        &self.damage
    }

    /// Bytes skipped because of damage in the segments read so far.
    pub fn skipped_bytes(&self) -> u64 {
        self.damage.iter().map(|d| d.skipped_bytes).sum()
    }

    pub fn records_read(&self) -> u64 {
        self.records_read
    }

    fn close_current(&mut self) {
        if let Some(done) = self.current.take() {
            self.damage.extend(done.damage);
        }
    }
}

impl Iterator for RunReader {
    type Item = Result<Record, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let reader = match &mut self.current {
                Some(reader) => reader,
                None => {
                    let (_, path) = self.pending.next()?;
                    match SegmentReader::open(&path) {
                        Ok(reader) => self.current.insert(reader),
                        // Reported once; the following segments are still read.
                        Err(e) => return Some(Err(e)),
                    }
                }
            };
            match reader.next() {
                Some(item) => {
                    if item.is_ok() {
                        self.records_read += 1;
                    }
                    return Some(item);
                }
                None => self.close_current(),
            }
        }
    }
}
