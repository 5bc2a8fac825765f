//! The crawl pipeline: intake → bounded queue → sites in flight (bounded) → writer.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcpcensus_store::{Outcome, Record};
use tokio::sync::{mpsc, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::intake::{self, SiteJob, Work};
use super::progress::{self, Counters, ProgressMode};
use super::scanner::Scanner;
use super::sink::RecordSink;
use super::summary::{Ending, Summary};
use super::writer;
use crate::error::Error;
use crate::input::{LineReader, Planner};

/// Lines planned ahead of the scanners; small, so memory stays flat and intake slows down
/// when scanning does.
const INTAKE_QUEUE: usize = 1024;
/// Records waiting for the writer.
const WRITER_QUEUE: usize = 4096;

/// How the pipeline is stopped from outside.
#[derive(Debug, Clone, Default)]
pub struct Shutdown {
    /// Stop intake; in-flight sites get the grace period.
    pub stop: CancellationToken,
    /// Cut in-flight sites now.
    pub cut: CancellationToken,
}

/// Everything one crawl needs, passed in.
pub struct CrawlJob {
    pub run_id: String,
    pub reader: LineReader,
    pub planner: Planner,
    pub total_bytes: Option<u64>,
    /// `None`: dry run, nothing is scanned.
    pub scanner: Option<Arc<dyn Scanner>>,
    pub sink: Box<dyn RecordSink>,
    pub concurrency: usize,
    pub max_duration: Option<Duration>,
    pub grace: Duration,
    pub progress: ProgressMode,
}

pub async fn crawl(job: CrawlJob, shutdown: Shutdown) -> Result<Summary, Error> {
    let started = Instant::now();
    let counters = Arc::new(Counters {
        consumed_bytes: job.reader.consumed(),
        ..Counters::default()
    });
    let dry_run = job.scanner.is_none();
    let (work_tx, mut work_rx) = mpsc::channel(INTAKE_QUEUE);
    let (rec_tx, rec_rx) = mpsc::channel::<Record>(WRITER_QUEUE);
    let intake = intake::spawn(job.reader, job.planner, job.run_id.clone(), work_tx)
        .map_err(|e| Error::Writer(format!("cannot start the intake thread: {e}")))?;
    let writer = writer::spawn(rec_rx, job.sink, counters.clone())
        .map_err(|e| Error::Writer(format!("cannot start the writer thread: {e}")))?;
    let display_done = CancellationToken::new();
    let display = tokio::spawn(progress::display(
        job.progress,
        counters.clone(),
        job.total_bytes,
        display_done.clone(),
    ));

    let slots = Arc::new(Semaphore::new(job.concurrency));
    let mut tasks = JoinSet::new();
    let deadline = job.max_duration.map(|d| tokio::time::Instant::now() + d);
    let max_duration = async move {
        match deadline {
            Some(at) => tokio::time::sleep_until(at).await,
            None => std::future::pending().await,
        }
    };
    tokio::pin!(max_duration);
    let mut ending = Ending::Complete;
    let mut writer_gone = false;

    loop {
        let work = tokio::select! {
            biased;
            _ = shutdown.stop.cancelled() => { ending = Ending::Interrupted; break }
            _ = &mut max_duration => { ending = Ending::MaxDuration; break }
            // Reap finished sites so the set does not grow.
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            work = work_rx.recv() => match work { Some(w) => w, None => break },
        };
        let site = match work {
            Work::Done(record) => {
                if rec_tx.send(*record).await.is_err() {
                    writer_gone = true;
                    break;
                }
                continue;
            }
            Work::Scan(site) => site,
        };
        let Some(scanner) = job.scanner.clone() else {
            let record = site.record(&job.run_id, Outcome::Planned, "would be scanned");
            if rec_tx.send(record).await.is_err() {
                writer_gone = true;
                break;
            }
            continue;
        };
        // Wait for a slot before taking more input: intake slows down when scanning does.
        let permit = tokio::select! {
            biased;
            _ = shutdown.stop.cancelled() => {
                ending = Ending::Interrupted;
                send_unstarted(&rec_tx, &site, &job.run_id).await;
                break;
            }
            p = slots.clone().acquire_owned() => match p { Ok(p) => p, Err(_) => break },
        };
        let run_id = job.run_id.clone();
        let tx = rec_tx.clone();
        let cut = shutdown.cut.clone();
        let counters = counters.clone();
        counters.in_flight.fetch_add(1, Ordering::Relaxed);
        tasks.spawn(async move {
            let record = tokio::select! {
                r = scanner.scan(&site, &run_id) => r,
                _ = cut.cancelled() => site.record(
                    &run_id,
                    Outcome::NotStarted,
                    "interrupted by shutdown before the scan finished",
                ),
            };
            counters.in_flight.fetch_sub(1, Ordering::Relaxed);
            drop(permit);
            let _ = tx.send(record).await;
        });
    }

    // Stop reading; whatever was planned but not started is recorded as not started, so
    // every line read is accounted for and `--resume` can take those sites.
    intake.stop.store(true, Ordering::Relaxed);
    if ending != Ending::Complete && !writer_gone {
        while let Some(work) = work_rx.recv().await {
            let record = match work {
                Work::Done(record) => *record,
                Work::Scan(site) => site.record(
                    &job.run_id,
                    Outcome::NotStarted,
                    "not started: the run stopped before this site",
                ),
            };
            if rec_tx.send(record).await.is_err() {
                break;
            }
        }
    }
    drop(work_rx);
    if ending == Ending::Interrupted {
        let cut = shutdown.cut.clone();
        let grace = job.grace;
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            cut.cancel();
        });
    }
    while tasks.join_next().await.is_some() {}
    drop(rec_tx);

    let input = intake
        .handle
        .join()
        .map_err(|_| Error::Writer("the intake thread panicked".into()))??;
    let written = writer
        .join()
        .map_err(|_| Error::Writer("the writer thread panicked".into()))??;
    display_done.cancel();
    let _ = display.await;
    Ok(Summary {
        run_id: job.run_id,
        input,
        written,
        duration: started.elapsed(),
        ending,
        dry_run,
    })
}

async fn send_unstarted(tx: &mpsc::Sender<Record>, site: &SiteJob, run_id: &str) {
    let record = site.record(
        run_id,
        Outcome::NotStarted,
        "not started: the run stopped before this site",
    );
    let _ = tx.send(record).await;
}
