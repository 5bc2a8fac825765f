//! Torn tail repair: before appending to a segment again, cut it back to its last intact frame,
//! so a crash's partial frame never ends up in the middle of the file (where readers would stop
//! before the records appended after it).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use super::reader::{Damage, SegmentReader};
use super::segment::segment_header;
use crate::error::{io_err, StoreError};

/// Truncates `path` after its last intact frame (rewriting the header if that is what is
/// damaged) and syncs it. Returns the damage that was cut off, if any.
pub(crate) fn repair_tail(path: &Path) -> Result<Option<Damage>, StoreError> {
    let mut reader = SegmentReader::open(path)?;
    while reader.next_frame()?.is_some() {}
    let Some(damage) = reader.damage().cloned() else {
        return Ok(None);
    };
    let valid_len = reader.valid_len();
    drop(reader);

    let mut file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io_err("opening segment for repair", path))?;
    file.set_len(valid_len)
        .map_err(io_err("truncating segment", path))?;
    if valid_len == 0 {
        file.write_all(&segment_header())
            .map_err(io_err("rewriting segment header", path))?;
    }
    file.sync_all().map_err(io_err("syncing segment", path))?;
    tracing::warn!(
        segment = %path.display(),
        offset = damage.offset,
        truncated_bytes = damage.skipped_bytes,
        torn = damage.kind.is_torn(),
        "cut damaged segment tail before appending: {damage}"
    );
    Ok(Some(damage))
}
