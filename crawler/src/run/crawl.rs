//! The crawl pipeline: intake → bounded queue → sites in flight (bounded) → writer, with the
//! sites held back for their address (`room`) fed again before new input.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcpcensus_store::Record;
use tokio::sync::{mpsc, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::admission::{self, AdmissionSettings};
use super::display;
use super::intake::{self, Intake};
use super::progress::{Counters, ProgressMode};
use super::queue::{self, not_started, sleep_until_some, Next, Queue, Stops};
use super::resume::DoneSet;
use super::room::Room;
use super::seat::Place;
use super::second_look::SecondLooks;
use super::sink::RecordSink;
use super::site::{self, SiteContext};
use super::summary::{AdmissionUsed, Ending, SecondLooksMade, Summary};
use super::writer::{self, WriterEnd, WrittenCounts};
use crate::error::Error;
use crate::input::{LineReader, Planner};
use crate::scan::Scanner;
use crate::scan::{RegistrySource, SiteJob, Work};
use crate::verdict::Verdict;

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
    /// The signal that asked for the stop (0: none, or Ctrl-C seen by a test), for the exit
    /// code: 128 + its number, as shells report it.
    pub signal: Arc<std::sync::atomic::AtomicU8>,
}

impl Shutdown {
    /// 128 + the signal that stopped the run, or `otherwise`.
    pub fn exit_code(&self, otherwise: u8) -> u8 {
        match self.signal.load(Ordering::Relaxed) {
            0 => otherwise,
            n => 128u8.saturating_add(n),
        }
    }
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
    /// A resumed run: the lines that already have a record, and the counts of those records.
    pub resume: Option<(DoneSet, WrittenCounts)>,
    /// Admission control's thresholds (`--concurrency` is its ceiling).
    pub admission: AdmissionSettings,
    /// Counters the caller reads too (metrics); built from the reader when `None`. Their
    /// `consumed_bytes` must be the reader's.
    pub counters: Option<Arc<Counters>>,
    /// The second look's delay (see `second_look`); `None`: each site is looked at once.
    pub second_look: Option<Duration>,
}

/// The running stages, and the tokens that tell the loop something went wrong.
struct Stages {
    intake: Intake,
    work_rx: mpsc::Receiver<Work>,
    records: mpsc::Sender<Record>,
    writer: std::thread::JoinHandle<WriterEnd>,
    sink_failed: CancellationToken,
    local_exhausted: CancellationToken,
    counters: Arc<Counters>,
}

/// What the feeding loop needs of the job.
struct Feed {
    run_id: String,
    scanner: Option<Arc<dyn Scanner>>,
    concurrency: usize,
    max_duration: Option<Duration>,
    admission: AdmissionSettings,
    second_looks: Option<Arc<SecondLooks>>,
}

pub async fn crawl(job: CrawlJob, shutdown: Shutdown) -> Result<Summary, Error> {
    let started = Instant::now();
    let CrawlJob {
        run_id,
        reader,
        planner,
        total_bytes,
        scanner,
        sink,
        concurrency,
        max_duration,
        grace,
        progress,
        resume,
        admission: admission_settings,
        counters,
        second_look,
    } = job;
    let (done, initial) = resume.unwrap_or_default();
    let counters = counters.unwrap_or_else(|| Arc::new(Counters::for_reader(&reader)));
    counters.done.store(initial.records, Ordering::Relaxed);
    counters.admit_limit.store(
        admission::initial(&admission_settings, concurrency),
        Ordering::Relaxed,
    );
    // Built here, on the crawl's runtime, for intake's thread to block on.
    let registry = scanner.as_ref().and_then(|s| s.registry_source());
    let intake_parts = (reader, planner, done, registry);
    let mut stages = start(intake_parts, &run_id, sink, initial, counters)?;
    let looks = second_look.map(|delay| Arc::new(SecondLooks::new(delay)));
    let display_done = CancellationToken::new();
    let display = tokio::spawn(display::display(
        progress,
        stages.counters.clone(),
        total_bytes,
        looks.clone(),
        display_done.clone(),
    ));
    let control = tokio::spawn(admission::control(
        admission_settings,
        concurrency,
        stages.counters.clone(),
        display_done.clone(),
    ));
    let feed_job = Feed {
        run_id,
        scanner,
        concurrency,
        max_duration,
        admission: admission_settings,
        second_looks: looks,
    };
    let room = Arc::new(Room::for_concurrency(concurrency, stages.counters.clone()));
    let mut tasks = JoinSet::new();
    let ending = feed(&feed_job, &mut stages, &mut tasks, &shutdown, &room).await;
    stages.intake.stop.store(true, Ordering::Relaxed);
    if matches!(ending, Ending::Interrupted | Ending::MaxDuration) || is_local(&stages) {
        record_unstarted(&mut stages, &feed_job.run_id).await;
    }
    match ending {
        Ending::Interrupted => cut_after(shutdown.cut.clone(), grace),
        // Nothing more can be written, or this machine cannot scan: no point waiting.
        Ending::Failed => shutdown.cut.cancel(),
        Ending::Complete | Ending::MaxDuration => {}
    }
    while tasks.join_next().await.is_some() {}
    // Sites held back when the run stopped (or while in-flight sites finished) are owed a
    // record too, and so are those waiting for a second look (their first look's).
    let looks = feed_job.second_looks.as_deref();
    queue::drain(&stages.records, &room, looks, &feed_job.run_id).await;
    let summary = finish(feed_job, stages, ending, started).await;
    display_done.cancel();
    let _ = display.await;
    let _ = control.await;
    summary
}

