//! The waiting room is fair per address: one address's backlog never holds back sites on
//! others. Asserted by what happened, not by timing: the shared address serves no site until
//! every site on the other addresses is done, so a crawl that made those wait behind its
//! backlog would never end (the timeout is only the failure's form).

use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpcensus_store::{Outcome, Record};
use tokio::sync::{watch, Semaphore};

use super::progress::Counters;
use super::room::{ADDRESS_SHARES, WAITING_ROOM};
use super::tests::{job, list};
use super::*;
use crate::scan::Scanned;

/// The shared address (a hosting platform).
const SHARED: IpAddr = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
/// More sites on it than the whole waiting room holds.
const ON_SHARED: usize = WAITING_ROOM + WAITING_ROOM / 2;
/// Sites on addresses of their own, listed after all of those.
const ON_OTHERS: usize = 100;
/// Ample for ~1,600 sites that do no I/O, even on a busy machine.
const ENOUGH: Duration = Duration::from_secs(120);

/// Takes turns per address as the real scan does (one site at a time on each, the turn
/// waited for outside the place); a site on the shared address, once it has its turn, waits
/// until every site on the other addresses is done.
struct TurnScanner {
    turns: Mutex<HashMap<IpAddr, Arc<Semaphore>>>,
    others_done: AtomicUsize,
    /// Opened when every site on the other addresses is done.
    gate: watch::Sender<bool>,
    /// Set with the gate: stop the run instead (the held sites must still get a record).
    stop_at_gate: Option<Shutdown>,
    /// Sites of the shared address waiting their turn now, and the most at once.
    waiting: AtomicUsize,
    peak_waiting: AtomicUsize,
}

impl TurnScanner {
    fn new(stop_at_gate: Option<Shutdown>) -> TurnScanner {
        TurnScanner {
            turns: Mutex::default(),
            others_done: AtomicUsize::new(0),
            gate: watch::channel(false).0,
            stop_at_gate,
            waiting: AtomicUsize::new(0),
            peak_waiting: AtomicUsize::new(0),
        }
    }

    fn turn(&self, ip: IpAddr) -> Arc<Semaphore> {
        let mut turns = self.turns.lock().unwrap();
        turns
            .entry(ip)
            .or_insert_with(|| Arc::new(Semaphore::new(1)))
            .clone()
    }
}

fn address(job: &SiteJob) -> IpAddr {
    match job.input.strip_prefix("other") {
        Some(n) => {
            let n: u16 = n.trim_end_matches(".test").parse().unwrap();
            IpAddr::V4(Ipv4Addr::new(10, 1, (n >> 8) as u8, n as u8))
        }
        None => SHARED,
    }
}

impl Scanner for TurnScanner {
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        seat: Arc<dyn Seat>,
    ) -> ScanFuture<'a> {
        Box::pin(async move {
            let ip = address(job);
            let turn = self.turn(ip);
            let _permit = match turn.clone().try_acquire_owned() {
                Ok(p) => p,
                Err(_) => {
                    if !seat.leave(ip) {
                        return Scanned::Held(ip);
                    }
                    let now = self.waiting.fetch_add(1, Ordering::SeqCst) + 1;
                    self.peak_waiting.fetch_max(now, Ordering::SeqCst);
                    let p = turn.acquire_owned().await.unwrap();
                    self.waiting.fetch_sub(1, Ordering::SeqCst);
                    seat.back().await;
                    p
                }
            };
            if ip == SHARED {
                let mut gate = self.gate.subscribe();
                gate.wait_for(|open| *open).await.unwrap();
            } else if self.others_done.fetch_add(1, Ordering::SeqCst) + 1 == ON_OTHERS {
                match &self.stop_at_gate {
                    Some(shutdown) => shutdown.stop.cancel(),
                    None => {
                        self.gate.send_replace(true);
                    }
                }
            }
            job.record(
                run_id,
                crate::verdict::Verdict::of(Outcome::Pass, "measured"),
            )
            .into()
        })
    }
}

fn names() -> Vec<String> {
    let shared = (0..ON_SHARED).map(|i| format!("shared{i}.test"));
    let others = (0..ON_OTHERS).map(|i| format!("other{i}.test"));
    shared.chain(others).collect()
}

/// Crawls the list with `scanner`; the records and the run's counters.
async fn run(scanner: Arc<TurnScanner>, shutdown: Shutdown) -> (Vec<Record>, Arc<Counters>) {
    let dir = tempfile::tempdir().unwrap();
    let names = names();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let mut crawl_job = job(list(dir.path(), &refs), Some(scanner), sink);
    crawl_job.concurrency = 64;
    let counters = Arc::new(Counters::for_reader(&crawl_job.reader));
    crawl_job.counters = Some(counters.clone());
    let crawled = tokio::time::timeout(ENOUGH, crawl(crawl_job, shutdown)).await;
    assert!(
        crawled.is_ok(),
        "the sites on other addresses waited behind the shared address's backlog"
    );
    crawled.unwrap().unwrap();
    let records = out.lock().unwrap().clone();
    (records, counters)
}

fn assert_one_record_a_line(records: &[Record]) {
    let lines: HashSet<u64> = records.iter().map(|r| r.input_line).collect();
    assert_eq!(lines.len(), records.len(), "a line has two records");
    assert_eq!(records.len(), ON_SHARED + ON_OTHERS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sites_on_other_addresses_do_not_wait_behind_one_address_backlog() {
    let scanner = Arc::new(TurnScanner::new(None));
    let (records, counters) = run(scanner.clone(), Shutdown::default()).await;
    assert_one_record_a_line(&records);
    assert!(records.iter().all(|r| r.outcome == Outcome::Pass));
    // The shared address kept its share of the room, no more; the rest were held as jobs.
    let share = WAITING_ROOM / ADDRESS_SHARES;
    let peak = scanner.peak_waiting.load(Ordering::SeqCst);
    assert!(
        peak <= share,
        "{peak} waited at once, over the share {share}"
    );
    // Most were held (not all need be: one still on its way to its turn when the backlog
    // starts to move may find room).
    let holds = counters.address_holds.load(Ordering::Relaxed) as usize;
    assert!(holds >= ON_SHARED / 2, "only {holds} holds");
    assert_eq!(counters.held_for_address.load(Ordering::Relaxed), 0);
    assert_eq!(counters.waiting_turn.load(Ordering::Relaxed), 0);
    assert_eq!(counters.in_flight.load(Ordering::Relaxed), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_stopped_with_sites_held_records_each_of_them_once() {
    let shutdown = Shutdown::default();
    let scanner = Arc::new(TurnScanner::new(Some(shutdown.clone())));
    let (records, counters) = run(scanner, shutdown).await;
    assert_one_record_a_line(&records);
    for r in &records {
        let want = if r.input.starts_with("other") {
            Outcome::Pass
        } else {
            Outcome::NotStarted
        };
        assert_eq!(r.outcome, want, "{}: {}", r.input, r.outcome_reason);
    }
    assert!(counters.address_holds.load(Ordering::Relaxed) > 0);
    assert_eq!(counters.held_for_address.load(Ordering::Relaxed), 0);
}
