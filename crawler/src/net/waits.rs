//! Time a site spends in the crawler's own queues — a DNS lookup slot, a politeness token, a
//! connection or site slot on a shared address — which is not the server's time.
//!
//! Each site client keeps one [`OwnWaits`]; the wait functions record into it, and deadlines
//! that measure the server (the site deadline, the session's 12 s, a request's timeout) run
//! through [`OwnWaits::deadline`], which moves them later by what was recorded meanwhile.
//! Overlapping waits of one site count once: the ledger counts the wall time during which at
//! least one of them was waiting.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use pin_project_lite::pin_project;
use tokio::time::{Instant, Sleep};

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

    /// Runs `work` until `at`, moved later by the waits counted while it runs; `None` when
    /// that time came first.
    pub fn deadline<F: Future>(&self, at: Instant, work: F) -> Deadline<'_, F> {
        Deadline {
            waits: self,
            at,
            base: self.total(),
            work,
            sleep: tokio::time::sleep_until(at),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

pin_project! {
    /// [`OwnWaits::deadline`]'s future. Written out rather than an `async fn`: one of those
    /// holds the work twice (the argument, then the pinned local), and every request of every
    /// site in flight runs inside one (1 KB a site, measured with `-Zprint-type-sizes`).
    pub struct Deadline<'a, F> {
        waits: &'a OwnWaits,
        at: Instant,
        // The waits counted before the work started.
        base: Duration,
        #[pin]
        work: F,
        #[pin]
        sleep: Sleep,
    }
}

impl<F: Future> Future for Deadline<'_, F> {
    type Output = Option<F::Output>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut this = self.project();
        if let Poll::Ready(out) = this.work.poll(cx) {
            return Poll::Ready(Some(out));
        }
        // Read again only when the sleep ends: a wait that went on meanwhile moved the
        // deadline, and the sleep starts over until the moved time.
        while this.sleep.as_mut().poll(cx).is_ready() {
            let until = *this.at + this.waits.total().saturating_sub(*this.base);
            if until <= Instant::now() {
                return Poll::Ready(None);
            }
            this.sleep.as_mut().reset(until);
        }
        Poll::Pending
    }
}
