//! Whether the resolver has stopped answering. A run whose DNS server dies does the right
//! thing on its own (lookups wait out their timeouts, sites get their second look), but said
//! nothing: the operator saw sites stop finishing and no reason. Lookups that get no answer in
//! time, [`SILENT_AFTER`] in a row, mark the resolver silent; the first lookup answered after
//! that (any answer, NXDOMAIN included) marks it back. Each change is one log line.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Lookups in a row with no answer before the resolver counts as silent: far more than the
/// few lame names of a list that time out now and then between answers.
pub(crate) const SILENT_AFTER: u64 = 16;

/// How a lookup ended, for the resolver's health.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Heard {
    /// An answer, whatever it said (NXDOMAIN and SERVFAIL too).
    Answer,
    /// No answer in time.
    Nothing,
    /// Says nothing of the resolver (this machine ran out of something).
    Unknown,
}

/// A change [`DnsSilence::observe`] saw (and logged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Change {
    Stopped,
    Back,
}

#[derive(Debug, Default)]
pub(crate) struct DnsSilence {
    no_answer_in_a_row: AtomicU64,
    silent: AtomicBool,
}

impl DnsSilence {
    /// One lookup's end.
    pub(crate) fn observe(&self, heard: Heard) -> Option<Change> {
        match heard {
            Heard::Nothing => {
                let n = self.no_answer_in_a_row.fetch_add(1, Ordering::Relaxed) + 1;
                if n < SILENT_AFTER || self.silent.swap(true, Ordering::Relaxed) {
                    return None;
                }
                tracing::warn!(
                    lookups = n,
                    "the DNS resolver stopped answering: the last {n} lookups got no answer in time"
                );
                Some(Change::Stopped)
            }
            Heard::Unknown => None,
            Heard::Answer => {
                self.no_answer_in_a_row.store(0, Ordering::Relaxed);
                if !self.silent.swap(false, Ordering::Relaxed) {
                    return None;
                }
                // A warning like the line it ends, so a quiet run sees both.
                tracing::warn!("the DNS resolver answers again");
                Some(Change::Back)
            }
        }
    }
}
