//! The pipeline under faults: panicking scans, failing sinks, local resource failures, resume.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpcensus_store::{Outcome, Record, StoreError};

use super::tests::{job, list};
use super::*;
use crate::scan::Scanned;

/// Panics on `panic.test`, fails like a process out of descriptors the first `local` times on
/// `local.test`, answers `out_of_scope` otherwise.
struct FaultyScanner {
    local: AtomicUsize,
}

impl Scanner for FaultyScanner {
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        _seat: Arc<dyn Seat>,
    ) -> ScanFuture<'a> {
        Box::pin(async move {
            if job.input == "panic.test" {
                panic!("boom at {}", job.input);
            }
            if job.input == "local.test" && self.local.fetch_sub(1, Ordering::SeqCst) > 0 {
                let record = job.record(
                    run_id,
                    crate::verdict::Verdict::of(Outcome::Unreachable, out_of_descriptors()),
                );
                return Scanned::Recorded(crate::scan::Recorded {
                    record,
                    local: Some(crate::net::LocalResource::FileDescriptors),
                    transcript: Vec::new(),
                    transient: false,
                });
            }
            if job.input == "says-local.test" {
                // A server's words, exactly as the net layer renders this machine's own
                // failure: with no typed flag, a verdict like any other.
                return job
                    .record(
                        run_id,
                        crate::verdict::Verdict::of(Outcome::Fail, out_of_descriptors()),
                    )
                    .into();
            }
            job.record(
                run_id,
                crate::verdict::Verdict::of(Outcome::OutOfScope, "test"),
            )
            .into()
        })
    }

    fn dns_stalls(&self) -> u64 {
        3
    }
}

/// What the scan writes when the connector's socket() fails with EMFILE: the net layer's
/// typed error, rendered as the scan renders it.
fn out_of_descriptors() -> String {
    let emfile = std::io::Error::from_raw_os_error(rustix::io::Errno::MFILE.raw_os_error());
    let err = crate::net::FetchError::Connect {
        host: "local.test".to_owned(),
        address: "127.0.0.1:443".parse().unwrap(),
        failure: crate::net::ConnectFailure::from_io(&emfile),
    };
    format!("the site did not answer: {err}")
}

/// The words are not a cause: a site whose answer renders like this machine's failure gets
/// its own verdict, the run goes on and ends complete.
#[tokio::test(start_paused = true)]
async fn only_the_typed_flag_counts_as_local() {
    let dir = tempfile::tempdir().unwrap();
    let sources = list(dir.path(), &["says-local.test", "a.test"]);
    let scanner = Arc::new(FaultyScanner {
        local: AtomicUsize::new(0),
    });
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let summary = crawl(job(sources, Some(scanner), sink), Shutdown::default())
        .await
        .unwrap();
    assert_eq!(summary.ending, Ending::Complete);
    assert_eq!(summary.local_retries, 0);
    let recs = out.lock().unwrap().clone();
    let says = outcome_of(&recs, "says-local.test");
    assert_eq!(says.outcome, Outcome::Fail);
    assert!(says
        .outcome_reason
        .contains("local resource: out of file descriptors"));
}

fn outcome_of<'a>(records: &'a [Record], input: &str) -> &'a Record {
    records.iter().find(|r| r.input == input).unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_panicking_scan_yields_a_record_and_local_failures_are_retried() {
    let dir = tempfile::tempdir().unwrap();
    let sources = list(
        dir.path(),
        &["a.test", "panic.test", "local.test", "b.test"],
    );
    let scanner = Arc::new(FaultyScanner {
        local: AtomicUsize::new(2),
    });
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let summary = crawl(job(sources, Some(scanner), sink), Shutdown::default())
        .await
        .unwrap();
    assert_eq!(summary.ending, Ending::Complete);
    let recs = out.lock().unwrap().clone();
    assert_eq!(recs.len(), 4);
    let panicked = outcome_of(&recs, "panic.test");
    assert_eq!(panicked.outcome, Outcome::NotMeasured);
    assert_eq!(
        panicked.reason_kind,
        Some(mcpcensus_store::FailureKind::Internal)
    );
    assert!(
        panicked
            .outcome_reason
            .contains("panicked: boom at panic.test"),
        "{}",
        panicked.outcome_reason
    );
    assert_eq!(outcome_of(&recs, "local.test").outcome, Outcome::OutOfScope);
    assert_eq!(summary.local_retries, 2);
    assert_eq!(summary.manifest_counts().local_resource_retries, 2);
    // The resolver's stalls reach the summary, its text and its JSON.
    assert_eq!(summary.dns_stalls, 3);
    assert!(
        summary
            .to_string()
            .contains("DNS: 3 lookups stalled in the resolver"),
        "{summary}"
    );
    assert_eq!(summary.to_json()["dns_stalls"], 3);
}

