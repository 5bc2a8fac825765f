//! The second look: which sites get one, when, what the record keeps, and what a stop does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpcensus_store::{FailureKind, Outcome, Record};
use tokio::time::Instant;

use super::second_look::{Next, SecondLooks};
use super::tests::{job, list};
use super::*;
use crate::scan::Scanned;
use crate::verdict::Verdict;

const DELAY: Duration = Duration::from_secs(600);

/// Answers by name: `flaky` fails (may pass) once then passes, `dead` and `busy` always fail
/// in a way that may pass (`slow-dead` after a long wait), `nx` fails for good, `hang` hangs on
/// its second look (a scan that ignores its deadline: only the cut ends it); the rest pass.
/// Keeps when each scan of each site started and ended.
#[derive(Default)]
struct Scripted {
    scans: Mutex<HashMap<String, Vec<(Instant, Instant)>>>,
}

impl Scripted {
    fn times(&self, input: &str) -> Vec<(Instant, Instant)> {
        self.scans
            .lock()
            .unwrap()
            .get(input)
            .cloned()
            .unwrap_or_default()
    }
}

impl Scanner for Scripted {
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        _seat: Arc<dyn Seat>,
    ) -> ScanFuture<'a> {
        Box::pin(async move {
            let started = Instant::now();
            let before = self.times(&job.input).len();
            tokio::time::sleep(Duration::from_secs(1)).await;
            if job.input == "hang.test" && before == 1 {
                std::future::pending::<()>().await;
            }
            if job.input == "slow-dead.test" {
                tokio::time::sleep(DELAY / 4).await;
            }
            let failed = |outcome, kind, transient| {
                Scanned::Recorded(crate::scan::Recorded {
                    transient,
                    ..job
                        .record(
                            run_id,
                            Verdict::new(outcome, kind, format!("look {}", before + 1)),
                        )
                        .into()
                })
            };
            let scanned = match (job.input.as_str(), before) {
                ("flaky.test", 0) | ("dead.test" | "hang.test" | "slow-dead.test", _) => {
                    failed(Outcome::Unreachable, FailureKind::Connect, true)
                }
                ("busy.test", _) => failed(Outcome::NotMeasured, FailureKind::Answer, true),
                ("nx.test", _) => failed(Outcome::Unreachable, FailureKind::Dns, false),
                _ => job
                    .record(run_id, Verdict::of(Outcome::Pass, "tools"))
                    .into(),
            };
            self.scans
                .lock()
                .unwrap()
                .entry(job.input.clone())
                .or_default()
                .push((started, Instant::now()));
            scanned
        })
    }
}

fn by_input(records: &[Record]) -> HashMap<String, Record> {
    let mut map = HashMap::new();
    for r in records {
        assert!(
            map.insert(r.input.clone(), r.clone()).is_none(),
            "two records for {}",
            r.input
        );
    }
    map
}

#[tokio::test(start_paused = true)]
async fn a_failure_that_may_pass_is_looked_at_again_after_the_input_and_the_second_decides() {
    let dir = tempfile::tempdir().unwrap();
    let mut names = vec!["flaky.test", "dead.test", "busy.test", "nx.test"];
    let others: Vec<String> = (0..20).map(|i| format!("ok{i}.test")).collect();
    names.extend(others.iter().map(String::as_str));
    let scanner = Arc::new(Scripted::default());
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let mut job = job(list(dir.path(), &names), Some(scanner.clone()), sink);
    job.second_look = Some(DELAY);
    let summary = crawl(job, Shutdown::default()).await.unwrap();
    assert_eq!(summary.ending, Ending::Complete);

    let records = by_input(&out.lock().unwrap());
    assert_eq!(records.len(), names.len(), "one record per line");
    let flaky = &records["flaky.test"];
    assert_eq!(flaky.outcome, Outcome::Pass, "the second look decides");
    let first = flaky.first_look.as_ref().expect("the first look is kept");
    assert_eq!(first.outcome, Outcome::Unreachable);
    assert_eq!(first.outcome_reason, "look 1");
    assert_eq!(first.reason_kind, Some(FailureKind::Connect));
    for dead in ["dead.test", "busy.test"] {
        let r = &records[dead];
        assert_eq!(r.outcome_reason, "look 2", "{dead}");
        assert!(r.first_look.is_some(), "{dead}");
    }
    // A failure that does not pass, and a pass, are looked at once.
    for once in ["nx.test", "ok3.test"] {
        assert!(records[once].first_look.is_none(), "{once}");
        assert_eq!(scanner.times(once).len(), 1, "{once}");
    }

    // Looked at again near the end: after every first look began, and at least the delay
    // after its own first look ended.
    let last_first_start = names.iter().map(|n| scanner.times(n)[0].0).max().unwrap();
    let flaky_times = scanner.times("flaky.test");
    assert_eq!(flaky_times.len(), 2);
    assert!(flaky_times[1].0 >= flaky_times[0].1 + DELAY);
    assert!(flaky_times[1].0 >= last_first_start);

    let s = summary.second_looks;
    assert_eq!((s.made, s.flipped, s.not_made), (3, 1, 0));
    let counts = summary.manifest_counts();
    assert_eq!(counts.second_looks, 3);
    assert_eq!(counts.second_looks_flipped, 1);
}

#[tokio::test(start_paused = true)]
async fn without_second_looks_each_site_is_scanned_once() {
    let dir = tempfile::tempdir().unwrap();
    let scanner = Arc::new(Scripted::default());
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let job = job(
        list(dir.path(), &["flaky.test", "ok.test"]),
        Some(scanner.clone()),
        sink,
    );
    assert_eq!(job.second_look, None);
    let summary = crawl(job, Shutdown::default()).await.unwrap();
    let records = by_input(&out.lock().unwrap());
    assert_eq!(records["flaky.test"].outcome, Outcome::Unreachable);
    assert!(records["flaky.test"].first_look.is_none());
    assert_eq!(scanner.times("flaky.test").len(), 1);
    assert_eq!(summary.second_looks.made, 0);
}

