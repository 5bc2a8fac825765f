//! `crawl --metrics`: scraped during a crawl and once more at its end, the outcome counters
//! add up to the records written and equal the store's counts per outcome.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::unattended::fixture::{read_store, Web};
use crate::util::mcpcensus;

/// One GET of /metrics: the body, or `None` while nothing answers.
async fn scrape(addr: &str) -> Option<String> {
    let get = async {
        let mut s = tokio::net::TcpStream::connect(addr).await.ok()?;
        s.write_all(b"GET /metrics HTTP/1.1\r\nHost: metrics\r\nConnection: close\r\n\r\n")
            .await
            .ok()?;
        let mut text = String::new();
        s.read_to_string(&mut text).await.ok()?;
        let (head, body) = text.split_once("\r\n\r\n")?;
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        Some(body.to_owned())
    };
    tokio::time::timeout(Duration::from_secs(30), get)
        .await
        .ok()
        .flatten()
}

/// `name{labels} value` lines of one metric, by their label text.
fn samples(text: &str, name: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (key, value) = l.rsplit_once(' ')?;
            let (metric, labels) = match key.split_once('{') {
                Some((m, rest)) => (m, rest.trim_end_matches('}')),
                None => (key, ""),
            };
            if metric != name {
                return None;
            }
            Some((labels.to_owned(), value.parse().ok()?))
        })
        .collect()
}

fn value(text: &str, name: &str) -> f64 {
    samples(text, name).get("").copied().unwrap_or(-1.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_scraped_during_a_crawl_add_up_to_the_records_written() {
    // Slow home pages and few slots: the crawl lasts several seconds.
    let web = Web::start(40, Duration::from_millis(300), 43).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let args = web.crawl_args(&[
        "--concurrency",
        "4",
        "--metrics",
        &addr,
        "--metrics-linger",
        "120s",
    ]);
    let crawl = tokio::spawn(async move {
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        mcpcensus(&argv).await.unwrap()
    });

    // Mid-run: the endpoint answers while sites are still to do.
    let started = Instant::now();
    let mid = loop {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no mid-run scrape"
        );
        if let Some(text) = scrape(&addr).await {
            let done: f64 = samples(&text, "mcpcensus_sites_total").values().sum();
            if value(&text, "mcpcensus_run_finished") == 0.0 && done > 0.0 {
                break text;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mid_done: f64 = samples(&mid, "mcpcensus_sites_total").values().sum();
    assert!(mid_done < 40.0, "the crawl was over already: {mid}");
    assert!(value(&mid, "mcpcensus_admission_limit") >= 1.0, "{mid}");
    assert!(
        mid.contains("mcpcensus_site_duration_seconds_bucket"),
        "{mid}"
    );

    // The end: the crawl lingers until its final values are scraped once.
    let last = loop {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no final scrape"
        );
        if let Some(text) = scrape(&addr).await {
            if value(&text, "mcpcensus_run_finished") == 1.0 {
                break text;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let code = tokio::time::timeout(Duration::from_secs(60), crawl)
        .await
        .expect("the crawl did not exit after the final scrape")
        .unwrap();
    assert_eq!(code, std::process::ExitCode::SUCCESS);

    let (manifest, records) = read_store(&web.store()).unwrap();
    let by_outcome = samples(&last, "mcpcensus_sites_total");
    let total: f64 = by_outcome.values().sum();
    assert_eq!(total as usize, records.len(), "{last}");
    assert_eq!(records.len(), web.sites.len());
    let mut store_counts = BTreeMap::new();
    for r in &records {
        *store_counts
            .entry(format!("outcome=\"{}\"", r.outcome.as_str()))
            .or_insert(0.0) += 1.0;
    }
    assert_eq!(by_outcome, store_counts, "{last}");
    assert_eq!(crate::util::counts(&manifest).records_written, total as u64);
    assert_eq!(
        value(&last, "mcpcensus_site_duration_seconds_count") as usize,
        records.len()
    );
    assert_eq!(value(&last, "mcpcensus_sites_in_flight"), 0.0, "{last}");
    // No label names a host or a URL.
    assert!(!last.contains(".test"), "{last}");
}

/// An address that cannot be bound stops the crawl before any run is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_metrics_address_in_use_is_a_startup_error() {
    let web = Web::start(2, Duration::ZERO, 46).await;
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let args = web.crawl_args(&["--metrics", &addr]);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let e = mcpcensus(&argv).await.unwrap_err();
    assert!(
        format!("{e:#}").contains(&format!("--metrics: cannot listen on {addr}")),
        "{e:#}"
    );
    let runs = mcpcensus_store::Store::open(web.store())
        .map(|s| s.runs().unwrap().len())
        .unwrap_or(0);
    assert_eq!(runs, 0);
}
