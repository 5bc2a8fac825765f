//! Failures that come from this machine, not from the site: out of file descriptors, ports,
//! socket buffers or DNS sockets. A record that shows one says nothing about the site, so the
//! pipeline retries the site instead of writing it (and stops the run if that keeps failing).

use std::time::Duration;

use mcpcensus_store::Record;

use crate::net::LocalResource;

/// Attempts per site before the run gives up on this machine.
pub const LOCAL_ATTEMPTS: u32 = 6;
/// Wait before the first retry; doubled each time (1, 2, 4, 8, 16 s).
pub const LOCAL_RETRY_BASE: Duration = Duration::from_secs(1);

/// What ran out on this machine, if the record's verdict or any of its requests shows it. The
/// net layer classifies by OS error number and renders the resource with a fixed tag; only
/// that rendering is recognised here, never the OS's own message text.
pub fn local_cause(record: &Record) -> Option<&'static str> {
    std::iter::once(record.outcome_reason.as_str())
        .chain(record.requests.iter().filter_map(|r| r.error.as_deref()))
        .chain(record.documents.iter().filter_map(|d| d.note.as_deref()))
        .find_map(LocalResource::find_in)
        .map(LocalResource::name)
}

/// The wait before retry `attempt` (1-based).
pub fn retry_delay(attempt: u32) -> Duration {
    LOCAL_RETRY_BASE * 2u32.saturating_pow(attempt.saturating_sub(1))
}
