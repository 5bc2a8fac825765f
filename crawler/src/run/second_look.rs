//! The second look: a site whose scan ended not measured or unreachable on a failure that may
//! pass (no answer, a wait that ran out, a 429 or 5xx, the site deadline) is scanned once more
//! later in the run, at least the delay after its first look. The second look decides the
//! record; the first is kept in it (`first_look`). Independent MCP probers repeat a dead
//! verdict before publishing it; a census that looks once counts a server restarting at the
//! wrong second as absent.
//!
//! When: the looks wait here until the run has taken all its input ("near the end of the
//! run"), so the two looks are as far apart as the run allows, or until [`PENDING_MAX`] wait:
//! then the oldest is looked at again once its delay has passed, and the feeding loop takes no
//! new input meanwhile (sites in flight may still add theirs: at most `PENDING_MAX +
//! --concurrency`). Each waiting look keeps its first record (a failed scan's: small, and
//! within the record caps), ~2 KB: 64 Ki of them ~130 MB at most.
//!
//! Nothing is lost: a site waiting for its second look has no record yet, so a crash (kill -9)
//! leaves its line to `--resume`, which scans it afresh; a run that stops (Ctrl-C,
//! `--max-duration`) writes every waiting first look as the site's record, and a second look
//! cut by the stop gives way to its first.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use mcpcensus_store::{FirstLook, Outcome, Record};
use tokio::time::Instant;

use crate::scan::SiteJob;

/// Sites waiting for their second look at most before the feeding loop takes no new input.
pub(super) const PENDING_MAX: usize = 65_536;

/// The sites waiting for a second look, and the first looks of those being looked at again.
pub(crate) struct SecondLooks {
    delay: Duration,
    pending_max: usize,
    state: Mutex<State>,
    /// Second looks made, and those whose outcome differs from the first's.
    pub made: AtomicU64,
    pub flipped: AtomicU64,
    /// First looks written as the record because the run stopped before their second.
    pub not_made: AtomicU64,
}

#[derive(Default)]
struct State {
    /// In the order their first looks ended, so due times only grow.
    pending: VecDeque<Pending>,
    /// The first records of sites being looked at again, by input line and input.
    looking: HashMap<(u64, String), Record>,
}

struct Pending {
    due: Instant,
    site: SiteJob,
    first: Record,
}

/// What the site task does with a finished scan.
pub(super) enum Next {
    /// Write this record.
    Write(Record),
    /// Nothing now: the site waits for its second look.
    Waits,
}

impl SecondLooks {
    pub(super) fn new(delay: Duration) -> SecondLooks {
        SecondLooks::bounded(delay, PENDING_MAX)
    }

    pub(super) fn bounded(delay: Duration, pending_max: usize) -> SecondLooks {
        SecondLooks {
            delay,
            pending_max: pending_max.max(1),
            state: Mutex::new(State::default()),
            made: AtomicU64::new(0),
            flipped: AtomicU64::new(0),
            not_made: AtomicU64::new(0),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A scan of `site` ended with `record`: a first look that may pass waits for its second;
    /// a second look takes its first into the record.
    pub(super) fn after_scan(&self, site: &SiteJob, mut record: Record, transient: bool) -> Next {
        let key = (site.input_line, site.input.clone());
        let mut s = self.state();
        if let Some(first) = s.looking.remove(&key) {
            drop(s);
            if record.outcome == Outcome::NotStarted {
                // Cut by the stop: the first look is the site's record.
                self.not_made.fetch_add(1, Ordering::Relaxed);
                return Next::Write(first);
            }
            self.made.fetch_add(1, Ordering::Relaxed);
            if record.outcome != first.outcome {
                self.flipped.fetch_add(1, Ordering::Relaxed);
            }
            record.first_look = Some(first_look(first));
            return Next::Write(record);
        }
        if !transient || !matches!(record.outcome, Outcome::NotMeasured | Outcome::Unreachable) {
            return Next::Write(record);
        }
        let mut site = site.clone();
        site.second_look = true;
        s.pending.push_back(Pending {
            due: Instant::now() + self.delay,
            site,
            first: record,
        });
        Next::Waits
    }

    /// The oldest waiting site, if its delay has passed and it may go now: when the input is
    /// all taken, or when the waiting sites fill their bound.
    pub(super) fn take_due(&self, input_open: bool) -> Option<SiteJob> {
        let mut s = self.state();
        if input_open && s.pending.len() < self.pending_max {
            return None;
        }
        if s.pending.front()?.due > Instant::now() {
            return None;
        }
        let Pending { site, first, .. } = s.pending.pop_front()?;
        s.looking
            .insert((site.input_line, site.input.clone()), first);
        Some(site)
    }

    /// When the oldest waiting site may go, if it may go once due (see [`Self::take_due`]).
    pub(super) fn next_due(&self, input_open: bool) -> Option<Instant> {
        let s = self.state();
        if input_open && s.pending.len() < self.pending_max {
            return None;
        }
        s.pending.front().map(|p| p.due)
    }

    /// The first record of `site` if it was being looked at again (a held second look the run
    /// stopped before: its first look is its record).
    pub(super) fn first_of(&self, site: &SiteJob) -> Option<Record> {
        let first = self
            .state()
            .looking
            .remove(&(site.input_line, site.input.clone()))?;
        self.not_made.fetch_add(1, Ordering::Relaxed);
        Some(first)
    }

    /// Sites waiting for their second look.
    pub(super) fn waiting(&self) -> usize {
        self.state().pending.len()
    }

    /// For the progress line: the sites waiting, and when the first and the last are due.
    pub(super) fn status(&self) -> Option<(usize, Instant, Instant)> {
        let s = self.state();
        Some((
            s.pending.len(),
            s.pending.front()?.due,
            s.pending.back()?.due,
        ))
    }

    /// True when no new input may be taken.
    pub(super) fn full(&self) -> bool {
        self.waiting() >= self.pending_max
    }

    /// The first looks of every site still waiting (the run stopped): their records.
    pub(super) fn drain_first_looks(&self) -> Vec<Record> {
        let mut s = self.state();
        let firsts: Vec<Record> = s.pending.drain(..).map(|p| p.first).collect();
        self.not_made
            .fetch_add(firsts.len() as u64, Ordering::Relaxed);
        firsts
    }
}

fn first_look(first: Record) -> FirstLook {
    FirstLook {
        scanned_at: first.scanned_at,
        outcome: first.outcome,
        outcome_reason: first.outcome_reason,
        reason_kind: first.reason_kind,
        total_ms: first.timings.total_ms,
        requests: first.requests,
    }
}
