//! A site's place among those scanned at once: a `--concurrency` slot, given up while the
//! site waits its turn on a shared address and taken again when its turn comes.
//!
//! A site waiting its turn never holds a place, so the sites in places are all working and
//! a site whose turn came always gets one back (a site in a place waiting for an address
//! slot held by one waiting for a place would deadlock). Sites waiting outside are bounded by
//! the waiting room instead (`room`): a site whose address has its share of it, or finds it
//! full, is held back rather than let in.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::progress::Counters;
use super::room::Room;
use crate::scan::Seat;

/// One site's place; dropping it frees the place (or its space in the room).
pub(super) struct Place {
    slots: Arc<Semaphore>,
    counters: Arc<Counters>,
    room: Arc<Room>,
    state: Mutex<State>,
}

enum State {
    /// In its place (the permit is `None` only if the slots were closed, which never happens).
    /// `given`: a held job given back for this address, whose space in the room it keeps
    /// until it waits there or ends.
    Seated {
        _permit: Option<OwnedSemaphorePermit>,
        given: Option<IpAddr>,
    },
    /// Waiting outside for a turn on this address.
    Out(IpAddr),
    /// Its turn came, out of the room, waiting for a place.
    Returning,
}

impl Place {
    /// A site taking the place `permit` holds; counted in flight until it leaves or drops.
    /// `given`: the address a held job was given back for.
    pub(super) fn new(
        slots: Arc<Semaphore>,
        permit: OwnedSemaphorePermit,
        counters: Arc<Counters>,
        room: Arc<Room>,
        given: Option<IpAddr>,
    ) -> Place {
        let now = counters.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
        counters.peak_in_flight.fetch_max(now, Ordering::Relaxed);
        Place {
            slots,
            counters,
            room,
            state: Mutex::new(State::Seated {
                _permit: Some(permit),
                given,
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Seat for Place {
    fn leave(&self, ip: IpAddr) -> bool {
        let mut state = self.state();
        let given = match &mut *state {
            State::Out(_) | State::Returning => return true,
            State::Seated { given, .. } => given.take(),
        };
        if !self.room.enter(ip, given) {
            return false;
        }
        // Dropping the permit lets the next site start.
        *state = State::Out(ip);
        self.counters.waiting_turn.fetch_add(1, Ordering::Relaxed);
        self.counters.in_flight.fetch_sub(1, Ordering::Relaxed);
        true
    }

    fn back(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            {
                let mut state = self.state();
                let State::Out(ip) = *state else {
                    return;
                };
                // Its turn came: the room is for those still waiting.
                *state = State::Returning;
                self.room.leave(ip);
            }
            // The feeding loop asks for one slot at a time and the semaphore is fair, so a
            // site coming back waits behind at most one new site.
            let permit = self.slots.clone().acquire_owned().await.ok();
            *self.state() = State::Seated {
                _permit: permit,
                given: None,
            };
            self.counters.waiting_turn.fetch_sub(1, Ordering::Relaxed);
            let now = self.counters.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
            self.counters
                .peak_in_flight
                .fetch_max(now, Ordering::Relaxed);
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(PoisonError::into_inner);
        match state {
            State::Seated { given, .. } => {
                if let Some(ip) = given.take() {
                    self.room.leave(ip);
                }
                self.counters.in_flight.fetch_sub(1, Ordering::Relaxed);
            }
            State::Out(ip) => {
                self.room.leave(*ip);
                self.counters.waiting_turn.fetch_sub(1, Ordering::Relaxed);
            }
            State::Returning => {
                self.counters.waiting_turn.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }
}
