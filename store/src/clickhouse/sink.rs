//! The batching sink. The crawl's writer thread hands records over a bounded channel to a task
//! on the runtime; the task batches them by rows, bytes and time and inserts each batch into
//! `sites`, `tools` and `findings`, retrying with jittered backoff. When inserts keep failing
//! (server down, refusing inserts) batches go to the [`Spool`] instead, so the crawl goes on;
//! the task probes the server and drains the spool when it answers again.
//!
//! Memory is bounded by the channel (`queue_records`) plus one batch (`batch_rows` /
//! `batch_bytes`). Durability: a record is safe once its batch is inserted or spooled, at most
//! `batch_delay` after it was written; `finish` inserts or spools everything.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::client::{connect, Backoff, Connection, Target};
use super::dead_letter::{insert_isolating, DeadLetters, InsertPolicy};
pub(crate) use super::insert::insert_with_retry;
pub use super::insert::{insert_records, record_run};
pub use super::live::LiveSinkStats;
use super::rows::approx_bytes;
use super::spool::Spool;
use crate::error::{io_err, StoreError};
use crate::record::Record;
use crate::store::RunReader;

/// Defaults: ClickHouse's guidance is 10k-100k rows per insert, about one insert a second.
pub const DEFAULT_BATCH_ROWS: usize = 10_000;
pub const DEFAULT_BATCH_BYTES: usize = 32 * 1024 * 1024;
pub const DEFAULT_BATCH_DELAY: Duration = Duration::from_secs(1);
pub const DEFAULT_QUEUE_RECORDS: usize = 8_192;
/// A batch of 10k rows inserts in well under a second on loopback; a server that takes longer
/// is treated as down (after the retries the batch is spooled, so the crawl is held up at most
/// about attempts × timeout).
pub const DEFAULT_INSERT_TIMEOUT: Duration = Duration::from_secs(10);
/// Attempts per batch before it is spooled.
pub const DEFAULT_INSERT_ATTEMPTS: u32 = 3;
pub const DEFAULT_BACKOFF_INITIAL: Duration = Duration::from_millis(100);
pub const DEFAULT_BACKOFF_MAX: Duration = Duration::from_secs(5);
/// How long `finish` keeps trying to drain the spool before leaving it for `mcpcensus load`.
pub const DEFAULT_FINISH_WAIT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone)]
pub struct SinkOptions {
    pub batch_rows: NonZeroUsize,
    pub batch_bytes: usize,
    pub batch_delay: Duration,
    /// Records waiting between the writer thread and the task.
    pub queue_records: NonZeroUsize,
    pub insert_timeout: Duration,
    pub insert_attempts: u32,
    /// Between insert attempts, and between probes while the server is down.
    pub backoff: Backoff,
    pub finish_wait: Duration,
    /// Where batches go while ClickHouse is unreachable.
    pub spool_dir: PathBuf,
    /// What the sink has done so far, for live metrics.
    pub live: std::sync::Arc<LiveSinkStats>,
    /// Where records the server rejects for their content go (`None`: such a batch is
    /// treated like a failing server and spooled).
    pub dead_letter: Option<PathBuf>,
    pub dead_letter_max_bytes: u64,
}

impl SinkOptions {
    pub fn new(spool_dir: impl Into<PathBuf>) -> SinkOptions {
        SinkOptions {
            batch_rows: NonZeroUsize::new(DEFAULT_BATCH_ROWS).unwrap_or(NonZeroUsize::MIN),
            batch_bytes: DEFAULT_BATCH_BYTES,
            batch_delay: DEFAULT_BATCH_DELAY,
            queue_records: NonZeroUsize::new(DEFAULT_QUEUE_RECORDS).unwrap_or(NonZeroUsize::MIN),
            insert_timeout: DEFAULT_INSERT_TIMEOUT,
            insert_attempts: DEFAULT_INSERT_ATTEMPTS,
            backoff: Backoff::new(DEFAULT_BACKOFF_INITIAL, DEFAULT_BACKOFF_MAX)
                .unwrap_or_else(|| unreachable!("default backoff is valid")),
            finish_wait: DEFAULT_FINISH_WAIT,
            spool_dir: spool_dir.into(),
            live: std::sync::Arc::default(),
            dead_letter: None,
            dead_letter_max_bytes: super::dead_letter::DEFAULT_DEAD_LETTER_MAX_BYTES,
        }
    }
}

/// What the sink did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SinkStats {
    /// Records inserted straight from the crawl.
    pub inserted: u64,
    /// Records written to the spool during outages.
    pub spooled: u64,
    /// Records inserted from the spool after an outage (leftovers of earlier runs included).
    pub drained: u64,
    pub batches: u64,
    pub failed_attempts: u64,
    pub outages: u64,
    /// Records the server rejected for their content, written to the dead-letter file.
    pub dead_lettered: u64,
}

