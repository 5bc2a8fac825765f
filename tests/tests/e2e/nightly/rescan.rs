//! `crawl --rescan-older-than`: exactly the stale sites of the store plus the new sites of the
//! lists are scanned, with the embedded store and with ClickHouse.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use mcpcensus_store::{now_ms, Outcome, Record, RunManifest, Store};

use crate::unattended::fixture::Web;
use crate::util::{counts, mcpcensus, test_server_url, unique_db};

const DAY_MS: u64 = 24 * 3600 * 1000;
/// Sorts before the ids of new runs (the store lists runs by id).
const OLD_RUN: &str = "20000101T000000Z-old";

/// The fixture's sites split: `stale` in the old run 30 days ago, `fresh` an hour ago (both
/// in the list), `new` only in the list, `gone` only in the old run (stale, not listed).
struct Split {
    old: Vec<Record>,
    list: Vec<String>,
    expected: BTreeSet<String>,
    stale: u64,
    new: u64,
    fresh: u64,
}

fn split(web: &Web) -> Split {
    let now = now_ms();
    let origin = |i: usize| format!("https://{}", web.sites[i].0);
    let record = |i: usize, at: u64, line: u64| {
        let mut r = Record::new(OLD_RUN, at, &web.sites[i].0, line, Outcome::Fail, "old");
        r.origin = Some(origin(i));
        r
    };
    let mut old = Vec::new();
    let (mut list, mut expected) = (Vec::new(), BTreeSet::new());
    let (mut stale, mut new, mut fresh) = (0, 0, 0);
    for i in 0..web.sites.len() {
        let line = i as u64 + 1;
        match i % 4 {
            0 => {
                old.push(record(i, now - 30 * DAY_MS, line));
                list.push(web.sites[i].0.clone());
                expected.insert(origin(i));
                stale += 1;
            }
            1 => {
                old.push(record(i, now - 3600 * 1000, line));
                // An older record of the same site does not make it stale: the last one counts.
                old.push(record(i, now - 40 * DAY_MS, line));
                list.push(web.sites[i].0.clone());
                fresh += 1;
            }
            2 => {
                // Only ever a placeholder: a placeholder is no scan, so the site is new.
                let mut placeholder = record(i, now - 30 * DAY_MS, line);
                placeholder.outcome = Outcome::NotStarted;
                old.push(placeholder);
                list.push(web.sites[i].0.clone());
                expected.insert(origin(i));
                new += 1;
            }
            _ => {
                old.push(record(i, now - 9 * DAY_MS, line));
                expected.insert(origin(i));
                stale += 1;
            }
        }
    }
    Split {
        old,
        list,
        expected,
        stale,
        new,
        fresh,
    }
}

fn write_old_run(store: &Path, records: &[Record]) {
    let store = Store::open(store).unwrap();
    let manifest = RunManifest::new(
        OLD_RUN,
        now_ms() - 40 * DAY_MS,
        vec![],
        serde_json::json!({}),
        false,
    );
    let mut w = store.create_run(&manifest).unwrap();
    for r in records {
        w.append(r).unwrap();
    }
    w.finish().unwrap();
}

