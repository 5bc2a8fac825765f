//! Waits that are not the server's: our own queues never spend a site's deadline or hold a
//! place among the sites scanned at once, and a pause longer than the time left ends the site.

use std::time::Duration;

use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::Outcome;

use crate::util::{record_for, WebCrawl};

fn home() -> Reply {
    Reply::html("<!doctype html><title>home</title>")
}

/// When the web first saw a request for `host`.
fn first_request(web: &SimWeb, host: &str) -> Duration {
    let requests = web.requests(host);
    let first = requests
        .first()
        .unwrap_or_else(|| panic!("{host}: no request"));
    first.at.duration_since(web.started_at())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sites_waiting_their_turn_on_a_shared_address_keep_their_deadline_and_no_place() {
    // Three sites share one address (one site at a time there) and the host rate spaces each
    // site's twelve requests over 5.5 s, longer than the 2 s deadline: all of it is our own
    // queueing, none of it the server's. A fourth site on its own address comes last in the
    // list, with two places for the whole crawl.
    let shared = ["shared0.test", "shared1.test", "shared2.test"];
    let mut builder = SimWeb::builder();
    for name in shared {
        builder = builder.site(Site::new(name).ip([127, 0, 0, 9]).route("/", home()));
    }
    let web = builder
        .site(Site::new("own.test").ip([127, 0, 0, 10]).route("/", home()))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs: Vec<String> = shared
        .iter()
        .chain(&["own.test"])
        .map(|h| web.input(h))
        .collect();
    let flags = [
        "--site-deadline",
        "2",
        "--per-ip-connections",
        "1",
        "--per-ip-rps",
        "1000",
        "--per-host-rps",
        "2",
        "--per-host-burst",
        "1",
        "--concurrency",
        "2",
    ];
    let (_, _, records) = crawl.run(&web, &inputs, true, &flags).await;
    assert_eq!(records.len(), 4);
    for name in shared.iter().chain(&["own.test"]) {
        let r = record_for(&records, &web.origin(name));
        assert_eq!(
            r.outcome,
            Outcome::OutOfScope,
            "{name}: {}",
            r.outcome_reason
        );
        // robots.txt and the eleven discovery GETs (the MCP check's seven, the four API and
        // agent surface documents), every one answered.
        assert_eq!(r.requests.len(), 12, "{name}");
        assert!(r.requests.iter().all(|q| q.status.is_some()), "{name}");
        assert_eq!(web.requests(name).len(), 12, "{name}");
    }
    // The sites waiting their turn gave up their places: the last site started at once,
    // not after the first shared site to get the address had finished.
    let own = first_request(&web, "own.test");
    let mut starts: Vec<Duration> = shared.iter().map(|h| first_request(&web, h)).collect();
    starts.sort();
    assert!(
        own < starts[1],
        "own.test started at {own:?}, after the second shared site ({:?})",
        starts[1]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_after_beyond_the_deadline_ends_the_site_at_once() {
    let web = SimWeb::builder()
        .site(Site::new("busy.test").default(Reply::status(429).header("retry-after", "120")))
        .site(Site::new("down.test").default(Reply::status(503).header("retry-after", "45")))
        .site(
            Site::new("brief.test")
                .route("/robots.txt", Reply::status(429).header("retry-after", "1")),
        )
        .site(Site::new("relentless.test").default(Reply::status(429)))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs: Vec<String> = ["busy.test", "down.test", "brief.test", "relentless.test"]
        .iter()
        .map(|h| web.input(h))
        .collect();
    let started = std::time::Instant::now();
    let (_, _, records) = crawl
        .run(&web, &inputs, true, &["--site-deadline", "30"])
        .await;
    let took = started.elapsed();
    for (name, reason) in [
        ("busy.test", "not measured: 429, retry after 120 s"),
        ("down.test", "not measured: 503, retry after 45 s"),
    ] {
        let r = record_for(&records, &web.origin(name));
        assert_eq!(
            (r.outcome, r.outcome_reason.as_str()),
            (Outcome::NotMeasured, reason),
            "{name}"
        );
        // The first answer (robots.txt) asked for the pause: nothing more was sent.
        assert_eq!(r.requests.len(), 1, "{name}");
        assert_eq!(web.requests(name).len(), 1, "{name}");
        assert!(
            r.timings.total_ms < 10_000,
            "{name}: {} ms",
            r.timings.total_ms
        );
    }
    // A pause that fits in the time left is waited out, and the scan goes on.
    let brief = record_for(&records, &web.origin("brief.test"));
    assert_eq!(
        brief.outcome,
        Outcome::OutOfScope,
        "{}",
        brief.outcome_reason
    );
    // robots.txt and the eleven discovery GETs.
    assert_eq!(brief.requests.len(), 12);
    assert!(
        brief.timings.total_ms >= 1_000,
        "{} ms",
        brief.timings.total_ms
    );
    // A host that asks again after the pause it asked for (5 s without Retry-After) is left
    // alone: two requests, not one every 5 s to the deadline.
    let relentless = record_for(&records, &web.origin("relentless.test"));
    assert_eq!(
        (relentless.outcome, relentless.outcome_reason.as_str()),
        (
            Outcome::NotMeasured,
            "not measured: 429 again after the pause it asked for"
        )
    );
    assert_eq!(relentless.requests.len(), 2);
    assert_eq!(web.requests("relentless.test").len(), 2);
    assert!(
        (4_900..20_000).contains(&relentless.timings.total_ms),
        "{} ms",
        relentless.timings.total_ms
    );
    assert!(took < Duration::from_secs(29), "the run took {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pause_the_host_asked_for_is_the_servers_time() {
    // A 429 without Retry-After pauses the host 5 s before each request: the server's doing,
    // so it spends the site's 3 s like any slow answer.
    let web = SimWeb::builder()
        .site(Site::new("slowing.test").default(Reply::status(429)))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs = vec![web.input("slowing.test")];
    let (_, _, records) = crawl
        .run(&web, &inputs, true, &["--site-deadline", "3"])
        .await;
    let r = record_for(&records, &web.origin("slowing.test"));
    assert_eq!(r.outcome, Outcome::NotMeasured);
    assert!(
        r.outcome_reason.contains("site deadline (3 s)"),
        "{}",
        r.outcome_reason
    );
    assert!(
        (2900..8000).contains(&r.timings.total_ms),
        "{} ms",
        r.timings.total_ms
    );
}