/// The sink as the writer thread sees it: `write`, `flush`, `finish`, all blocking. Its task
/// runs on a runtime of its own (one thread), so it never waits on the caller's runtime and
/// may be used from any thread that is not inside an async context.
pub struct ClickHouseSink {
    tx: Option<mpsc::Sender<Record>>,
    thread: Option<std::thread::JoinHandle<Result<SinkStats, StoreError>>>,
    /// The server's version, as detected at start.
    pub server_version: String,
}

impl ClickHouseSink {
    /// Opens the spool (queuing leftovers of an earlier run for draining), connects (a health
    /// check: fails if the server does not answer) and starts the task.
    pub fn start(target: Target, options: SinkOptions) -> Result<ClickHouseSink, StoreError> {
        let spool = Spool::open(&options.spool_dir)?;
        let (tx, rx) = mpsc::channel(options.queue_records.get());
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let spool_dir = options.spool_dir.clone();
        let thread = std::thread::Builder::new()
            .name("mcpcensus-clickhouse".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(io_err("starting the ClickHouse sink's runtime", &spool_dir))?;
                runtime.block_on(async move {
                    let conn = match connect(&target).await {
                        Ok(conn) => {
                            let _ = ready_tx.send(Ok(conn.version.clone()));
                            conn
                        }
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                            return Ok(SinkStats::default());
                        }
                    };
                    Shipper::new(conn, options, spool).run(rx).await
                })
            })
            .map_err(io_err(
                "starting the ClickHouse sink's thread",
                Path::new(""),
            ))?;
        let server_version = match ready_rx.recv() {
            Ok(Ok(version)) => version,
            Ok(Err(e)) => {
                let _ = thread.join();
                return Err(e);
            }
            Err(_) => {
                return Err(match thread.join() {
                    Ok(Err(e)) => e,
                    _ => StoreError::SinkTaskGone,
                })
            }
        };
        Ok(ClickHouseSink {
            tx: Some(tx),
            thread: Some(thread),
            server_version,
        })
    }

    /// Queues a record; blocks while the queue is full (the task is inserting or spooling).
    pub fn write(&mut self, record: &Record) -> Result<(), StoreError> {
        let sent = match &self.tx {
            Some(tx) => tx.blocking_send(record.clone()).is_ok(),
            None => false,
        };
        if sent {
            Ok(())
        } else {
            // The task ended early: finish reports why.
            Err(self
                .finish_inner()
                .err()
                .unwrap_or(StoreError::SinkTaskGone))
        }
    }

    /// Batches are shipped by size and time; nothing to do here.
    pub fn flush(&mut self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Ships what is left, drains the spool (waiting up to `finish_wait` for the server) and
    /// returns what was done; fails if records are left in the spool.
    pub fn finish(mut self) -> Result<SinkStats, StoreError> {
        self.finish_inner()
    }

    fn finish_inner(&mut self) -> Result<SinkStats, StoreError> {
        drop(self.tx.take());
        match self.thread.take().map(std::thread::JoinHandle::join) {
            Some(Ok(result)) => result,
            _ => Err(StoreError::SinkTaskGone),
        }
    }
}

impl Drop for ClickHouseSink {
    fn drop(&mut self) {
        // The task ships what it has and ends on its own.
        drop(self.tx.take());
    }
}

struct Shipper {
    conn: Connection,
    options: SinkOptions,
    spool: Spool,
    stats: SinkStats,
    batch: Vec<Record>,
    batch_bytes: usize,
    /// When the oldest record of the batch arrived.
    batch_started: Option<Instant>,
    /// While set, batches are spooled and the server is probed at this time.
    outage_probe_at: Option<Instant>,
    probe_attempt: u32,
    dead: Option<DeadLetters>,
}