fn start(
    (reader, planner, done, registry): (LineReader, Planner, DoneSet, Option<RegistrySource>),
    run_id: &str,
    sink: Box<dyn RecordSink>,
    initial: WrittenCounts,
    counters: Arc<Counters>,
) -> Result<Stages, Error> {
    let (work_tx, work_rx) = mpsc::channel(INTAKE_QUEUE);
    let (records, rec_rx) = mpsc::channel::<Record>(WRITER_QUEUE);
    let intake = intake::spawn(reader, planner, run_id.to_owned(), work_tx, done, registry)
        .map_err(|e| Error::Writer(format!("cannot start the intake thread: {e}")))?;
    let sink_failed = CancellationToken::new();
    let writer = writer::spawn(rec_rx, sink, counters.clone(), initial, sink_failed.clone())
        .map_err(|e| Error::Writer(format!("cannot start the writer thread: {e}")))?;
    Ok(Stages {
        intake,
        work_rx,
        records,
        writer,
        sink_failed,
        local_exhausted: CancellationToken::new(),
        counters,
    })
}

/// Takes work from intake, and sites held back for their address once it has room, until
/// both are done or something stops the run; returns why it ended.
async fn feed(
    job: &Feed,
    stages: &mut Stages,
    tasks: &mut JoinSet<()>,
    shutdown: &Shutdown,
    room: &Arc<Room>,
) -> Ending {
    let slots = Arc::new(Semaphore::new(job.concurrency));
    let ctx = job.scanner.clone().map(|scanner| {
        Arc::new(SiteContext {
            scanner,
            run_id: job.run_id.as_str().into(),
            records: stages.records.clone(),
            cut: shutdown.cut.clone(),
            counters: stages.counters.clone(),
            sink_failed: stages.sink_failed.clone(),
            local_exhausted: stages.local_exhausted.clone(),
            room: room.clone(),
            second_looks: job.second_looks.clone(),
        })
    });
    // Checked: a duration past what `Instant` holds means no limit, never a panic.
    let deadline = job
        .max_duration
        .and_then(|d| tokio::time::Instant::now().checked_add(d));
    let max_duration = sleep_until_some(deadline);
    tokio::pin!(max_duration);
    let failed = stages.sink_failed.clone();
    let local = stages.local_exhausted.clone();
    let mut stops = Stops {
        failed: &failed,
        local: &local,
        stop: &shutdown.stop,
        max_duration,
    };
    let mut queue = Queue {
        counters: &stages.counters,
        room,
        looks: job.second_looks.as_deref(),
        input_open: true,
    };
    loop {
        let (work, given) = match queue.next(&mut stages.work_rx, tasks, &mut stops).await {
            Next::Work(work, given) => (work, given),
            Next::Ended(ending) => return ending,
        };
        let c = &stages.counters;
        c.intake_queued
            .store(stages.work_rx.len() as u64, Ordering::Relaxed);
        let writer_queued = stages.records.max_capacity() - stages.records.capacity();
        c.writer_queued
            .store(writer_queued as u64, Ordering::Relaxed);
        let site = match work {
            Work::Done(record) => {
                if stages.records.send(*record).await.is_err() {
                    return Ending::Failed;
                }
                continue;
            }
            Work::Scan(site) => site,
        };
        let Some(ctx) = &ctx else {
            let record = site.record(&job.run_id, Verdict::planned());
            if stages.records.send(record).await.is_err() {
                return Ending::Failed;
            }
            continue;
        };
        // Wait for a slot before taking more input: intake slows down when scanning does.
        let permit = tokio::select! {
            biased;
            _ = failed.cancelled() => return Ending::Failed,
            _ = local.cancelled() => {
                return unstarted(stages, (&site, given, room), &job.run_id, Ending::Failed).await;
            }
            _ = shutdown.stop.cancelled() => {
                let ending = Ending::Interrupted;
                return unstarted(stages, (&site, given, room), &job.run_id, ending).await;
            }
            // The ceiling first, then admission control: the crawler must be keeping up.
            p = async {
                let p = slots.clone().acquire_owned().await;
                admission::admit(&stages.counters, job.admission.floor).await;
                p
            } => match p { Ok(p) => p, Err(_) => return Ending::Complete },
        };
        let counters = stages.counters.clone();
        let place = Place::new(slots.clone(), permit, counters, room.clone(), given);
        site::spawn(tasks, ctx.clone(), site, place);
    }
}