#[tokio::test(start_paused = true)]
async fn a_stop_writes_the_first_look_of_every_site_still_waiting_or_cut() {
    let dir = tempfile::tempdir().unwrap();
    let scanner = Arc::new(Scripted::default());
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let mut job = job(
        list(dir.path(), &["slow-dead.test", "hang.test", "ok.test"]),
        Some(scanner.clone()),
        sink,
    );
    job.second_look = Some(DELAY);
    let shutdown = Shutdown::default();
    let stopper = shutdown.clone();
    tokio::spawn(async move {
        // hang.test is in its second look (which never ends) and slow-dead.test still waits
        // for its own: stop the run.
        tokio::time::sleep(DELAY + Duration::from_secs(10)).await;
        stopper.stop.cancel();
    });
    let summary = crawl(job, shutdown).await.unwrap();
    assert_eq!(summary.ending, Ending::Interrupted);
    let records = by_input(&out.lock().unwrap());
    assert_eq!(records.len(), 3, "every line has its record");
    let hang = &records["hang.test"];
    assert_eq!(
        hang.outcome,
        Outcome::Unreachable,
        "the cut second look gives way to the first"
    );
    assert_eq!(hang.outcome_reason, "look 1");
    assert!(hang.first_look.is_none());
    assert_eq!(records["slow-dead.test"].outcome_reason, "look 1");
    assert_eq!(scanner.times("slow-dead.test").len(), 1);
    assert_eq!(summary.second_looks.not_made, 2);
    assert_eq!(summary.second_looks.made, 0);
}

#[tokio::test(start_paused = true)]
async fn a_stop_before_the_second_looks_writes_the_waiting_first_looks() {
    let dir = tempfile::tempdir().unwrap();
    let scanner = Arc::new(Scripted::default());
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let mut job = job(
        list(dir.path(), &["dead.test", "busy.test", "ok.test"]),
        Some(scanner.clone()),
        sink,
    );
    job.second_look = Some(DELAY);
    let shutdown = Shutdown::default();
    let stopper = shutdown.clone();
    tokio::spawn(async move {
        tokio::time::sleep(DELAY / 2).await;
        stopper.stop.cancel();
    });
    let summary = crawl(job, shutdown).await.unwrap();
    assert_eq!(summary.ending, Ending::Interrupted);
    let records = by_input(&out.lock().unwrap());
    assert_eq!(records.len(), 3);
    for first in ["dead.test", "busy.test"] {
        assert_eq!(records[first].outcome_reason, "look 1", "{first}");
        assert_eq!(scanner.times(first).len(), 1, "{first}");
    }
    assert_eq!(summary.second_looks.not_made, 2);
    assert_eq!(summary.manifest_counts().second_looks_not_made, 2);
}

fn site(name: &str, line: u64) -> SiteJob {
    let crate::input::Planned::Scan(target) = crate::input::Planner::new(
        crate::input::Shard::ALL,
        Arc::new(crate::input::Exclusions::default()),
    )
    .plan_at(line, crate::input::RawLine::Text(name)) else {
        panic!("{name} plans to a scan")
    };
    SiteJob {
        target,
        input: name.to_owned(),
        input_line: line,
        registry: None,
        listed: None,
        second_look: false,
    }
}

#[tokio::test(start_paused = true)]
async fn the_waiting_sites_are_bounded_and_the_oldest_goes_first_once_due() {
    let looks = SecondLooks::bounded(DELAY, 2);
    let failed = |s: &SiteJob| {
        s.record("r", Verdict::of(Outcome::Unreachable, "no answer"))
            .with_kind(FailureKind::Timeout)
    };
    let (a, b) = (site("a.test", 1), site("b.test", 2));
    assert!(matches!(
        looks.after_scan(&a, failed(&a), true),
        Next::Waits
    ));
    assert!(!looks.full());
    // Not yet due, and the input is still open with room: nothing goes.
    assert!(looks.take_due(true).is_none());
    assert!(matches!(
        looks.after_scan(&b, failed(&b), true),
        Next::Waits
    ));
    assert!(looks.full(), "two of two: the feeding loop takes no input");
    assert!(looks.take_due(true).is_none(), "full, but not due yet");
    tokio::time::advance(DELAY).await;
    let taken = looks.take_due(true).expect("full and due: the oldest goes");
    assert_eq!(taken.input, "a.test");
    assert!(!looks.full());
    assert!(
        looks.take_due(true).is_none(),
        "room again: wait for the end"
    );
    assert_eq!(looks.take_due(false).unwrap().input, "b.test");

    // A second look's record keeps the first; a third scan is never queued.
    let second = a.record("r", Verdict::of(Outcome::Unreachable, "still no answer"));
    let Next::Write(record) = looks.after_scan(&a, second, true) else {
        panic!("a second look is written");
    };
    assert_eq!(record.first_look.unwrap().outcome_reason, "no answer");
    // Not a verdict that waits: out of scope, or a failure that does not pass.
    let c = site("c.test", 3);
    let out = c.record("r", Verdict::of(Outcome::OutOfScope, "no endpoint"));
    assert!(matches!(looks.after_scan(&c, out, true), Next::Write(_)));
    assert!(matches!(
        looks.after_scan(&c, failed(&c), false),
        Next::Write(_)
    ));
}
