//! The writer thread: the only owner of the sink. It flushes whenever it has caught up with
//! the pipeline (then waits a few milliseconds for a batch), so a crash loses at most what was
//! still queued, never what was acknowledged.
//! When the sink fails it says so at once (the `failed` token) and stops taking records, so
//! every later hand-off fails and the pipeline stops instead of scanning into the void.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

use mcpcensus_store::{Outcome, Record, StoreError};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::progress::Counters;
use super::sink::RecordSink;

/// How long the writer, caught up, waits for more records before parking until the next one.
const BATCH_WAIT: std::time::Duration = std::time::Duration::from_millis(5);

/// What the writer saw (on resume, starting from what the store already held).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct WrittenCounts {
    pub records: u64,
    pub per_outcome: BTreeMap<Outcome, u64>,
    pub defects: u64,
    pub endpoints: u64,
}

impl WrittenCounts {
    pub fn add(&mut self, record: &Record) {
        self.records += 1;
        *self.per_outcome.entry(record.outcome).or_default() += 1;
        self.defects += u64::from(record.defect);
        self.endpoints += u64::from(record.endpoint.is_some());
    }

    /// A record known only by these fields (a ClickHouse row).
    pub fn add_fields(&mut self, outcome: Outcome, defect: bool, endpoint: bool) {
        self.records += 1;
        *self.per_outcome.entry(outcome).or_default() += 1;
        self.defects += u64::from(defect);
        self.endpoints += u64::from(endpoint);
    }
}

/// How the writer ended: its counts, and the sink error that stopped it, if one did.
#[derive(Debug)]
pub struct WriterEnd {
    pub counts: WrittenCounts,
    pub error: Option<StoreError>,
}

pub fn spawn(
    rx: mpsc::Receiver<Record>,
    sink: Box<dyn RecordSink>,
    counters: Arc<Counters>,
    initial: WrittenCounts,
    failed: CancellationToken,
) -> std::io::Result<JoinHandle<WriterEnd>> {
    std::thread::Builder::new()
        .name("mcpcensus-writer".into())
        .spawn(move || {
            let mut counts = initial;
            let error = write_all(rx, sink, &counters, &mut counts).err();
            if error.is_some() {
                failed.cancel();
            }
            WriterEnd { counts, error }
        })
}

fn write_all(
    mut rx: mpsc::Receiver<Record>,
    mut sink: Box<dyn RecordSink>,
    counters: &Counters,
    counts: &mut WrittenCounts,
) -> Result<(), StoreError> {
    // Set by a batch wait, cleared by a record: an empty queue after a wait parks the thread.
    let mut waited = false;
    loop {
        let record = match rx.try_recv() {
            Ok(r) => {
                waited = false;
                r
            }
            Err(mpsc::error::TryRecvError::Empty) => {
                if !waited {
                    // Nothing is written during a wait that finds nothing: one flush will do.
                    sink.flush()?;
                    // Records arriving within a short wait are taken in one wake-up: at
                    // a high record rate the thread runs a few hundred times a second, not
                    // once a record (a wake-up, a context switch and a write each).
                    std::thread::sleep(BATCH_WAIT);
                    waited = true;
                    continue;
                }
                waited = false;
                match rx.blocking_recv() {
                    Some(r) => r,
                    None => break,
                }
            }
            Err(mpsc::error::TryRecvError::Disconnected) => break,
        };
        if let Err(e) = sink.write(&record) {
            // Closing the queue first makes every later hand-off fail at once.
            rx.close();
            return Err(e);
        }
        counts.add(&record);
        if record.endpoint.is_some() {
            counters.endpoints.fetch_add(1, Ordering::Relaxed);
        }
        counters.done.fetch_add(1, Ordering::Relaxed);
        // Sampled here too: the feeding loop samples only when it takes work, and a run
        // waiting for its last sites takes none.
        counters
            .writer_queued
            .store(rx.len() as u64, Ordering::Relaxed);
    }
    sink.finish()
}