fn is_local(stages: &Stages) -> bool {
    stages.local_exhausted.is_cancelled() && !stages.sink_failed.is_cancelled()
}

/// Records the site in hand as not started; a held site given back frees the space it kept.
async fn unstarted(
    stages: &Stages,
    (site, given, room): (&SiteJob, Option<std::net::IpAddr>, &Room),
    run_id: &str,
    ending: Ending,
) -> Ending {
    if let Some(ip) = given {
        room.leave(ip);
    }
    let record = not_started(site, run_id);
    if stages.records.send(record).await.is_err() {
        return Ending::Failed;
    }
    ending
}

/// Whatever was planned but not started is recorded as not started, so every line read is
/// accounted for and `--resume` can take those sites.
async fn record_unstarted(stages: &mut Stages, run_id: &str) {
    while let Some(work) = stages.work_rx.recv().await {
        let record = match work {
            Work::Done(record) => *record,
            Work::Scan(site) => not_started(&site, run_id),
        };
        if stages.records.send(record).await.is_err() {
            break;
        }
    }
}

fn cut_after(cut: CancellationToken, grace: Duration) {
    tokio::spawn(async move {
        tokio::time::sleep(grace).await;
        cut.cancel();
    });
}

async fn finish(
    job: Feed,
    stages: Stages,
    ending: Ending,
    started: Instant,
) -> Result<Summary, Error> {
    let Stages {
        intake,
        work_rx,
        records,
        writer,
        local_exhausted,
        counters,
        ..
    } = stages;
    drop(work_rx);
    drop(records);
    let intake::IntakeEnd {
        input,
        already_recorded,
        registry,
        sources_read,
    } = intake
        .handle
        .join()
        .map_err(|_| Error::Writer("the intake thread panicked".into()))??;
    let end = tokio::task::spawn_blocking(move || writer.join())
        .await
        .map_err(|_| Error::Writer("the writer thread panicked".into()))?
        .map_err(|_| Error::Writer("the writer thread panicked".into()))?;
    // Both queues are drained now (the feeding loop's last sample may say otherwise).
    counters.intake_queued.store(0, Ordering::Relaxed);
    counters.writer_queued.store(0, Ordering::Relaxed);
    let failure = match (&end.error, local_exhausted.is_cancelled()) {
        (Some(e), _) => Some(format!("the record writer failed: {}", error_chain(e))),
        (None, true) => Some(
            "this machine kept running out of resources (file descriptors, ports or DNS \
             sockets); lower --concurrency or raise the limits, then resume"
                .to_owned(),
        ),
        (None, false) => registry.failure.as_ref().map(|e| {
            format!(
                "{e}; the names listed before it were scanned, the rest were not: the list of \
                 registry servers is short until the run is resumed"
            )
        }),
    };
    Ok(Summary {
        run_id: job.run_id,
        input,
        sources_read,
        written: end.counts,
        duration: started.elapsed(),
        ending: if failure.is_some() {
            Ending::Failed
        } else {
            ending
        },
        dry_run: job.scanner.is_none(),
        failure,
        already_recorded,
        registry,
        local_retries: counters.local_retries.load(Ordering::Relaxed),
        dns_stalls: job.scanner.as_ref().map_or(0, |s| s.dns_stalls()),
        admission: AdmissionUsed {
            ceiling: job.concurrency as u64,
            peak_in_flight: counters.peak_in_flight.load(Ordering::Relaxed),
            held_back: Duration::from_millis(counters.held_back_ms.load(Ordering::Relaxed)),
            peak_lag: Duration::from_micros(counters.lag_peak_us.load(Ordering::Relaxed)),
        },
        second_looks: job
            .second_looks
            .as_deref()
            .map_or_else(Default::default, |l| SecondLooksMade {
                made: l.made.load(Ordering::Relaxed),
                flipped: l.flipped.load(Ordering::Relaxed),
                not_made: l.not_made.load(Ordering::Relaxed),
            }),
    })
}

/// The error with its causes, for the manifest and the summary.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}
