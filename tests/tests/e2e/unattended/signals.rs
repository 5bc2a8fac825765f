//! SIGTERM (systemd, `docker stop`, Kubernetes, `timeout`) acts like the first Ctrl-C.

use std::time::{Duration, Instant};

use mcpcensus_store::{Outcome, RunStatus};

use super::fixture::{assert_one_true_record_per_line, read_store, Web};
use crate::child::{signal, spawn_crawler, wait, ChildOptions};
use crate::util::counts;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_mid_run_marks_the_run_interrupted_with_counts_and_exits_143() {
    let web = Web::start(200, Duration::from_millis(800), 32).await;
    let mut child = spawn_crawler(
        &web.crawl_args(&["--concurrency", "10"]),
        &ChildOptions::default(),
    );
    // Wait until the run is under way: some records are in the store.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(child.try_wait().unwrap().is_none(), "ended before SIGTERM");
        if read_store(&web.store()).is_some_and(|(_, r)| r.len() >= 10) {
            break;
        }
        assert!(Instant::now() < deadline, "no records after 60 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    signal(&child, "TERM");
    let (code, stderr) = wait(child, Duration::from_secs(60)).await;
    assert_eq!(code, Some(143), "{stderr}");
    let (manifest, records) = read_store(&web.store()).unwrap();
    assert_eq!(manifest.status, RunStatus::Interrupted);
    assert!(manifest.ended_at.is_some());
    assert_eq!(counts(&manifest).lines_read, records.len() as u64);
    assert_eq!(counts(&manifest).records_written, records.len() as u64);
    let not_started = records
        .iter()
        .filter(|r| r.outcome == Outcome::NotStarted)
        .count() as u64;
    assert!(not_started > 0, "SIGTERM came early: sites were left");
    assert_eq!(counts(&manifest).outcome(Outcome::NotStarted), not_started);

    // And the run resumes to completion.
    let child = spawn_crawler(
        &web.crawl_args(&["--concurrency", "50", "--resume"]),
        &ChildOptions::default(),
    );
    let (code, stderr) = wait(child, Duration::from_secs(120)).await;
    assert_eq!(code, Some(0), "{stderr}");
    let (manifest, records) = read_store(&web.store()).unwrap();
    assert_eq!(manifest.status, RunStatus::Complete);
    assert_one_true_record_per_line(&web, &records);
}
