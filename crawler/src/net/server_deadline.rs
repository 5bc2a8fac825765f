//! The server's time: a deadline that leaves out the crawler's own waits.
//!
//! A [`ServerDeadline`] is set from an instant and a site's [`OwnWaits`]; every wait the
//! ledger counts after that moves it later. The site deadline, the session's 12 s inside it,
//! a request's timeout and a registry lookup are all one of these, so the arithmetic
//! "base + waits since" lives here only.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use pin_project_lite::pin_project;
use tokio::time::{Instant, Sleep};

use super::waits::OwnWaits;

/// Used when a budget from now is past what `Instant` holds: thirty years, as tokio's own
/// "never".
const NEVER: Duration = Duration::from_secs(30 * 365 * 86_400);

/// A deadline on the server's time: `base`, moved later by the waits `waits` counts after it
/// was set.
#[derive(Debug, Clone)]
pub struct ServerDeadline {
    waits: Arc<OwnWaits>,
    /// The deadline as set, before any of our waits.
    base: Instant,
    /// The ledger's total when it was set: only later waits move it.
    waited_before: Duration,
}

impl ServerDeadline {
    /// `base`, moved later by the waits `waits` counts from now on.
    pub fn new(base: Instant, waits: Arc<OwnWaits>) -> ServerDeadline {
        let waited_before = waits.total();
        ServerDeadline {
            waits,
            base,
            waited_before,
        }
    }

    /// `budget` of the server's time from now (a budget past what `Instant` holds is as good
    /// as none, never a panic).
    pub fn after(budget: Duration, waits: Arc<OwnWaits>) -> ServerDeadline {
        let now = Instant::now();
        let base = now.checked_add(budget).unwrap_or(now + NEVER);
        ServerDeadline::new(base, waits)
    }

    /// The deadline now: its base moved by our waits since it was set.
    pub fn at(&self) -> Instant {
        let waited = self.waited();
        self.base.checked_add(waited).unwrap_or(self.base)
    }

    /// The server's time left.
    pub fn remaining(&self) -> Duration {
        self.at().saturating_duration_since(Instant::now())
    }

    /// Time counted in our own queues since it was set (overlapping waits once).
    pub fn waited(&self) -> Duration {
        self.waits.total().saturating_sub(self.waited_before)
    }

    /// The server's time since `start` (an instant after this was set): the time elapsed
    /// less our own waits.
    pub fn server_time_since(&self, start: Instant) -> Duration {
        start.elapsed().saturating_sub(self.waited())
    }

    /// The earlier of this deadline and `budget` of the server's time from now (the
    /// session's 12 s inside the site's deadline).
    pub fn within(&self, budget: Duration) -> ServerDeadline {
        let own = ServerDeadline::after(budget, self.waits.clone());
        ServerDeadline {
            base: own.base.min(self.at()),
            ..own
        }
    }

    /// The same deadline `margin` earlier (a phase that must end before the site's).
    pub fn earlier_by(&self, margin: Duration) -> ServerDeadline {
        ServerDeadline {
            base: self.base.checked_sub(margin).unwrap_or(self.base),
            ..self.clone()
        }
    }

    /// The same deadline `by` later (a pause the host asked for, which is the server's time
    /// for the site but not a request's own).
    pub fn later_by(&self, by: Duration) -> ServerDeadline {
        ServerDeadline {
            base: self.base.checked_add(by).unwrap_or(self.base),
            ..self.clone()
        }
    }

    /// The ledger that moves it.
    pub fn waits(&self) -> &Arc<OwnWaits> {
        &self.waits
    }

    /// Runs `work` until this deadline; `None` when the deadline came first. Its timer is made
    /// here, so call it on the runtime (a thread that blocks on one calls it inside the
    /// `block_on`, as the registry's intake does).
    pub fn run<F: Future>(&self, work: F) -> Deadline<'_, F> {
        Deadline {
            deadline: self,
            work,
            sleep: tokio::time::sleep_until(self.at()),
        }
    }
}

pin_project! {
    /// [`ServerDeadline::run`]'s future. Written out rather than an `async fn`: one of those
    /// holds the work twice (the argument, then the pinned local), and every request of every
    /// site in flight runs inside one (1 KB a site, measured with `-Zprint-type-sizes`).
    pub struct Deadline<'a, F> {
        deadline: &'a ServerDeadline,
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
            let until = this.deadline.at();
            if until <= Instant::now() {
                return Poll::Ready(None);
            }
            this.sleep.as_mut().reset(until);
        }
        Poll::Pending
    }
}
