//! Admission control under a starved runtime: the crawler's own CPU is never a site's verdict.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcpcensus_store::Outcome;

use super::tests::{job, list};
use super::*;

/// Each site: the server answers after `wait`, then the scan costs `cpu` of this runtime's
/// thread (a busy loop, as parsing and TLS would), twice. A site whose scan took longer than
/// `budget` from its start is lost, as an MCP site is when the crawler's own queueing eats
/// the time of its session.
struct BusyScanner {
    wait: Duration,
    cpu: Duration,
    budget: Duration,
}

fn spin(d: Duration) {
    let t = Instant::now();
    while t.elapsed() < d {
        std::hint::spin_loop();
    }
}

impl Scanner for BusyScanner {
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        _seat: Arc<dyn Seat>,
    ) -> ScanFuture<'a> {
        Box::pin(async move {
            let started = Instant::now();
            for _ in 0..2 {
                tokio::time::sleep(self.wait).await;
                spin(self.cpu);
            }
            let took = started.elapsed();
            if took > self.budget {
                let reason = format!("too little time left: the scan took {took:?}");
                return job
                    .record(
                        run_id,
                        crate::verdict::Verdict::of(Outcome::NotMeasured, reason),
                    )
                    .into();
            }
            job.record(
                run_id,
                crate::verdict::Verdict::of(Outcome::Pass, "measured"),
            )
            .into()
        })
    }
}

// 800 sites at once on one thread would queue 800 × 2.5 ms = 2 s of CPU between a site's
// steps, over its 1.5 s budget: every site lost without admission control. With it, the
// crawler admits only as many as it keeps up with (lag under 40 ms), so a site's scan takes
// its 2 × 20 ms of waiting plus a few rounds of others' CPU, far under the budget even when
// the machine is shared.
#[tokio::test(flavor = "current_thread")]
async fn a_starved_runtime_admits_fewer_sites_and_loses_none() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..800).map(|i| format!("s{i}.test")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let scanner = Arc::new(BusyScanner {
        wait: Duration::from_millis(20),
        cpu: Duration::from_micros(2500),
        budget: Duration::from_millis(1500),
    });
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let mut crawl_job = job(list(dir.path(), &refs), Some(scanner), sink);
    crawl_job.concurrency = 800;
    let summary = crawl(crawl_job, Shutdown::default()).await.unwrap();
    let recs = out.lock().unwrap().clone();
    assert_eq!(recs.len(), 800);
    let lost: Vec<&str> = recs
        .iter()
        .filter(|r| r.outcome != Outcome::Pass)
        .map(|r| r.outcome_reason.as_str())
        .collect();
    assert!(
        lost.is_empty(),
        "{} lost, e.g. {:?}",
        lost.len(),
        lost.first()
    );
    let a = summary.admission;
    assert_eq!(a.ceiling, 800);
    assert!(
        a.peak_in_flight < 800,
        "the ceiling was used in full: {a:?}"
    );
    assert!(a.held_back > Duration::ZERO, "{a:?}");
    assert!(summary.to_string().contains("--concurrency 800"));
}
