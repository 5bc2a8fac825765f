//! One frame: `u32 LE payload length`, `u32 LE crc32 of the payload`, then the payload, which is
//! the rkyv bytes of one [`Record`]. The checksum is what lets readers tell a torn or damaged
//! frame from a record, so nothing is ever decoded from bytes that were not written whole.

use rkyv::rancor;
use rkyv::util::AlignedVec;

use crate::record::Record;

/// Length and checksum, before each payload.
pub const FRAME_HEADER_LEN: usize = 8;

/// A length above this is corruption: no record comes near it, and readers must not allocate
/// whatever a damaged length field claims.
pub const MAX_FRAME_LEN: u32 = 16 * 1024 * 1024;

/// Serializes records into one reused buffer, so appending allocates nothing per record.
pub(crate) struct FrameEncoder {
    buf: AlignedVec,
}

impl FrameEncoder {
    pub(crate) fn new() -> FrameEncoder {
        FrameEncoder {
            buf: AlignedVec::with_capacity(4096),
        }
    }

    /// Serializes `record` into the buffer, replacing the previous one.
    pub(crate) fn encode(&mut self, record: &Record) -> Result<(), rancor::Error> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        // On error the buffer is dropped and the next call starts from an empty one.
        self.buf = rkyv::api::high::to_bytes_in::<_, rancor::Error>(record, buf)?;
        Ok(())
    }

    /// The payload of the last `encode`.
    pub(crate) fn payload(&self) -> &[u8] {
        &self.buf
    }
}

/// The header for `payload` (callers check the length limit first).
pub(crate) fn header(payload: &[u8]) -> [u8; FRAME_HEADER_LEN] {
    let mut out = [0u8; FRAME_HEADER_LEN];
    out[..4].copy_from_slice(&(payload.len() as u32).to_le_bytes());
    out[4..].copy_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out
}

/// `(payload length, crc32)`.
pub(crate) fn parse_header(bytes: &[u8; FRAME_HEADER_LEN]) -> (u32, u32) {
    let len = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let crc = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    (len, crc)
}

/// Checked decode: bytes that are not a valid archived record give an error, never UB.
pub(crate) fn decode(payload: &AlignedVec) -> Result<Record, rancor::Error> {
    rkyv::from_bytes::<Record, rancor::Error>(payload)
}

/// [`decode`] of a frame from a segment of schema `version` (one the header check accepted).
pub(crate) fn decode_version(version: u16, payload: &AlignedVec) -> Result<Record, rancor::Error> {
    if version == super::schema2::VERSION {
        super::schema2::decode(payload)
    } else if version == super::schema3::VERSION {
        super::schema3::decode(payload)
    } else if version == super::schema4::VERSION {
        super::schema4::decode(payload)
    } else if version == super::schema5::VERSION {
        super::schema5::decode(payload)
    } else {
        decode(payload)
    }
}

/// [`decode`] of bytes copied into an aligned buffer, for the fuzz targets (readers always
/// decode from their own aligned buffer).
#[doc(hidden)]
pub fn decode_frame_checked(payload: &[u8]) -> Option<Record> {
    let mut aligned = AlignedVec::<16>::with_capacity(payload.len());
    aligned.extend_from_slice(payload);
    decode(&aligned).ok()
}
