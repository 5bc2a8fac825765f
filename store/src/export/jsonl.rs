//! JSON lines: one record per line, with the record's serde field names (a public contract).

use std::io::{BufWriter, Write};

use crate::error::StoreError;
use crate::record::Record;

const EXPORT_BUFFER_BYTES: usize = 256 * 1024;

/// Writes each record as one JSON line and returns how many were written. Stops at the first
/// error item, after flushing the lines before it.
pub fn write_jsonl<W: Write>(
    records: impl Iterator<Item = Result<Record, StoreError>>,
    out: W,
) -> Result<u64, StoreError> {
    let mut out = BufWriter::with_capacity(EXPORT_BUFFER_BYTES, out);
    let mut line = Vec::with_capacity(4096);
    let mut written = 0u64;
    let mut result = Ok(());
    for record in records {
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                result = Err(e);
                break;
            }
        };
        line.clear();
        serde_json::to_writer(&mut line, &record).map_err(|source| StoreError::ExportEncode {
            line: written + 1,
            source,
        })?;
        line.push(b'\n');
        out.write_all(&line)
            .map_err(|source| StoreError::ExportWrite {
                line: written + 1,
                source,
            })?;
        written += 1;
    }
    out.flush().map_err(|source| StoreError::ExportWrite {
        line: written,
        source,
    })?;
    result.map(|()| written)
}