#[tokio::test(start_paused = true)]
async fn a_machine_that_keeps_failing_locally_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let sources = list(dir.path(), &["local.test", "a.test"]);
    let scanner = Arc::new(FaultyScanner {
        local: AtomicUsize::new(usize::MAX),
    });
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let summary = crawl(job(sources, Some(scanner), sink), Shutdown::default())
        .await
        .unwrap();
    assert_eq!(summary.ending, Ending::Failed);
    assert!(summary
        .failure
        .unwrap()
        .contains("running out of resources"));
    let recs = out.lock().unwrap().clone();
    let local = outcome_of(&recs, "local.test");
    assert_eq!(local.outcome, Outcome::NotStarted, "never a site verdict");
    assert_eq!(
        local.reason_kind,
        Some(mcpcensus_store::FailureKind::LocalResource)
    );
}

/// Fails from its `fail_at`th write on.
struct FailingSink {
    writes: Arc<Mutex<u64>>,
    fail_at: u64,
}

impl RecordSink for FailingSink {
    fn write(&mut self, _: &Record) -> Result<(), StoreError> {
        let mut n = self.writes.lock().unwrap();
        *n += 1;
        if *n >= self.fail_at {
            return Err(StoreError::Io {
                op: "appending to",
                path: "segment".into(),
                source: std::io::Error::other("disk on fire"),
            });
        }
        Ok(())
    }
    fn flush(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
    fn finish(self: Box<Self>) -> Result<(), StoreError> {
        Ok(())
    }
}

#[tokio::test]
async fn a_failing_sink_stops_intake_and_cuts_sites_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..3000).map(|i| format!("s{i}.test")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut j = job(
        list(dir.path(), &refs),
        Some(Arc::new(FaultyScanner {
            local: AtomicUsize::new(0),
        })),
        MemorySink::default(),
    );
    let writes = Arc::new(Mutex::new(0));
    j.sink = Box::new(FailingSink {
        writes: writes.clone(),
        fail_at: 10,
    });
    let summary = tokio::time::timeout(Duration::from_secs(30), crawl(j, Shutdown::default()))
        .await
        .expect("the run stops")
        .unwrap();
    assert_eq!(summary.ending, Ending::Failed);
    assert!(summary.failure.unwrap().contains("disk on fire"));
    assert_eq!(summary.written.records, 9);
    assert!(
        summary.input.lines < 3000,
        "intake went on after the failure"
    );
}

#[tokio::test]
async fn a_resumed_run_skips_the_lines_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let sources = list(dir.path(), &["a.test", "b.test", "bad line", "c.test"]);
    let mut done = DoneSet::default();
    done.insert(1, "a.test");
    done.insert(3, "bad line");
    let prior = WrittenCounts {
        records: 2,
        ..WrittenCounts::default()
    };
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let mut j = job(
        sources,
        Some(Arc::new(FaultyScanner {
            local: AtomicUsize::new(0),
        })),
        sink,
    );
    j.resume = Some((done, prior));
    let summary = crawl(j, Shutdown::default()).await.unwrap();
    let inputs: Vec<String> = out
        .lock()
        .unwrap()
        .iter()
        .map(|r| r.input.clone())
        .collect();
    assert_eq!(inputs.len(), 2);
    assert!(inputs.contains(&"b.test".to_owned()) && inputs.contains(&"c.test".to_owned()));
    assert_eq!(summary.already_recorded, 2);
    assert_eq!(summary.written.records, 4, "counts cover the whole run");
}