impl Shipper {
    fn new(conn: Connection, options: SinkOptions, spool: Spool) -> Shipper {
        // Leftovers from an earlier process are drained first.
        let outage_probe_at = (!spool.is_empty()).then(Instant::now);
        let dead = options
            .dead_letter
            .as_ref()
            .map(|p| DeadLetters::new(p, options.dead_letter_max_bytes));
        Shipper {
            dead,
            conn,
            options,
            spool,
            stats: SinkStats::default(),
            batch: Vec::new(),
            batch_bytes: 0,
            batch_started: None,
            outage_probe_at,
            probe_attempt: 0,
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Record>) -> Result<SinkStats, StoreError> {
        loop {
            self.options.live.publish(&self.stats);
            let ship_at = self.batch_started.map(|t| t + self.options.batch_delay);
            tokio::select! {
                record = rx.recv() => match record {
                    Some(record) => {
                        self.batch_bytes += approx_bytes(&record);
                        self.batch_started.get_or_insert_with(Instant::now);
                        self.batch.push(record);
                        if self.batch.len() >= self.options.batch_rows.get()
                            || self.batch_bytes >= self.options.batch_bytes
                        {
                            self.ship().await?;
                        }
                    }
                    None => break,
                },
                _ = sleep_until(ship_at) => self.ship().await?,
                _ = sleep_until(self.outage_probe_at) => self.try_drain().await?,
            }
        }
        self.ship().await?;
        self.options.live.publish(&self.stats);
        let give_up = Instant::now() + self.options.finish_wait;
        while !self.spool.is_empty() {
            self.try_drain().await?;
            self.options.live.publish(&self.stats);
            if self.spool.is_empty() {
                break;
            }
            let next = self.outage_probe_at.unwrap_or_else(Instant::now);
            if next >= give_up {
                let records = self.spool.pending_records();
                let path = self.spool.root().to_owned();
                self.spool.seal()?;
                tracing::error!(spool = %path.display(), records, "ClickHouse did not come back; records left in the spool");
                return Err(StoreError::SpoolNotDrained { path, records });
            }
            tokio::time::sleep_until(next).await;
        }
        self.spool.remove_if_empty()?;
        tracing::info!(
            inserted = self.stats.inserted,
            spooled = self.stats.spooled,
            drained = self.stats.drained,
            batches = self.stats.batches,
            outages = self.stats.outages,
            "ClickHouse sink finished"
        );
        Ok(self.stats)
    }

    /// Inserts the current batch, or spools it during an outage or when inserting fails.
    async fn ship(&mut self) -> Result<(), StoreError> {
        self.batch_started = None;
        self.batch_bytes = 0;
        if self.batch.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        if self.outage_probe_at.is_none() {
            let o = &self.options;
            let policy = InsertPolicy {
                timeout: o.insert_timeout,
                attempts: o.insert_attempts,
                backoff: &o.backoff,
            };
            let result = insert_isolating(
                &self.conn,
                &batch,
                &policy,
                &mut self.stats.failed_attempts,
                self.dead.as_mut(),
            )
            .await?;
            let dead_before = self.stats.dead_lettered;
            self.stats.dead_lettered = self.dead.as_ref().map_or(0, |d| d.written);
            match result {
                Ok(()) => {
                    self.stats.inserted +=
                        batch.len() as u64 - (self.stats.dead_lettered - dead_before);
                    self.stats.batches += 1;
                    return Ok(());
                }
                Err(e) => {
                    self.stats.outages += 1;
                    self.probe_attempt = 0;
                    self.outage_probe_at = Some(Instant::now() + self.options.backoff.delay(0));
                    tracing::warn!(error = %e, spool = %self.spool.root().display(), "ClickHouse inserts failing; spooling records until it answers");
                }
            }
        }
        self.spool.append(&batch)?;
        self.stats.spooled += batch.len() as u64;
        Ok(())
    }

    /// Inserts the sealed spool generations one by one; on the first failure waits for the
    /// next probe.
    async fn try_drain(&mut self) -> Result<(), StoreError> {
        self.spool.seal()?;
        let generations = self.spool.sealed().to_vec();
        for dir in generations {
            match self.drain_generation(&dir).await? {
                Ok(records) => {
                    self.spool.remove_drained(&dir, records)?;
                    self.stats.drained += records;
                }
                Err(e) => {
                    self.probe_attempt += 1;
                    let delay = self.options.backoff.delay(self.probe_attempt);
                    self.outage_probe_at = Some(Instant::now() + delay);
                    tracing::debug!(error = %e, delay_ms = delay.as_millis() as u64, "ClickHouse still unreachable");
                    return Ok(());
                }
            }
        }
        if self.outage_probe_at.take().is_some() {
            tracing::info!(
                drained = self.stats.drained,
                "ClickHouse answers again; spool drained"
            );
        }
        Ok(())
    }

    /// Inserts one generation; the outer error is fatal (the dead-letter file is full), the
    /// inner one means the server is still away.
    async fn drain_generation(
        &mut self,
        dir: &std::path::Path,
    ) -> Result<Result<u64, StoreError>, StoreError> {
        let mut reader = match RunReader::open_dir(dir) {
            Ok(r) => r,
            Err(e) => return Ok(Err(e)),
        };
        let mut chunk = Vec::with_capacity(self.options.batch_rows.get());
        let mut total = 0;
        loop {
            chunk.clear();
            let mut items = 0;
            for item in reader.by_ref().take(self.options.batch_rows.get()) {
                items += 1;
                match item {
                    Ok(r) => chunk.push(r),
                    Err(e) => tracing::warn!(error = %e, "skipping an unreadable spooled record"),
                }
            }
            if items == 0 {
                break;
            }
            if chunk.is_empty() {
                continue;
            }
            let policy = InsertPolicy {
                timeout: self.options.insert_timeout,
                attempts: 1,
                backoff: &self.options.backoff,
            };
            let mut failed = 0;
            let inserted =
                insert_isolating(&self.conn, &chunk, &policy, &mut failed, self.dead.as_mut())
                    .await?;
            self.stats.dead_lettered = self.dead.as_ref().map_or(0, |d| d.written);
            if let Err(e) = inserted {
                return Ok(Err(e));
            }
            self.stats.batches += 1;
            total += chunk.len() as u64;
        }
        Ok(Ok(total))
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
