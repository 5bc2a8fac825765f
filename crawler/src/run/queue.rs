//! The run's scheduler: which site is scanned next, and when nothing is left. Three sources
//! feed the run, each bounded: sites held back for their address (`room.rs`), second looks
//! (`second_look.rs`) and intake (the lists read). A held site whose address has room goes
//! first (it was read earlier), then a second look whose time came, then new input; intake
//! pauses while the room or the second looks are full.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::Ordering;

use mcpcensus_store::{FailureKind, Record};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::progress::Counters;
use super::room::Room;
use super::second_look::SecondLooks;
use super::summary::Ending;
use crate::scan::{SiteJob, Work};
use crate::verdict::Verdict;

/// What the scheduler gives the run.
pub(super) enum Next {
    /// Work to do; with the address a held site was given room on.
    Work(Work, Option<IpAddr>),
    /// The run ends.
    Ended(Ending),
}

/// What stops the run from outside: the sink failed, this machine ran out of resources, the
/// operator asked to stop, `--max-duration` passed.
pub(super) struct Stops<'a, M> {
    pub failed: &'a CancellationToken,
    pub local: &'a CancellationToken,
    pub stop: &'a CancellationToken,
    pub max_duration: Pin<&'a mut M>,
}

/// The three queues, read in their order.
pub(super) struct Queue<'a> {
    pub counters: &'a Counters,
    pub room: &'a Room,
    pub looks: Option<&'a SecondLooks>,
    /// Intake may still give work.
    pub input_open: bool,
}

impl Queue<'_> {
    /// The next work, waiting for it (and reaping finished sites) as long as it takes;
    /// `work_rx`: intake's queue.
    pub async fn next<M: Future<Output = ()>>(
        &mut self,
        work_rx: &mut mpsc::Receiver<Work>,
        tasks: &mut JoinSet<()>,
        stops: &mut Stops<'_, M>,
    ) -> Next {
        let (room, looks, counters) = (self.room, self.looks, self.counters);
        let waiting = || looks.map_or(0, SecondLooks::waiting);
        loop {
            if let Some((ip, site)) = room.take_held() {
                return Next::Work(Work::Scan(site), Some(ip));
            }
            if let Some(site) = looks.and_then(|l| l.take_due(self.input_open)) {
                return Next::Work(Work::Scan(site), None);
            }
            let input_open = self.input_open;
            if !input_open && tasks.is_empty() && room.held() == 0 && waiting() == 0 {
                return Next::Ended(Ending::Complete);
            }
            let take_input =
                input_open && !room.held_full() && !looks.is_some_and(SecondLooks::full);
            // All input taken and none held or waiting: the sites in flight finish as before
            // this room existed (a stop now is no stop of intake).
            let draining = !input_open && room.held() == 0 && waiting() == 0;
            let next_look = looks.and_then(|l| l.next_due(input_open));
            tokio::select! {
                biased;
                _ = stops.failed.cancelled() => return Next::Ended(Ending::Failed),
                _ = stops.local.cancelled() => return Next::Ended(Ending::Failed),
                _ = stops.stop.cancelled(), if !draining => return Next::Ended(Ending::Interrupted),
                _ = stops.max_duration.as_mut(), if !draining => {
                    return Next::Ended(Ending::MaxDuration);
                }
                // Reap finished sites so the set does not grow.
                Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
                () = room.freed() => {}
                // A second look's time came.
                () = sleep_until_some(next_look), if next_look.is_some() => {}
                work = work_rx.recv(), if take_input => match work {
                    Some(w) => {
                        counters.taken.fetch_add(1, Ordering::Relaxed);
                        return Next::Work(w, None);
                    }
                    None => {
                        self.input_open = false;
                        counters.input_done.store(true, Ordering::Relaxed);
                    }
                },
            }
        }
    }
}

/// Every site still held back for its address is recorded as not started, or by its first
/// look when it was held for its second; then every first look still waiting for its second.
pub(super) async fn drain(
    records: &mpsc::Sender<Record>,
    room: &Room,
    looks: Option<&SecondLooks>,
    run_id: &str,
) {
    let mut open = true;
    for site in room.drain_held() {
        let record = match looks.and_then(|l| l.first_of(&site)) {
            Some(first) => first,
            None => not_started(&site, run_id),
        };
        open = open && records.send(record).await.is_ok();
    }
    // Drained even when nothing more can be written: the summary counts the looks not made.
    for first in looks
        .map(SecondLooks::drain_first_looks)
        .unwrap_or_default()
    {
        if !open || records.send(first).await.is_err() {
            return;
        }
    }
}

/// The record of a site the run stopped before.
pub(super) fn not_started(site: &SiteJob, run_id: &str) -> Record {
    let reason = "not started: the run stopped before this site";
    site.record(
        run_id,
        Verdict::not_started(FailureKind::Interrupted, reason),
    )
}

pub(super) async fn sleep_until_some(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
