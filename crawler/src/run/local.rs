//! Failures that come from this machine, not from the site: out of file descriptors, ports,
//! socket buffers or DNS sockets. A record that shows one says nothing about the site, so the
//! pipeline retries the site instead of writing it (and stops the run if that keeps failing).
//! The decision reads the typed flag the net layer sets from the OS error number
//! ([`crate::scan::Scanned::local`]), never a record's text: a server can write any words.

use std::time::Duration;

/// Attempts per site before the run gives up on this machine.
pub const LOCAL_ATTEMPTS: u32 = 6;
/// Wait before the first retry; doubled each time (1, 2, 4, 8, 16 s).
pub const LOCAL_RETRY_BASE: Duration = Duration::from_secs(1);

/// The wait before retry `attempt` (1-based).
pub fn retry_delay(attempt: u32) -> Duration {
    LOCAL_RETRY_BASE * 2u32.saturating_pow(attempt.saturating_sub(1))
}
