//! The network core end to end: guard, politeness, deadlines, caps and scale, asserted from
//! the simulated web's side.

use std::net::IpAddr;
use std::process::ExitCode;
use std::time::Duration;

use mcpcensus_simweb::{DnsRule, Reply, SimWeb, Site};
use mcpcensus_store::Outcome;

use crate::util::{counts, record_for, WebCrawl};

fn home() -> Reply {
    Reply::html("<!doctype html><title>home</title>")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guard_refuses_loopback_unless_allowed() {
    let web = SimWeb::builder()
        .site(Site::new("local.test").route("/", home()))
        .dns(DnsRule::addrs(
            "mapped.test",
            ["::ffff:127.0.0.1".parse::<IpAddr>().unwrap()],
        ))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs = vec![
        web.input("local.test"),
        format!("mapped.test:{}", web.port()),
    ];
    let (code, _, records) = crawl.run(&web, &inputs, false, &[]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    let local = record_for(&records, &web.origin("local.test"));
    assert_eq!(local.outcome, Outcome::NotMeasured);
    assert!(
        local
            .outcome_reason
            .starts_with("refused by the address guard: 127.0.0.1 is loopback"),
        "{}",
        local.outcome_reason
    );
    assert_eq!(local.addresses, ["127.0.0.1"]);
    assert!(local.requests.is_empty());
    let mapped = record_for(&records, &format!("https://mapped.test:{}", web.port()));
    assert_eq!(mapped.outcome, Outcome::NotMeasured);
    assert!(
        mapped
            .outcome_reason
            .contains("refused by the address guard"),
        "{}",
        mapped.outcome_reason
    );
    assert!(
        mapped.outcome_reason.contains("IPv4-mapped"),
        "{}",
        mapped.outcome_reason
    );
    assert_eq!(
        web.total_requests(),
        0,
        "the guard must refuse before any connection"
    );
    assert_eq!(web.connections(IpAddr::from([127, 0, 0, 1])).accepted, 0);

    // The same site with --allow-net is scanned.
    let (_, _, records) = crawl.run(&web, &inputs[..1], true, &[]).await;
    let local = record_for(&records, &web.origin("local.test"));
    assert_ne!(
        local.outcome,
        Outcome::Unreachable,
        "{}",
        local.outcome_reason
    );
    assert!(
        !local.outcome_reason.contains("guard"),
        "{}",
        local.outcome_reason
    );
    // robots.txt, then the homepage, four card paths, the AI catalog, /mcp and the four API
    // and agent surface documents (API catalog, A2A card, the two OAuth metadata documents).
    assert_eq!(web.request_count("local.test"), 12);
    assert_eq!(local.requests[0].purpose, "robots");
    assert_eq!(local.requests[1].status, Some(200));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dns_failures_are_unreachable_with_their_reason() {
    let web = SimWeb::builder()
        .dns(DnsRule::servfail("broken.test"))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let port = web.port();
    let inputs = vec![
        format!("broken.test:{port}"),
        format!("missing.test:{port}"),
    ];
    let (_, _, records) = crawl.run(&web, &inputs, true, &[]).await;
    let broken = record_for(&records, &format!("https://broken.test:{port}"));
    assert_eq!(broken.outcome, Outcome::Unreachable);
    assert!(
        broken.outcome_reason.contains("SERVFAIL"),
        "{}",
        broken.outcome_reason
    );
    let missing = record_for(&records, &format!("https://missing.test:{port}"));
    assert_eq!(missing.outcome, Outcome::Unreachable);
    assert!(
        missing.outcome_reason.contains("NXDOMAIN"),
        "{}",
        missing.outcome_reason
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_ip_rate_holds_for_sites_sharing_an_address() {
    // 100 sites share 127.0.0.2; 100 others each have their own address.
    let mut builder = SimWeb::builder();
    let mut shared = Vec::new();
    for i in 0..100 {
        let name = format!("shared{i}.test");
        builder = builder.site(Site::new(&name).ip([127, 0, 0, 2]).route("/", home()));
        shared.push(name);
    }
    let mut own = Vec::new();
    for i in 0..100u8 {
        let name = format!("own{i}.test");
        builder = builder.site(Site::new(&name).ip([127, 0, 1, i + 1]).route("/", home()));
        own.push(name);
    }
    let web = builder.start().await.unwrap();
    let crawl = WebCrawl::new();
    let inputs: Vec<String> = shared.iter().chain(&own).map(|h| web.input(h)).collect();
    let rate = 50.0;
    let flags = [
        "--per-ip-rps",
        "50",
        "--per-host-rps",
        "20",
        "--per-host-burst",
        "20",
        "--concurrency",
        "200",
    ];
    let (_, _, records) = crawl.run(&web, &inputs, true, &flags).await;
    assert_eq!(records.len(), 200);
    let mut times: Vec<Duration> = shared
        .iter()
        .flat_map(|h| web.requests(h))
        .map(|r| r.at.duration_since(web.started_at()))
        .collect();
    times.sort();
    // Every request a site logged arrived and was answered: with the default 8 connections
    // per IP, sites sharing the address take turns instead of timing out in our own queue.
    let logged: usize = shared
        .iter()
        .map(|h| record_for(&records, &web.origin(h)).requests.len())
        .sum();
    assert!(logged >= 700, "{logged} requests logged");
    assert_eq!(times.len(), logged);
    assert!(records
        .iter()
        .all(|r| r.requests.iter().all(|q| q.status.is_some())));
    // Past the initial burst, arrivals at the shared address keep to the per-IP rate.
    let burst = 20;
    let last = times.len() - 1;
    let span = (times[last] - times[burst]).as_secs_f64();
    let observed = (last - burst) as f64 / span;
    // Never faster than the rate (politeness). Slower only by our own late wake-ups: a busy
    // machine lengthens the gaps, so a limiter holding requests twice as long (50%) fails.
    assert!(
        observed <= rate * 1.10 && observed >= rate * 0.6,
        "observed {observed:.1} requests/s at the shared IP, want at most {rate} (+10%) and \
         at least 60% of it"
    );
    // The sites with their own address were not held back by the shared one.
    let own_last = own
        .iter()
        .flat_map(|h| web.requests(h))
        .map(|r| r.at.duration_since(web.started_at()))
        .max()
        .unwrap();
    assert!(
        own_last < times[99],
        "own-IP sites finished at {own_last:?}, after the shared ones' 100th request ({:?})",
        times[99]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_host_rate_holds_across_a_sites_requests() {
    // Each site answers its eleven discovery requests at once; politeness must space them.
    let mut builder = SimWeb::builder();
    let mut names = Vec::new();
    for i in 0..20u8 {
        let name = format!("polite{i}.test");
        builder = builder.site(Site::new(&name).ip([127, 0, 3, i + 1]).route("/", home()));
        names.push(name);
    }
    let web = builder.start().await.unwrap();
    let crawl = WebCrawl::new();
    let inputs: Vec<String> = names.iter().map(|h| web.input(h)).collect();
    let rate = 4.0;
    crawl
        .run(
            &web,
            &inputs,
            true,
            &["--per-host-rps", "4", "--per-host-burst", "1"],
        )
        .await;
    let mut intervals = Vec::new();
    for name in &names {
        let times: Vec<Duration> = web
            .requests(name)
            .iter()
            .map(|r| r.at.duration_since(web.started_at()))
            .collect();
        // robots.txt and the survey's eleven discovery GETs, all under the host's rate.
        assert_eq!(times.len(), 12, "{name}");
        for pair in times.windows(2) {
            let gap = (pair[1] - pair[0]).as_secs_f64();
            // Arrival times are taken by the server, so a busy machine can shorten one gap;
            // no gap may come near a burst.
            // (0.147 s of 0.25 seen once on a loaded machine: half the interval is far from
            // a burst's ~0 and clear of that jitter.)
            assert!(gap >= 0.5 / rate, "{name}: {gap:.3}s between requests");
            intervals.push(gap);
        }
    }
    let mean = intervals.iter().sum::<f64>() / intervals.len() as f64;
    let observed = 1.0 / mean;
    // As at the shared IP: never faster than the rate; slower only by late wake-ups on a busy
    // machine (a run of the whole suite measured 3.6 of 4).
    assert!(
        observed <= rate * 1.10 && observed >= rate * 0.6,
        "observed {observed:.2} requests/s per host, want at most {rate} (+10%) and at least \
         60% of it"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickling_server_is_cut_at_the_site_deadline_and_the_run_goes_on() {
    let web = SimWeb::builder()
        .site(
            Site::new("slow.test").route(
                "/",
                home()
                    .body(vec![b'x'; 100])
                    .trickle(1, Duration::from_secs(1)),
            ),
        )
        .site(Site::new("fast.test").route("/", home()))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs = vec![web.input("slow.test"), web.input("fast.test")];
    let started = std::time::Instant::now();
    let (_, _, records) = crawl
        .run(&web, &inputs, true, &["--site-deadline", "3"])
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "took {:?}",
        started.elapsed()
    );
    let slow = record_for(&records, &web.origin("slow.test"));
    assert_eq!(slow.outcome, Outcome::NotMeasured);
    assert!(
        slow.outcome_reason.contains("site deadline (3 s)"),
        "{}",
        slow.outcome_reason
    );
    assert!(
        slow.timings.total_ms >= 2900 && slow.timings.total_ms < 5000,
        "{}",
        slow.timings.total_ms
    );
    let fast = record_for(&records, &web.origin("fast.test"));
    assert_eq!(home_status(fast), Some(200));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_megabyte_body_is_cut_at_the_cap() {
    let web = SimWeb::builder()
        .site(Site::new("huge.test").route("/", Reply::huge(10 * 1024 * 1024)))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let (_, _, records) = crawl.run(&web, &[web.input("huge.test")], true, &[]).await;
    let huge = record_for(&records, &web.origin("huge.test"));
    let home = huge.requests.iter().find(|q| q.purpose == "home").unwrap();
    assert_eq!(home.status, Some(200));
    assert_eq!(
        home.bytes,
        256 * 1024,
        "read exactly up to the document cap"
    );
    assert_eq!(home.error.as_deref(), Some("body cut at the size cap"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_sites_at_concurrency_two_thousand_get_one_record_each() {
    let mut builder = SimWeb::builder();
    let mut names = Vec::new();
    for i in 0..2000u32 {
        let name = format!("s{i}.test");
        let ip = [127, 0, 2 + (i / 250) as u8, (i % 250) as u8 + 1];
        builder = builder.site(Site::new(&name).ip(ip).route("/", home()));
        names.push(name);
    }
    let web = builder.start().await.unwrap();
    let crawl = WebCrawl::new();
    let inputs: Vec<String> = names.iter().map(|h| web.input(h)).collect();
    let (code, manifest, records) = crawl
        .run(
            &web,
            &inputs,
            true,
            &["--concurrency", "2000", "--per-ip-rps", "1000"],
        )
        .await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(records.len(), 2000);
    let mut origins: Vec<&str> = records.iter().filter_map(|r| r.origin.as_deref()).collect();
    origins.sort();
    origins.dedup();
    assert_eq!(origins.len(), 2000, "one record per site");
    let missed: Vec<_> = records
        .iter()
        .filter(|r| home_status(r) != Some(200))
        .collect();
    assert!(
        missed.is_empty(),
        "{} sites without their homepage, e.g. {:?}",
        missed.len(),
        missed.first().map(|r| (&r.outcome_reason, &r.requests))
    );
    assert_eq!(counts(&manifest).records_written, 2000);
}

/// The homepage GET's status (robots.txt comes before it).
fn home_status(r: &mcpcensus_store::Record) -> Option<u16> {
    r.requests
        .iter()
        .find(|q| q.purpose == "home")
        .and_then(|q| q.status)
}
