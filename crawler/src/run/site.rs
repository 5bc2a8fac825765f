//! One site in flight: scanned under the cut token, a panic turned into a record, retried when
//! the failure came from this machine, and its record handed to the writer before its
//! place among the sites scanned at once is freed (so in-flight work never outruns the writer).
//! A site its address's share of the waiting room kept out is held in the room instead.

use std::future::Future;
use std::net::IpAddr;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::{Context, Poll};

use mcpcensus_store::inert::terminal_text;
use mcpcensus_store::{FailureKind, Record};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::local::{retry_delay, LOCAL_ATTEMPTS};
use super::progress::Counters;
use super::room::Room;
use super::seat::Place;
use super::second_look::{Next, SecondLooks};
use crate::scan::{ScanFuture, Scanned, Scanner, SiteJob};
use crate::verdict::Verdict;

/// What every site task shares.
pub(super) struct SiteContext {
    pub scanner: Arc<dyn Scanner>,
    pub run_id: Arc<str>,
    pub records: mpsc::Sender<Record>,
    pub cut: CancellationToken,
    pub counters: Arc<Counters>,
    /// Cancelled when a record cannot be handed over (the writer has stopped).
    pub sink_failed: CancellationToken,
    /// Cancelled when this machine keeps running out of resources; the run stops.
    pub local_exhausted: CancellationToken,
    /// Where sites kept out of the waiting room are held.
    pub room: Arc<Room>,
    /// Where sites wait for a second look; `None` when second looks are off.
    pub second_looks: Option<Arc<SecondLooks>>,
}

/// How a site's task ended.
enum Ended {
    /// The record, and whether its failure may pass (see `second_look`).
    Record(Record, bool),
    /// Kept out of the waiting room on this address: no record yet.
    Held(IpAddr),
}

pub(super) fn spawn(tasks: &mut JoinSet<()>, ctx: Arc<SiteContext>, site: SiteJob, place: Place) {
    tasks.spawn(async move {
        let place = Arc::new(place);
        // Boxed while it waits for a slot in a block of its own, so the task every site in
        // flight holds is not sized to hold the record inline (1.6 KB against 0.5).
        let record = {
            let mut record = match scan_with_retries(&ctx, &site, &place).await {
                Ended::Record(record, transient) => match &ctx.second_looks {
                    Some(looks) => match looks.after_scan(&site, record, transient) {
                        Next::Write(record) => record,
                        Next::Waits => return,
                    },
                    None => record,
                },
                // Held before its place is freed, so the feeding loop never sees both gone.
                Ended::Held(ip) => return ctx.room.hold(ip, site),
            };
            mcpcensus_store::bound(&mut record);
            Box::new(record)
        };
        // A slot first, then the record: `send(record)` would hold the record inside its
        // future, and size for both the task every site in flight holds (3.9 KB against 1.8).
        match ctx.records.reserve().await {
            Ok(slot) => slot.send(*record),
            Err(_) => ctx.sink_failed.cancel(),
        }
        drop(place);
    });
}

async fn scan_with_retries(ctx: &SiteContext, site: &SiteJob, place: &Arc<Place>) -> Ended {
    let mut attempt = 1;
    loop {
        // In a block of its own: the scan's result (a record, 1.2 KB) must not live across
        // the retry's sleep, or every site's task would be sized to hold it.
        let cause = {
            let scanned = match scan_once(ctx, site, place.clone()).await {
                Scanned::Recorded(scanned) => scanned,
                Scanned::Held(ip) => return Ended::Held(ip),
            };
            let Some(resource) = scanned.local else {
                return Ended::Record(scanned.record, scanned.transient);
            };
            resource.name()
        };
        ctx.counters.local_retries.fetch_add(1, Ordering::Relaxed);
        if attempt >= LOCAL_ATTEMPTS {
            tracing::error!(
                cause,
                attempts = attempt,
                "this machine keeps running out of resources; stopping the run"
            );
            ctx.local_exhausted.cancel();
            let reason = format!("not scanned: this machine ran out of resources ({cause})");
            let verdict = Verdict::not_started(FailureKind::LocalResource, reason);
            return Ended::Record(site.record(&ctx.run_id, verdict), false);
        }
        tracing::warn!(
            cause,
            attempt,
            "local resource failure; the site waits and is scanned again"
        );
        tokio::select! {
            _ = tokio::time::sleep(retry_delay(attempt)) => {}
            _ = ctx.cut.cancelled() => return Ended::Record(cut_record(ctx, site), false),
        }
        attempt += 1;
    }
}

