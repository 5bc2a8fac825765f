//! SIGKILL at random moments of one run, resuming each time: at the end every input line has
//! exactly one record and every verdict is what an uninterrupted run gives.

use std::time::{Duration, Instant};

use mcpcensus_store::clickhouse::Connection;
use mcpcensus_store::Record;

use super::fixture::{assert_one_true_record_per_line, read_store, Web};
use crate::child::{spawn_crawler, wait, ChildOptions};
use crate::util::counts;

pub const SITES: u32 = 600;
const KILLS: usize = 20;
/// Every home page waits this long, so the run needs at least SITES / CONCURRENCY × DELAY
/// (15 s), more than the kills can take out of it.
pub const DELAY: Duration = Duration::from_millis(500);
const CONCURRENCY: &str = "20";
/// A kill lands once the store holds up to this many more records (0: during start-up or
/// the resume pass)...
const MORE_RECORDS: u64 = 26;
/// ... and then up to this long later.
const EXTRA_MS: u64 = 300;

/// A small xorshift so the moments differ between runs; the seed is printed to repeat one.
struct Moments(u64);

impl Moments {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// Where the run's records go.
pub enum Sinks {
    Store,
    /// ClickHouse alone (the store keeps only the manifest), or with the store too (`tee`).
    ClickHouse {
        conn: Connection,
        tee: bool,
    },
}

impl Sinks {
    /// The crawl's arguments: with ClickHouse alone, the store's folder comes from a config
    /// file (an explicit --out would make the records go there too).
    pub(super) fn crawl_args(&self, web: &Web, extra: &[&str]) -> Vec<String> {
        let mut args = web.crawl_args(extra);
        if let Sinks::ClickHouse { conn, tee } = self {
            args.extend([
                "--clickhouse".to_owned(),
                conn.target.url.clone(),
                "--database".to_owned(),
                conn.target.database.clone(),
            ]);
            if !tee {
                let at = args.iter().position(|a| a == "--out").unwrap();
                args.drain(at..at + 2);
                let config = web.dir.path().join("store-only.toml");
                let store = web.store().display().to_string();
                std::fs::write(&config, format!("[crawl]\nout = {store:?}\n")).unwrap();
                args.extend(["--config".to_owned(), config.display().to_string()]);
            }
        }
        args
    }

    /// Records the run has so far (ClickHouse: rows, before collapsing).
    pub(super) async fn records_now(&self, web: &Web) -> u64 {
        match self {
            Sinks::Store => read_store(&web.store()).map_or(0, |(_, r)| r.len() as u64),
            Sinks::ClickHouse { conn, .. } => conn
                .client
                .query("SELECT count() FROM sites")
                .fetch_one::<u64>()
                .await
                .unwrap_or(0),
        }
    }

    /// The run's records at the end: ClickHouse's (read with FINAL, checked against the
    /// raw rows and, with the store too, against the store's records).
    pub(super) async fn final_records(
        &self,
        web: &Web,
        run_id: &str,
        store: Vec<Record>,
    ) -> Vec<Record> {
        let Sinks::ClickHouse { conn, tee } = self else {
            return store;
        };
        let json: Vec<String> = conn
            .client
            .query("SELECT record_json FROM sites FINAL WHERE run_id = ?")
            .bind(run_id)
            .fetch_all()
            .await
            .unwrap();
        let records: Vec<Record> = json
            .iter()
            .map(|j| serde_json::from_str(j).unwrap())
            .collect();
        let (raw, keys): (u64, u64) = conn
            .client
            .query("SELECT count(), uniqExact(site_key) FROM sites WHERE run_id = ?")
            .bind(run_id)
            .fetch_one()
            .await
            .unwrap();
        eprintln!(
            "ClickHouse: {} rows read with FINAL, {raw} raw rows, {keys} site keys",
            records.len()
        );
        assert_eq!(keys, web.sites.len() as u64, "one site key per input line");
        if *tee {
            assert_one_true_record_per_line(web, &store);
        } else {
            assert!(
                store.is_empty(),
                "ClickHouse alone: the store holds no records"
            );
        }
        records
    }
}

/// Runs the crawler and kills it at a random moment; the records in the store afterwards.
async fn run_and_kill(web: &Web, sinks: &Sinks, moments: &mut Moments, extra: &[&str]) -> u64 {
    let mut args = vec!["--concurrency", CONCURRENCY];
    if read_store(&web.store()).is_some() {
        args.push("--resume");
    }
    args.extend(extra);
    let target = sinks.records_now(web).await + moments.next(MORE_RECORDS);
    let mut child = spawn_crawler(&sinks.crawl_args(web, &args), &ChildOptions::default());
    let deadline = Instant::now() + Duration::from_secs(60);
    while sinks.records_now(web).await < target && child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "no progress in 60 s");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(moments.next(EXTRA_MS))).await;
    let landed = child.try_wait().unwrap().is_none();
    if landed {
        child.kill().unwrap();
    }
    let (code, stderr) = wait(child, Duration::from_secs(60)).await;
    assert!(
        landed && code.is_none(),
        "the crawler ended by itself before its kill: {code:?}\n{stderr}"
    );
    sinks.records_now(web).await
}

/// Kills one run `kills` times, then resumes it to the end and checks every line's record.
pub async fn kill_and_resume(web: &Web, sinks: &Sinks, kills: usize, extra: &[&str]) {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    let mut moments = Moments(seed | 1);
    let started = Instant::now();
    let mut progress = Vec::new();
    for _ in 0..kills {
        progress.push(run_and_kill(web, sinks, &mut moments, extra).await);
    }
    let before = *progress.last().unwrap();
    assert!(
        before > 0 && before < web.sites.len() as u64,
        "the kills should land mid-run: records after each kill {progress:?}"
    );
    let mut args = vec!["--concurrency", "60", "--resume"];
    args.extend(extra);
    let child = spawn_crawler(&sinks.crawl_args(web, &args), &ChildOptions::default());
    let (code, stderr) = wait(child, Duration::from_secs(300)).await;
    assert_eq!(code, Some(0), "{stderr}");
    let (manifest, records) = read_store(&web.store()).unwrap();
    let records = sinks.final_records(web, &manifest.run_id, records).await;
    assert_eq!(manifest.status, mcpcensus_store::RunStatus::Complete);
    assert_eq!(counts(&manifest).records_written, web.sites.len() as u64);
    assert_one_true_record_per_line(web, &records);
    eprintln!(
        "seed {seed}: {kills} kills, records after each {progress:?}, {} in all, {:.1} s",
        records.len(),
        started.elapsed().as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_20_random_moments_then_resume_leaves_one_record_per_line() {
    let web = Web::start(SITES, DELAY, 31).await;
    kill_and_resume(&web, &Sinks::Store, KILLS, &[]).await;
}
