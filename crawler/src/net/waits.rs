//! Time a site spends in the crawler's own queues — a DNS lookup slot, a politeness token, a
//! connection or site slot on a shared address — which is not the server's time.
//!
//! Each site client keeps one [`OwnWaits`]; the wait functions record into it, and deadlines
//! that measure the server (the site deadline, the session's 12 s, a request's timeout) are
//! [`ServerDeadline`](super::ServerDeadline)s, which move later by what was recorded meanwhile.
//! Overlapping waits of one site count once: the ledger counts the wall time during which at
//! least one of them was waiting.

use std::future::Future;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

/// One site's ledger of time spent waiting on the crawler itself.
#[derive(Debug, Default)]
pub struct OwnWaits {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Waits going on now.
    waiting: usize,
    /// When the waits going on now began (the first of them).
    since: Option<Instant>,
    /// Time counted by waits that have ended.
    ended: Duration,
}

/// A wait in progress; it ends when dropped (also when its future is cancelled).
#[derive(Debug)]
pub struct WaitGuard<'a> {
    waits: &'a OwnWaits,
}

impl Drop for WaitGuard<'_> {
    fn drop(&mut self) {
        let mut s = self.waits.lock();
        s.waiting = s.waiting.saturating_sub(1);
        if s.waiting == 0 {
            if let Some(since) = s.since.take() {
                s.ended += since.elapsed();
            }
        }
    }
}

impl OwnWaits {
    /// Starts counting a wait.
    pub fn begin(&self) -> WaitGuard<'_> {
        let mut s = self.lock();
        if s.waiting == 0 {
            s.since = Some(Instant::now());
        }
        s.waiting += 1;
        WaitGuard { waits: self }
    }

    /// Awaits `wait`, counting its time.
    pub async fn during<F: Future>(&self, wait: F) -> F::Output {
        let _guard = self.begin();
        wait.await
    }

    /// All time counted so far, including a wait going on now.
    pub fn total(&self) -> Duration {
        let s = self.lock();
        s.ended + s.since.map_or(Duration::ZERO, |since| since.elapsed())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
