use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpcensus_store::{Outcome, Record};

use super::*;
use crate::input::{Exclusions, LineReader, Planner, Shard, Source};

pub(super) fn list(dir: &std::path::Path, lines: &[&str]) -> Vec<Source> {
    let path = dir.join("list.txt");
    std::fs::write(&path, lines.join("\n")).unwrap();
    vec![Source::File(path)]
}

pub(super) fn job(
    sources: Vec<Source>,
    scanner: Option<Arc<dyn Scanner>>,
    sink: MemorySink,
) -> CrawlJob {
    CrawlJob {
        run_id: "test-run".into(),
        reader: LineReader::new(sources),
        planner: Planner::new(
            Shard::ALL,
            Arc::new(Exclusions::from_domains(["blocked.test".to_owned()])),
        ),
        total_bytes: None,
        scanner,
        sink: Box::new(sink),
        concurrency: 4,
        max_duration: None,
        grace: Duration::from_millis(50),
        progress: ProgressMode::Quiet,
        resume: None,
        admission: AdmissionSettings::default(),
        counters: None,
        second_look: None,
    }
}

/// Scans by sleeping; tracks the most sites in flight at once.
struct SlowScanner {
    delay: Duration,
    now: AtomicUsize,
    peak: AtomicUsize,
}

impl Scanner for SlowScanner {
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        _seat: Arc<dyn Seat>,
    ) -> ScanFuture<'a> {
        Box::pin(async move {
            let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
            self.peak.fetch_max(n, Ordering::SeqCst);
            tokio::time::sleep(self.delay).await;
            self.now.fetch_sub(1, Ordering::SeqCst);
            job.record(
                run_id,
                crate::verdict::Verdict::of(Outcome::OutOfScope, "test"),
            )
            .into()
        })
    }
}

fn records(sink: &Arc<Mutex<Vec<Record>>>) -> Vec<Record> {
    sink.lock().unwrap().clone()
}

#[tokio::test]
async fn dry_run_writes_one_record_per_origin_and_invalid_line() {
    let dir = tempfile::tempdir().unwrap();
    let sources = list(
        dir.path(),
        &[
            "a.test",
            "A.TEST",
            "b.test:8443",
            "# c",
            "",
            "bad line",
            "www.blocked.test",
            "a.test",
        ],
    );
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let summary = crawl(job(sources, None, sink), Shutdown::default())
        .await
        .unwrap();
    let recs = records(&out);
    let outcomes: Vec<(Outcome, &str)> =
        recs.iter().map(|r| (r.outcome, r.input.as_str())).collect();
    assert_eq!(
        outcomes,
        [
            (Outcome::Planned, "a.test"),
            (Outcome::Planned, "b.test:8443"),
            (Outcome::InvalidInput, "bad line"),
            (Outcome::Excluded, "www.blocked.test"),
        ]
    );
    assert_eq!(recs[1].origin.as_deref(), Some("https://b.test:8443"));
    assert_eq!(recs[2].outcome_reason, "contains spaces");
    assert_eq!(recs[3].input_line, 7);
    assert_eq!(summary.input.lines, 8);
    assert_eq!(summary.input.duplicates, 2);
    assert!(summary.input.balanced());
    assert_eq!(summary.written.records, summary.input.records());
    assert_eq!(summary.ending, Ending::Complete);
}

#[tokio::test]
async fn scans_stay_within_the_concurrency_bound() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..40).map(|i| format!("s{i}.test")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let scanner = Arc::new(SlowScanner {
        delay: Duration::from_millis(20),
        now: AtomicUsize::new(0),
        peak: AtomicUsize::new(0),
    });
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let summary = crawl(
        job(list(dir.path(), &refs), Some(scanner.clone()), sink),
        Shutdown::default(),
    )
    .await
    .unwrap();
    assert_eq!(records(&out).len(), 40);
    assert_eq!(
        summary.written.per_outcome.get(&Outcome::OutOfScope),
        Some(&40)
    );
    let peak = scanner.peak.load(Ordering::SeqCst);
    assert!(peak <= 4, "peak {peak} sites in flight with concurrency 4");
    assert!(peak >= 2, "scans did not overlap (peak {peak})");
    // The summary's JSON says how many were in flight (a benchmark's memory per site).
    let a = summary.admission;
    assert!(
        (peak as u64..=4).contains(&a.peak_in_flight),
        "{a:?}, scanner peak {peak}"
    );
    let json = summary.to_json();
    assert_eq!(json["admission"]["concurrency"], 4);
    assert_eq!(json["admission"]["peak_in_flight"], a.peak_in_flight);
}

#[tokio::test]
async fn shutdown_records_every_line_read_and_marks_unfinished_sites() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..2000).map(|i| format!("s{i}.test")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let scanner = Arc::new(SlowScanner {
        delay: Duration::from_secs(3600),
        now: AtomicUsize::new(0),
        peak: AtomicUsize::new(0),
    });
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let shutdown = Shutdown::default();
    let stopper = shutdown.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        stopper.stop.cancel();
    });
    let summary = crawl(job(list(dir.path(), &refs), Some(scanner), sink), shutdown)
        .await
        .unwrap();
    assert_eq!(summary.ending, Ending::Interrupted);
    let recs = records(&out);
    assert!(recs.iter().all(|r| r.outcome == Outcome::NotStarted));
    assert_eq!(recs.len() as u64, summary.input.records());
    assert!(summary.input.balanced());
    assert!(
        summary.input.lines < 2000,
        "intake should have stopped early"
    );
}

#[tokio::test]
async fn max_duration_stops_intake() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..500).map(|i| format!("s{i}.test")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let scanner = Arc::new(SlowScanner {
        delay: Duration::from_millis(30),
        now: AtomicUsize::new(0),
        peak: AtomicUsize::new(0),
    });
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let mut j = job(list(dir.path(), &refs), Some(scanner), sink);
    j.max_duration = Some(Duration::from_millis(150));
    let summary = crawl(j, Shutdown::default()).await.unwrap();
    assert_eq!(summary.ending, Ending::MaxDuration);
    let recs = records(&out);
    let finished = recs
        .iter()
        .filter(|r| r.outcome == Outcome::OutOfScope)
        .count();
    assert!(finished > 0 && finished < 500, "finished {finished}");
    assert_eq!(recs.len() as u64, summary.input.records());
}

#[tokio::test]
async fn a_max_duration_past_what_instant_holds_is_no_limit() {
    let dir = tempfile::tempdir().unwrap();
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let mut j = job(list(dir.path(), &["a.test", "b.test"]), None, sink);
    j.max_duration = Some(Duration::MAX);
    let summary = crawl(j, Shutdown::default()).await.unwrap();
    assert_eq!(summary.ending, Ending::Complete);
    assert_eq!(records(&out).len(), 2);
}
