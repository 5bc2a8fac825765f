//! The registry census against a stand-in registry of some 320 entries of every kind
//! (`mcpcensus_simweb::registry_standin`), crawled with `registry:*`, with and without
//! `--probe deep`: every count of the report's `run.registry` equals the stand-in's truth,
//! computed from its list; ClickHouse gives the same section; no template URL is requested;
//! each endpoint URL gets one probe per look, however many entries name it.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Duration;

use mcpcensus_simweb::registry_standin::{Kind, Standin};
use mcpcensus_simweb::{RecordedRequest, SimWeb};
use mcpcensus_store::clickhouse::{connect, Target};
use serde_json::Value;

use super::registry::crawl_code;
use super::registry_all::report_json;
use crate::util::{mcpcensus, test_server_url, unique_db};

/// A recovering server comes back at the first request this long after the one before it;
/// a look's requests come closer than that, and the second look comes a second later.
const GAP: Duration = Duration::from_millis(700);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_standin_registry_is_counted_as_its_truth_says() {
    census_of_the_standin(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_standin_registry_is_counted_as_its_truth_says_with_the_deep_probe() {
    census_of_the_standin(true).await;
}

async fn census_of_the_standin(deep: bool) {
    let standin = Standin::new();
    let web = SimWeb::builder()
        .sites(standin.sites("registry.test", GAP))
        .start()
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let registry = web.origin("registry.test");
    let mut extra = vec![
        "--registry",
        &registry,
        "--second-look-delay",
        "1s",
        // Every site is on 127.0.0.1: the per-address limits would pace the whole web.
        "--per-ip-rps",
        "1000",
        "--per-ip-connections",
        "64",
    ];
    if deep {
        extra.extend(["--probe", "deep"]);
    }
    let lines = ["registry:*".to_owned()];
    let (code, records) = crawl_code(&web, dir.path(), &lines, &extra).await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(records.len(), standin.entries.len());

    let store = dir.path().join("store");
    let report = report_json(dir.path(), &["--from", store.to_str().unwrap()]).await;
    let section = &report["run"]["registry"];
    let truth = standin.truth(web.port()).to_json();
    println!("the stand-in's truth (deep: {deep}): {truth}");
    for (key, want) in truth.as_object().unwrap() {
        match want {
            Value::Object(classes) => {
                for (class, n) in classes {
                    assert_eq!(section[key][class], *n, "{key}.{class} (deep: {deep})");
                }
            }
            _ => assert_eq!(section[key], *want, "{key} (deep: {deep})"),
        }
    }
    if let Some(url) = test_server_url() {
        let from_ch = clickhouse_report(dir.path(), &store, &url).await;
        assert_eq!(
            from_ch["run"]["registry"], *section,
            "ClickHouse (deep: {deep})"
        );
    }

    let entries = standin.entries.len() as f64;
    let total = web.total_requests();
    let listing = web.request_count("registry.test");
    println!(
        "stand-in registry (deep: {deep}): {} entries, {total} requests ({listing} to the \
         registry): {:.2} requests per entry, {:.2} without the listing",
        standin.entries.len(),
        total as f64 / entries,
        (total - listing) as f64 / entries,
    );
    requests_as_the_list_says(&standin, &web);
}

/// The store loaded into a database of its own, reported from there.
async fn clickhouse_report(dir: &std::path::Path, store: &std::path::Path, url: &str) -> Value {
    let db = unique_db("standin");
    let load = [
        "load",
        store.to_str().unwrap(),
        "--clickhouse",
        url,
        "--database",
        &db,
    ];
    assert_eq!(mcpcensus(&load).await.unwrap(), ExitCode::SUCCESS);
    let report = report_json(dir, &["--clickhouse", url, "--database", &db]).await;
    let conn = connect(&Target::new(url, &db)).await.unwrap();
    let sql = format!("DROP DATABASE IF EXISTS {db}");
    conn.server.query(&sql).execute().await.unwrap();
    report
}

/// Endpoints (host, entries naming it) by the handshakes they got.
type ByCount = BTreeMap<u64, Vec<(String, usize)>>;

/// What the web saw: nothing asked of a template's host, an older version's or anywhere with
/// braces in the path; each requested endpoint asked in as many bursts as its kind has looks
/// (a host asked to slow down aside: its pauses blur them), with as many handshakes as any
/// other endpoint of its kind, however many entries name it: one probe per URL per look.
fn requests_as_the_list_says(standin: &Standin, web: &SimWeb) {
    let all = web.all_requests();
    let braces: Vec<&RecordedRequest> = all
        .iter()
        .filter(|q| q.path.contains('{') || q.path.to_ascii_lowercase().contains("%7b"))
        .collect();
    assert!(braces.is_empty(), "a template requested: {braces:?}");
    for &(_, endpoint) in &standin.older {
        let host = standin.endpoints[endpoint].host().unwrap();
        assert_eq!(web.request_count(host), 0, "an older version's {host}");
    }
    // Handshakes an endpoint got, by kind: one value per kind, whatever the fan-out.
    let mut handshakes: BTreeMap<&str, ByCount> = BTreeMap::new();
    for (endpoint, named) in standin.named() {
        let Some(host) = endpoint.host() else {
            continue;
        };
        let kind = endpoint.kind;
        let log = web.requests(host);
        if kind.looks() == 0 {
            assert!(log.is_empty(), "{kind:?} {host} requested: {log:?}");
            continue;
        }
        let timeline: Vec<(u64, &str, &str)> = log
            .iter()
            .map(|q| (q.ms, q.method.as_str(), q.path.as_str()))
            .collect();
        let n = log.iter().filter(|q| is_handshake(q)).count() as u64;
        if kind.asks_to_slow_down() {
            // Its looks run into each other: the two make the same requests.
            assert_eq!(n % kind.looks(), 0, "{kind:?} {host}: {timeline:?}");
        } else {
            let bursts = bursts(&log);
            assert_eq!(bursts, kind.looks(), "{kind:?} {host}: looks: {timeline:?}");
        }
        assert!(n >= kind.looks(), "{kind:?} {host}: {n} handshakes");
        handshakes
            .entry(kind.slug())
            .or_default()
            .entry(n)
            .or_default()
            .push((host.to_owned(), named));
    }
    for (kind, counts) in &handshakes {
        assert_eq!(
            counts.len(),
            1,
            "{kind}: handshakes by endpoint: {counts:?}"
        );
    }
    let shared = standin.named().iter().map(|(_, n)| *n).max().unwrap();
    let live = &handshakes[Kind::Live.slug()];
    assert!(live.values().flatten().any(|(_, n)| *n == shared));
    let per_kind: Vec<(&str, u64)> = handshakes
        .iter()
        .map(|(k, c)| (*k, *c.keys().next().unwrap()))
        .collect();
    println!("handshakes per endpoint URL, by kind: {per_kind:?}");
}

/// An `initialize` or `server/discover` POST: the opening of a probe (a 2026-07-28-only
/// server is opened with the latter).
fn is_handshake(q: &RecordedRequest) -> bool {
    let method = q
        .json()
        .and_then(|v| v.get("method")?.as_str().map(str::to_owned));
    q.method == "POST" && matches!(method.as_deref(), Some("initialize" | "server/discover"))
}

/// The runs of requests separated by at least [`GAP`]: the looks the endpoint got.
fn bursts(log: &[RecordedRequest]) -> u64 {
    let mut at: Vec<_> = log.iter().map(|q| q.at).collect();
    at.sort();
    if at.is_empty() {
        return 0;
    }
    at.windows(2).filter(|w| w[1] - w[0] >= GAP).count() as u64 + 1
}
