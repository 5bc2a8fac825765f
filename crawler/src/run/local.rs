//! Failures that come from this machine, not from the site: out of file descriptors, ports,
//! socket buffers or DNS sockets. A record that shows one says nothing about the site, so the
//! pipeline retries the site instead of writing it (and stops the run if that keeps failing).

use std::time::Duration;

use mcpcensus_store::Record;

/// Attempts per site before the run gives up on this machine.
pub const LOCAL_ATTEMPTS: u32 = 6;
/// Wait before the first retry; doubled each time (1, 2, 4, 8, 16 s).
pub const LOCAL_RETRY_BASE: Duration = Duration::from_secs(1);

/// Texts the OS and the resolver use for local exhaustion (EMFILE, ENFILE, EADDRNOTAVAIL,
/// ENOBUFS and hickory's full socket pool), with the name the summary gives them.
const MARKERS: &[(&str, &str)] = &[
    ("os error 24", "out of file descriptors (EMFILE)"),
    ("too many open files", "out of file descriptors (EMFILE)"),
    ("os error 23", "system file table full (ENFILE)"),
    ("os error 99", "out of local ports (EADDRNOTAVAIL)"),
    (
        "cannot assign requested address",
        "out of local ports (EADDRNOTAVAIL)",
    ),
    ("os error 105", "out of socket buffers (ENOBUFS)"),
    (
        "no buffer space available",
        "out of socket buffers (ENOBUFS)",
    ),
    ("no connections available", "DNS socket pool exhausted"),
];

/// What ran out on this machine, if the record's verdict or any of its requests shows it.
pub fn local_cause(record: &Record) -> Option<&'static str> {
    let texts = std::iter::once(record.outcome_reason.as_str())
        .chain(record.requests.iter().filter_map(|r| r.error.as_deref()))
        .chain(record.documents.iter().filter_map(|d| d.note.as_deref()));
    for text in texts {
        let lower = text.to_ascii_lowercase();
        if let Some((_, cause)) = MARKERS.iter().find(|(m, _)| lower.contains(m)) {
            return Some(cause);
        }
    }
    None
}

/// The wait before retry `attempt` (1-based).
pub fn retry_delay(attempt: u32) -> Duration {
    LOCAL_RETRY_BASE * 2u32.saturating_pow(attempt.saturating_sub(1))
}
