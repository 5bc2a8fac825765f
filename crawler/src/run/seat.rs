//! A site's place among those scanned at once: a `--concurrency` slot, given up while the
//! site waits its turn on a shared address and taken again when its turn comes.
//!
//! A site waiting its turn never holds a place, so the sites in places are all working and
//! a site whose turn came always gets one back (a site in a place waiting for an address
//! slot held by one waiting for a place would deadlock). Sites waiting outside are bounded by
//! the feeding loop instead: it admits no new site while the waiting room is full.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::progress::Counters;
use crate::scan::Seat;

/// One site's place; dropping it frees the place (or the room it waited in).
pub(super) struct Place {
    slots: Arc<Semaphore>,
    counters: Arc<Counters>,
    state: Mutex<State>,
}

enum State {
    /// In its place (the permit is `None` only if the slots were closed, which never happens).
    Seated {
        _permit: Option<OwnedSemaphorePermit>,
    },
    /// Waiting outside.
    Out,
}

impl Place {
    /// A site taking the place `permit` holds; counted in flight until it leaves or drops.
    pub(super) fn new(
        slots: Arc<Semaphore>,
        permit: OwnedSemaphorePermit,
        counters: Arc<Counters>,
    ) -> Place {
        let now = counters.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
        counters.peak_in_flight.fetch_max(now, Ordering::Relaxed);
        Place {
            slots,
            counters,
            state: Mutex::new(State::Seated {
                _permit: Some(permit),
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Seat for Place {
    fn leave(&self) {
        let mut state = self.state();
        if matches!(*state, State::Out) {
            return;
        }
        // Dropping the permit lets the next site start.
        *state = State::Out;
        self.counters.waiting_turn.fetch_add(1, Ordering::Relaxed);
        self.counters.in_flight.fetch_sub(1, Ordering::Relaxed);
    }

    fn back(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            if matches!(*self.state(), State::Seated { .. }) {
                return;
            }
            // The feeding loop asks for one slot at a time and the semaphore is fair, so a
            // site coming back waits behind at most one new site.
            let permit = self.slots.clone().acquire_owned().await.ok();
            *self.state() = State::Seated { _permit: permit };
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
        let counter = match *self.state() {
            State::Seated { .. } => &self.counters.in_flight,
            State::Out => &self.counters.waiting_turn,
        };
        counter.fetch_sub(1, Ordering::Relaxed);
    }
}
