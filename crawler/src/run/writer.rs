//! The writer thread: the only owner of the sink. It flushes whenever it has caught up with
//! the pipeline, so a crash loses at most what was still queued, never what was acknowledged.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

use mcpcensus_store::{Outcome, Record, StoreError};
use tokio::sync::mpsc;

use super::progress::Counters;
use super::sink::RecordSink;

/// What the writer saw.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct WrittenCounts {
    pub records: u64,
    pub per_outcome: BTreeMap<Outcome, u64>,
    pub defects: u64,
    pub endpoints: u64,
}

pub fn spawn(
    mut rx: mpsc::Receiver<Record>,
    mut sink: Box<dyn RecordSink>,
    counters: Arc<Counters>,
) -> std::io::Result<JoinHandle<Result<WrittenCounts, StoreError>>> {
    std::thread::Builder::new()
        .name("mcpcensus-writer".into())
        .spawn(move || {
            let mut counts = WrittenCounts::default();
            loop {
                let record = match rx.try_recv() {
                    Ok(r) => r,
                    Err(mpsc::error::TryRecvError::Empty) => {
                        sink.flush()?;
                        match rx.blocking_recv() {
                            Some(r) => r,
                            None => break,
                        }
                    }
                    Err(mpsc::error::TryRecvError::Disconnected) => break,
                };
                sink.write(&record)?;
                counts.records += 1;
                *counts.per_outcome.entry(record.outcome).or_default() += 1;
                counts.defects += u64::from(record.defect);
                if record.endpoint.is_some() {
                    counts.endpoints += 1;
                    counters.endpoints.fetch_add(1, Ordering::Relaxed);
                }
                counters.done.fetch_add(1, Ordering::Relaxed);
            }
            sink.finish()?;
            Ok(counts)
        })
}