fn rescan_args(web: &Web, list: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = web.crawl_args(&["--rescan-older-than", "7d"]);
    args[1] = list.to_str().unwrap().to_owned();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

async fn run(args: &[String]) {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let code = tokio::time::timeout(Duration::from_secs(300), mcpcensus(&argv))
        .await
        .expect("the re-scan did not end in time")
        .unwrap();
    assert_eq!(code, std::process::ExitCode::SUCCESS);
}

/// The newest run: its manifest and the origins it scanned.
fn newest(store: &Path) -> (RunManifest, BTreeSet<String>) {
    let store = Store::open(store).unwrap();
    let m = store.latest_run().unwrap().unwrap();
    let records: Vec<Record> = store
        .read_run(&m.run_id)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let origins: BTreeSet<String> = records.iter().filter_map(|r| r.origin.clone()).collect();
    assert_eq!(origins.len(), records.len(), "one record per site");
    assert!(records.iter().all(|r| r.outcome != Outcome::NotStarted));
    (m, origins)
}

fn assert_counts(m: &RunManifest, s: &Split) {
    assert_eq!(counts(m).rescan_stale, s.stale, "{:?}", m.counts);
    assert_eq!(counts(m).rescan_new, s.new, "{:?}", m.counts);
    assert_eq!(counts(m).rescan_fresh_skipped, s.fresh, "{:?}", m.counts);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rescan_scans_exactly_the_stale_sites_and_the_new_ones() {
    let web = Web::start(24, Duration::ZERO, 41).await;
    let s = split(&web);
    write_old_run(&web.store(), &s.old);
    let list = web.dir.path().join("nightly.txt");
    std::fs::write(&list, s.list.join("\n")).unwrap();
    run(&rescan_args(&web, &list, &["--label", "nightly"])).await;

    let (m, scanned) = newest(&web.store());
    assert_ne!(m.run_id, OLD_RUN);
    assert_eq!(scanned, s.expected);
    assert_counts(&m, &s);
    // The target list is pinned in the run: it is the run's one input.
    let pinned = Store::open(web.store())
        .unwrap()
        .run_dir(&m.run_id)
        .unwrap()
        .join("rescan-targets.txt");
    let selection = m.selection.clone().unwrap();
    assert_eq!(
        selection["inputs"][0]["path"],
        std::fs::canonicalize(&pinned).unwrap().to_str().unwrap()
    );
    assert_eq!(selection["rescan"]["store"], "embedded");

    // Right after, every site is fresh and none of the list is new.
    run(&rescan_args(&web, &list, &[])).await;
    let (m2, scanned) = newest(&web.store());
    assert_ne!(m2.run_id, m.run_id);
    assert!(scanned.is_empty(), "{scanned:?}");
    assert_eq!(counts(&m2).rescan_stale, 0);
    assert_eq!(counts(&m2).rescan_new, 0);
    assert_eq!(counts(&m2).rescan_fresh_skipped, s.list.len() as u64);
}

/// With --clickhouse the last scans come from the sites table (the embedded store, given with
/// --out for the records, holds no old run).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rescan_reads_the_last_scans_from_clickhouse() {
    let Some(url) = test_server_url() else {
        return;
    };
    let web = Web::start(16, Duration::ZERO, 42).await;
    let s = split(&web);
    let db = unique_db("rescan");
    let target = mcpcensus_store::clickhouse::Target::new(&url, &db);
    let conn = mcpcensus_store::clickhouse::connect(&target).await.unwrap();
    mcpcensus_store::clickhouse::init_schema(&conn)
        .await
        .unwrap();
    mcpcensus_store::clickhouse::insert_records(&conn, &s.old, Duration::from_secs(60))
        .await
        .unwrap();
    let list = web.dir.path().join("nightly.txt");
    std::fs::write(&list, s.list.join("\n")).unwrap();
    run(&rescan_args(
        &web,
        &list,
        &["--clickhouse", &url, "--database", &db],
    ))
    .await;

    let (m, scanned) = newest(&web.store());
    assert_eq!(scanned, s.expected);
    assert_counts(&m, &s);
    assert_eq!(m.selection.unwrap()["rescan"]["store"], "clickhouse");
    let _ = conn
        .server
        .query(&format!("DROP DATABASE IF EXISTS {db}"))
        .execute()
        .await;
}

/// A re-scan stopped early and resumed scans its pinned target list: a site that turned stale
/// in the store meanwhile is not added, and every target ends with one record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_rescan_keeps_its_target_list() {
    let web = Web::start(16, Duration::from_millis(800), 45).await;
    let mut s = split(&web);
    // The last site is kept out of the old run for now.
    let late = s.old.pop().unwrap();
    s.expected.remove(late.origin.as_ref().unwrap());
    write_old_run(&web.store(), &s.old);
    let list = web.dir.path().join("nightly.txt");
    std::fs::write(&list, s.list.join("\n")).unwrap();
    let args = rescan_args(&web, &list, &["--concurrency", "2", "--max-duration", "1s"]);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let code = tokio::time::timeout(Duration::from_secs(300), mcpcensus(&argv))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        code,
        std::process::ExitCode::from(3),
        "stopped by --max-duration"
    );

    // Meanwhile another run leaves an old record of one more site.
    let store = Store::open(web.store()).unwrap();
    // Started when its id says (2000-01-02): runs are listed in start order.
    let mut m = RunManifest::new(
        "20000102T000000Z-late",
        946_771_200_000,
        vec![],
        serde_json::json!({}),
        false,
    );
    m.status = mcpcensus_store::RunStatus::Complete;
    let mut late = late;
    late.run_id = m.run_id.clone();
    let mut w = store.create_run(&m).unwrap();
    w.append(&late).unwrap();
    w.finish().unwrap();

    run(&rescan_args(&web, &list, &["--resume"])).await;
    let (m, scanned) = newest(&web.store());
    assert_eq!(m.status, mcpcensus_store::RunStatus::Complete);
    assert_eq!(scanned, s.expected);
    assert!(!scanned.contains(late.origin.as_ref().unwrap()));
}

/// A sharded re-scan scans exactly its shard's part of the stale and new sites (the crawl's
/// own rule: the registrable domain of each site's origin), and counts only those. The
/// fixture's sites share one registrable domain, so one shard of four re-scans them all and
/// another none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sharded_rescan_scans_only_its_own_shard() {
    let web = Web::start(24, Duration::ZERO, 46).await;
    let s = split(&web);
    write_old_run(&web.store(), &s.old);
    let list = web.dir.path().join("nightly.txt");
    std::fs::write(&list, s.list.join("\n")).unwrap();
    let domains: BTreeSet<String> = s
        .expected
        .iter()
        .map(|origin| match mcpcensus::input::normalize(origin) {
            mcpcensus::input::Line::Target(t) => t.registrable_domain,
            line => panic!("{origin} reads as {line:?}"),
        })
        .collect();
    let [domain] = Vec::from_iter(domains).try_into().unwrap();
    let owner = (0..4)
        .map(|index| mcpcensus::input::Shard { index, count: 4 })
        .find(|shard| shard.owns(&domain))
        .unwrap();
    let other = (owner.index + 1) % 4;

    run(&rescan_args(
        &web,
        &list,
        &["--shard", &format!("{other}/4")],
    ))
    .await;
    let (m, scanned) = newest(&web.store());
    assert!(scanned.is_empty(), "{scanned:?}");
    let c = counts(&m);
    assert_eq!(
        (c.rescan_stale, c.rescan_new, c.rescan_fresh_skipped),
        (0, 0, 0)
    );

    run(&rescan_args(&web, &list, &["--shard", &owner.to_string()])).await;
    let (_, scanned) = newest(&web.store());
    assert_eq!(scanned, s.expected);
    // The first shard's run wrote no record, so the owner's counts are the unsharded ones.
    let (m, _) = newest(&web.store());
    assert_counts(&m, &s);
}
