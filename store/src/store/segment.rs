//! Segment files: a 16-byte header (magic, schema version, zero padding) followed by frames.
//! Files are named `seg-000001.mcs`, `seg-000002.mcs`, ... so name order is write order.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{io_err, StoreError};
use crate::record::SCHEMA_VERSION;

pub const SEGMENT_MAGIC: [u8; 8] = *b"MCPCSEG1";
pub const SEGMENT_HEADER_LEN: usize = 16;
const SEGMENT_PREFIX: &str = "seg-";
const SEGMENT_SUFFIX: &str = ".mcs";

/// The header every segment written by this build starts with.
pub(crate) fn segment_header() -> [u8; SEGMENT_HEADER_LEN] {
    segment_header_of(SCHEMA_VERSION)
}

/// The header of a segment of schema `version` (a rewrite keeps the segment's own).
pub(crate) fn segment_header_of(version: u16) -> [u8; SEGMENT_HEADER_LEN] {
    let mut out = [0u8; SEGMENT_HEADER_LEN];
    out[..8].copy_from_slice(&SEGMENT_MAGIC);
    out[8..10].copy_from_slice(&version.to_le_bytes());
    out
}

/// The schema versions this build reads: its own, and schemas 2 to 5 through `schema2` to
/// `schema5`.
pub const READABLE_SCHEMA_VERSIONS: [u16; 5] = [
    super::schema2::VERSION,
    super::schema3::VERSION,
    super::schema4::VERSION,
    super::schema5::VERSION,
    SCHEMA_VERSION,
];

/// What a header says.
pub(crate) enum HeaderCheck {
    /// A segment this build reads, of this schema version.
    Ok(u16),
    /// Not a segment header (zeroes after a crash, or a foreign file).
    BadMagic,
    /// A segment of a schema version this build does not read.
    Version(u16),
}

pub(crate) fn check_header(bytes: &[u8; SEGMENT_HEADER_LEN]) -> HeaderCheck {
    if bytes[..8] != SEGMENT_MAGIC {
        return HeaderCheck::BadMagic;
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if READABLE_SCHEMA_VERSIONS.contains(&version) {
        HeaderCheck::Ok(version)
    } else {
        HeaderCheck::Version(version)
    }
}

pub fn segment_file_name(index: u32) -> String {
    format!("{SEGMENT_PREFIX}{index:06}{SEGMENT_SUFFIX}")
}

fn parse_segment_name(name: &str) -> Option<u32> {
    let digits = name
        .strip_prefix(SEGMENT_PREFIX)?
        .strip_suffix(SEGMENT_SUFFIX)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The segment files in `dir`, in write order; other files are ignored.
pub fn list_segments(dir: &Path) -> Result<Vec<(u32, PathBuf)>, StoreError> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_err("listing segments in", dir))? {
        let entry = entry.map_err(io_err("listing segments in", dir))?;
        if let Some(index) = entry.file_name().to_str().and_then(parse_segment_name) {
            out.push((index, entry.path()));
        }
    }
    out.sort_unstable_by_key(|(index, _)| *index);
    Ok(out)
}

/// Makes a just created or renamed entry in `dir` durable (a no-op where directories cannot be
/// opened, i.e. not on Unix).
pub(crate) fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    if cfg!(unix) {
        fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(io_err("syncing directory", dir))?;
    }
    Ok(())
}
