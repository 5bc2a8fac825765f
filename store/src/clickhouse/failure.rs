//! What a failed ClickHouse request means for the rows in it, decided from the error's type
//! and the server's numeric exception code (never from the words of its message):
//! - `Content`: the server refused the rows for what is in them (parse and type errors).
//!   Sending them again is refused again: they are isolated and dead-lettered.
//! - `Unavailable`: the link or the server is down or busy (connection errors, timeouts, an
//!   HTTP error without an exception code, codes that mean overload). The same rows later
//!   may well land: retried, then spooled.
//! - `Server`: any other exception. It may come from one row (a row too large, a function
//!   that throws on one value) or from the server (a missing table, no right to insert): the
//!   sink tells them apart by whether other rows of the batch land.

use crate::error::StoreError;

/// See the module doc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InsertFailure {
    Content,
    Unavailable,
    Server,
}

/// Codes that blame the data sent: parse and type errors (6, 26, 27, 32, 33, 38, 41, 53, 69,
/// 70, 72, 117), sizes (128, 131), a NULL into a plain column (349) and a `throwIf` in a
/// column's expression (395).
const CONTENT_CODES: [u32; 16] = [
    6, 26, 27, 32, 33, 38, 41, 53, 69, 70, 72, 117, 128, 131, 349, 395,
];

/// Codes that mean the server is busy or cut off, not that anything is wrong with the rows:
/// timeouts (159, 209), network (210), too many queries (202), memory (241), read-only or
/// too many parts (242, 252), Keeper (999, 425 a system error).
const UNAVAILABLE_CODES: [u32; 9] = [159, 202, 209, 210, 241, 242, 252, 425, 999];

/// The failure's class (see [`InsertFailure`]).
pub fn classify(e: &StoreError) -> InsertFailure {
    use clickhouse::error::Error as Ch;
    match e {
        StoreError::ClickHouseTimeout { .. } => InsertFailure::Unavailable,
        StoreError::ClickHouse { source, .. } => match source {
            Ch::Network(_) | Ch::TimedOut => InsertFailure::Unavailable,
            Ch::BadResponse(text) => match server_code(text) {
                Some(code) if CONTENT_CODES.contains(&code) => InsertFailure::Content,
                Some(code) if UNAVAILABLE_CODES.contains(&code) => InsertFailure::Unavailable,
                Some(_) => InsertFailure::Server,
                // An HTTP error with no exception: a proxy or a server starting up.
                None => InsertFailure::Unavailable,
            },
            // Our side could not encode a row.
            _ => InsertFailure::Server,
        },
        _ => InsertFailure::Server,
    }
}

/// True when the server refused the insert because of what was in it.
pub fn is_content_error(e: &StoreError) -> bool {
    classify(e) == InsertFailure::Content
}

/// The exception code that opens every ClickHouse error: `Code: 27, e.displayText() = ...`
/// (18.16), `Code: 27. DB::Exception: ...` (newer), or bare `Code: 27` (the client's form
/// from the `X-ClickHouse-Exception-Code` header). Only at the start: the rest quotes rows.
pub(crate) fn server_code(text: &str) -> Option<u32> {
    let rest = text.trim_start().strip_prefix("Code: ")?;
    let digits = &rest[..rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len())];
    digits.parse().ok()
}