/// One scan, its panic caught and made this site's record. Polled in the site's own task
/// rather than a task of its own: a second task a site in flight cost a task cell, a clone of
/// the job and a join handle (about 1.5 KB each of 5,000 sites, measured with massif).
async fn scan_once(ctx: &SiteContext, site: &SiteJob, place: Arc<Place>) -> Scanned {
    let scan = CatchPanic(Some(ctx.scanner.scan(site, &ctx.run_id, place)));
    tokio::select! {
        scanned = scan => match scanned {
            Ok(scanned) => scanned,
            Err(payload) => {
                let text = panic_text(payload);
                tracing::error!(panic = %terminal_text(&text), "a site scan panicked");
                let reason = format!("internal error: the scan panicked: {text}");
                site.record(&ctx.run_id, Verdict::not_measured(FailureKind::Internal, reason))
                    .into()
            }
        },
        _ = ctx.cut.cancelled() => cut_record(ctx, site).into(),
    }
}

/// A scan whose panic is caught where it is polled; the scan is dropped when it panics and
/// never polled again. A panic while it is dropped (the run cut short) is caught too, as the
/// scan's own task once caught it.
struct CatchPanic<'a>(Option<ScanFuture<'a>>);

impl Drop for CatchPanic<'_> {
    fn drop(&mut self) {
        let scan = self.0.take();
        if std::panic::catch_unwind(AssertUnwindSafe(move || drop(scan))).is_err() {
            tracing::error!("a site scan panicked while it was dropped");
        }
    }
}

impl Future for CatchPanic<'_> {
    type Output = Result<Scanned, Box<dyn std::any::Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let Some(scan) = self.0.as_mut() else {
            return Poll::Pending;
        };
        match std::panic::catch_unwind(AssertUnwindSafe(|| scan.as_mut().poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(scanned)) => Poll::Ready(Ok(scanned)),
            Err(payload) => {
                // Dropping a scan that panicked may panic again; that one is caught too.
                let scan = self.0.take();
                let _ = std::panic::catch_unwind(AssertUnwindSafe(move || drop(scan)));
                Poll::Ready(Err(payload))
            }
        }
    }
}

fn cut_record(ctx: &SiteContext, site: &SiteJob) -> Record {
    let reason = "interrupted by shutdown before the scan finished";
    site.record(
        &ctx.run_id,
        Verdict::not_started(FailureKind::Interrupted, reason),
    )
}

fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    match payload.downcast::<String>() {
        Ok(s) => *s,
        Err(payload) => match payload.downcast::<&'static str>() {
            Ok(s) => (*s).to_owned(),
            Err(_) => "(no message)".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use super::CatchPanic;
    use crate::scan::Scanned;

    /// Panics when dropped.
    struct PanicsOnDrop;

    impl Drop for PanicsOnDrop {
        fn drop(&mut self) {
            panic!("dropped");
        }
    }

    #[test]
    fn a_scan_that_panics_when_dropped_is_caught() {
        let scan: crate::scan::ScanFuture<'static> = Box::pin(async {
            let _guard = PanicsOnDrop;
            std::future::pending::<Scanned>().await
        });
        let mut cx = Context::from_waker(Waker::noop());
        {
            let mut caught = pin!(CatchPanic(Some(scan)));
            assert!(caught.as_mut().poll(&mut cx).is_pending());
            // Dropped here, as the run's cut drops it: the guard's panic stays inside.
        }
        let scan: crate::scan::ScanFuture<'static> = Box::pin(async { panic!("polled") });
        let mut caught = pin!(CatchPanic(Some(scan)));
        match caught.as_mut().poll(&mut cx) {
            Poll::Ready(Err(payload)) => {
                assert_eq!(payload.downcast_ref::<&str>(), Some(&"polled"));
            }
            _ => panic!("the scan's panic was not caught"),
        }
        // Never polled again after its panic.
        assert!(caught.as_mut().poll(&mut cx).is_pending());
    }
}
