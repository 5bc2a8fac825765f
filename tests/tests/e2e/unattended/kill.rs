//! SIGKILL at random moments of one run, resuming each time: at the end every input line has
//! exactly one record and every verdict is what an uninterrupted run gives.

use std::time::{Duration, Instant};

use super::fixture::{assert_one_true_record_per_line, read_store, Web};
use crate::child::{spawn_crawler, wait, ChildOptions};

const SITES: u32 = 600;
const KILLS: usize = 20;
/// Every home page waits this long, so the run needs at least SITES / CONCURRENCY × DELAY
/// (15 s), more than the kills can take out of it.
const DELAY: Duration = Duration::from_millis(500);
const CONCURRENCY: &str = "20";
/// Kill moments are drawn from this range after each start.
const MOMENT_MS: std::ops::Range<u64> = 30..700;

/// A small xorshift so the moments differ between runs; the seed is printed to repeat one.
fn moments(seed: u64, n: usize) -> Vec<Duration> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            Duration::from_millis(MOMENT_MS.start + x % (MOMENT_MS.end - MOMENT_MS.start))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_20_random_moments_then_resume_leaves_one_record_per_line() {
    let web = Web::start(SITES, DELAY, 31).await;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("kill moments seed {seed}");
    let mut kills_landed = 0;
    let started = Instant::now();
    for moment in moments(seed, KILLS) {
        let resume = read_store(&web.store()).is_some();
        let mut extra = vec!["--concurrency", CONCURRENCY];
        if resume {
            extra.push("--resume");
        }
        let mut child = spawn_crawler(&web.crawl_args(&extra), &ChildOptions::default());
        tokio::time::sleep(moment).await;
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills_landed += 1;
        }
        let (code, stderr) = wait(child, Duration::from_secs(60)).await;
        assert!(
            code.is_none() || code == Some(0),
            "the crawler failed before its kill: {code:?}\n{stderr}"
        );
    }
    assert_eq!(
        kills_landed, KILLS,
        "the run ended before every kill landed"
    );
    let (_, before) = read_store(&web.store()).expect("a run in the store");
    assert!(
        before.len() < SITES as usize,
        "the kills should have left work to do"
    );
    let child = spawn_crawler(
        &web.crawl_args(&["--concurrency", CONCURRENCY, "--resume"]),
        &ChildOptions::default(),
    );
    let (code, stderr) = wait(child, Duration::from_secs(300)).await;
    assert_eq!(code, Some(0), "{stderr}");
    let (manifest, records) = read_store(&web.store()).unwrap();
    assert_eq!(manifest.status, mcpcensus_store::RunStatus::Complete);
    assert_eq!(manifest.counts["records_written"], SITES as u64);
    assert_one_true_record_per_line(&web, &records);
    eprintln!(
        "{KILLS} kills, {} records before the last resume, {} in all, {:.1} s",
        before.len(),
        records.len(),
        started.elapsed().as_secs_f64()
    );
}
