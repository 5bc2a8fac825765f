//! The waiting room: sites waiting their turn on a shared address, outside their places, with a
//! share of the room per address, and the sites held back because their address had its share.
//!
//! A site that must wait its turn on an address (per-IP politeness) gives up its place and
//! waits here. One address may fill at most [`ADDRESS_SHARES`]th of the room: a hosting
//! platform with thousands of sites in the list would otherwise fill it, and the feeding loop,
//! which must bound the sites waiting, would stop admitting sites on every other address
//! until that one address's backlog drained. A site that finds its address's share (or the
//! whole room) taken ends its scan before any request and its job is held here instead;
//! the feeding loop scans it again once its address has room, before taking new input.
//!
//! Why jobs and not the waiting scans themselves: a held job is its input line and target,
//! a few hundred bytes, where a waiting scan holds its future and site client (~10 KB). Held
//! jobs are bounded too: the feeding loop takes no new input while [`HELD_JOBS`] are held
//! (sites already in flight may still join, so at most `HELD_JOBS + --concurrency`). Past
//! that bound, one address's backlog holds the others back again, as before; within it, a
//! list may put up to `HELD_JOBS` sites of one address ahead of the others.
//!
//! A held job keeps its record owed: the feeding loop scans it, or records it as not started
//! when the run stops (`--resume` takes those). Records are keyed by input line, so a held
//! site written later than lines after it changes nothing for a resume.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

use super::progress::Counters;
use crate::scan::SiteJob;

/// Sites that may wait their turn outside their places: this many, or as many as may work
/// if that is more. A waiting site holds no connection, only its scan.
pub(super) const WAITING_ROOM: usize = 1024;
/// One address may hold this share of the waiting room (1/4): the room always has space
/// for the backlogs of at least this many addresses.
pub(super) const ADDRESS_SHARES: usize = 4;
/// Jobs held back for their address at most before the feeding loop stops taking input
/// (~300 bytes each with the map's overhead: ~10 MB).
pub(super) const HELD_JOBS: usize = 32_768;

/// The room, shared by the sites' places and the feeding loop.
pub(super) struct Room {
    capacity: usize,
    share: usize,
    held_max: usize,
    state: Mutex<State>,
    /// `held_for_address` and `address_holds` are kept here.
    counters: Arc<Counters>,
    /// Told when room frees up, so the feeding loop looks for a held job to scan.
    freed: Notify,
}

#[derive(Default)]
struct State {
    /// Per address: sites waiting, plus held sites given back to the feeding loop that have
    /// not reached their turn yet (so it does not hand out more than the address has room for).
    taken: HashMap<IpAddr, usize>,
    /// The sum of `taken`.
    total: usize,
    /// Held jobs by address, and the addresses with held jobs in turn order (each once).
    held: HashMap<IpAddr, VecDeque<SiteJob>>,
    order: VecDeque<IpAddr>,
    held_len: usize,
}

impl State {
    fn has_room(&self, capacity: usize, share: usize, ip: IpAddr) -> bool {
        self.total < capacity && self.taken.get(&ip).copied().unwrap_or(0) < share
    }

    fn take(&mut self, ip: IpAddr) {
        *self.taken.entry(ip).or_insert(0) += 1;
        self.total += 1;
    }

    fn give_back(&mut self, ip: IpAddr) {
        if let Some(n) = self.taken.get_mut(&ip) {
            *n -= 1;
            self.total -= 1;
            if *n == 0 {
                self.taken.remove(&ip);
            }
        }
    }
}

impl Room {
    /// A room for `concurrency` sites scanned at once, with the crawl's defaults.
    pub(super) fn for_concurrency(concurrency: usize, counters: Arc<Counters>) -> Room {
        let capacity = concurrency.max(WAITING_ROOM);
        Room::new(capacity, ADDRESS_SHARES, HELD_JOBS, counters)
    }

    /// A room of `capacity` waiting sites, `1/shares` of it for one address, holding up to
    /// `held_max` jobs back (all at least 1).
    pub(super) fn new(
        capacity: usize,
        shares: usize,
        held_max: usize,
        counters: Arc<Counters>,
    ) -> Room {
        let capacity = capacity.max(1);
        Room {
            capacity,
            share: (capacity / shares.max(1)).max(1),
            held_max: held_max.max(1),
            state: Mutex::new(State::default()),
            counters,
            freed: Notify::new(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A site enters to wait its turn on `ip`; `given` is the address it was given back for,
    /// if it is a held job scanned again (its space was kept). False when `ip` has its share
    /// of the room, or the room is full: the site is to be held.
    pub(super) fn enter(&self, ip: IpAddr, given: Option<IpAddr>) -> bool {
        let mut s = self.state();
        if given == Some(ip) {
            return true;
        }
        if let Some(other) = given {
            s.give_back(other);
            self.freed.notify_one();
        }
        if !s.has_room(self.capacity, self.share, ip) {
            return false;
        }
        s.take(ip);
        true
    }

    /// A site leaves the room (its turn came, or it ended), or a held job given back ended
    /// without waiting.
    pub(super) fn leave(&self, ip: IpAddr) {
        self.state().give_back(ip);
        self.freed.notify_one();
    }

    /// Holds `job` back until `ip` has room.
    pub(super) fn hold(&self, ip: IpAddr, job: SiteJob) {
        let mut s = self.state();
        let jobs = s.held.entry(ip).or_default();
        jobs.push_back(job);
        if jobs.len() == 1 {
            s.order.push_back(ip);
        }
        s.held_len += 1;
        self.counters.address_holds.fetch_add(1, Ordering::Relaxed);
        self.counters
            .held_for_address
            .store(s.held_len as u64, Ordering::Relaxed);
        // Its address may have had room again before it got here.
        self.freed.notify_one();
    }

    /// A held job whose address has room now, its space kept for it (addresses in turn, so
    /// one address's held jobs do not keep another's out); `None` if none has.
    pub(super) fn take_held(&self) -> Option<(IpAddr, SiteJob)> {
        let mut s = self.state();
        // At most `ADDRESS_SHARES` addresses can have their share, so few are looked at.
        for _ in 0..s.order.len() {
            if s.total >= self.capacity {
                return None;
            }
            let ip = s.order.pop_front()?;
            if !s.has_room(self.capacity, self.share, ip) {
                s.order.push_back(ip);
                continue;
            }
            let jobs = s.held.get_mut(&ip)?;
            let job = jobs.pop_front()?;
            if jobs.is_empty() {
                s.held.remove(&ip);
            } else {
                s.order.push_back(ip);
            }
            s.held_len -= 1;
            self.counters
                .held_for_address
                .store(s.held_len as u64, Ordering::Relaxed);
            s.take(ip);
            return Some((ip, job));
        }
        None
    }

    /// Every held job, taken out (the run stopped: they are recorded as not started).
    pub(super) fn drain_held(&self) -> Vec<SiteJob> {
        let mut s = self.state();
        s.order.clear();
        s.held_len = 0;
        self.counters.held_for_address.store(0, Ordering::Relaxed);
        s.held.drain().flat_map(|(_, jobs)| jobs).collect()
    }

    /// Jobs held back now.
    pub(super) fn held(&self) -> usize {
        self.state().held_len
    }

    /// True when no new input may be taken: as many jobs are held as the room keeps.
    pub(super) fn held_full(&self) -> bool {
        self.held() >= self.held_max
    }

    /// Resolves when room may have freed up since the last call.
    pub(super) async fn freed(&self) {
        self.freed.notified().await;
    }
}
