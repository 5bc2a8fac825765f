//! Safety in the site client: the opt-out list and IP-range opt-outs before any connection,
//! robots.txt rules on GETs, the contact in the User-Agent, the per-IP rate charged to the
//! address actually used, and Crawl-delay spacing.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use url::Url;

use super::support::{pki, start, Mode, Server, TestPki, SITE};
use crate::input::Exclusions;
use crate::net::{
    BlockedRange, FetchError, FetchRequest, Net, NetOptions, RobotsRules, Throttle,
    DEFAULT_USER_AGENT,
};

fn ip(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

fn options(pki: &TestPki, addrs: Vec<IpAddr>) -> NetOptions {
    NetOptions {
        static_hosts: HashMap::from([(SITE.to_owned(), addrs)]),
        ..crate::testkit::net_options(&[SITE], Some(pki))
    }
}

fn url(server: &Server, path: &str) -> Url {
    Url::parse(&format!("https://{SITE}:{}{path}", server.addr.port())).expect("url")
}

#[tokio::test]
async fn an_opted_out_host_gets_no_connection() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let parent = SITE.split_once('.').map_or(SITE, |(_, p)| p).to_owned();
    let opt_out = Arc::new(Exclusions::from_domains([parent]));
    let net = Net::with_opt_out(options(&pki, vec![ip(1)]), opt_out).expect("net");
    let err = net
        .site_client()
        .fetch(FetchRequest::get(url(&server, "/ok")))
        .await
        .expect_err("opted out");
    assert!(matches!(err, FetchError::OptedOut { .. }), "{err}");
    // The same host with a trailing dot or in upper case, as a server may name it.
    for written in [format!("{SITE}."), SITE.to_ascii_uppercase()] {
        let port = server.addr.port();
        let other = Url::parse(&format!("https://{written}:{port}/ok")).expect("url");
        let err = net
            .site_client()
            .fetch(FetchRequest::get(other))
            .await
            .expect_err("opted out");
        assert!(
            matches!(err, FetchError::OptedOut { .. }),
            "{written}: {err}"
        );
    }
    assert_eq!(server.stats.accepted.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn an_excluded_range_wins_over_the_allow_list() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let opts = NetOptions {
        exclude_nets: vec!["127.0.0.1/32".parse().expect("net")],
        ..options(&pki, vec![ip(1)])
    };
    let net = Net::new(opts).expect("net");
    let err = net
        .site_client()
        .fetch(FetchRequest::get(url(&server, "/ok")))
        .await
        .expect_err("excluded");
    let FetchError::Guard { refusal, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(refusal.range, BlockedRange::OptedOut);
    assert!(err.to_string().contains("127.0.0.1/32"), "{err}");
    assert_eq!(server.stats.accepted.load(Ordering::SeqCst), 0);
    // An IPv4-mapped form of the address is the same host.
    assert!(net
        .guard()
        .check("::ffff:127.0.0.1".parse().expect("ip"))
        .is_err());
}

#[tokio::test]
async fn robots_rules_stop_disallowed_gets_before_any_request() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki, vec![ip(1)])).expect("net");
    let site = net.site_client();
    let origin = url(&server, "/");
    // Our product token's group applies, not the `*` one.
    let robots = b"User-agent: *\nDisallow: /\n\nUser-agent: mcpcensus\nDisallow: /ok\n";
    site.set_robots(&origin, RobotsRules::parse(robots));
    let err = site
        .fetch(FetchRequest::get(url(&server, "/ok")))
        .await
        .expect_err("disallowed");
    assert!(matches!(err, FetchError::Disallowed { .. }), "{err}");
    assert!(server.seen().is_empty());
    let other = site
        .fetch(FetchRequest::get(url(&server, "/redirect")))
        .await
        .expect("allowed");
    assert_eq!(other.status.as_u16(), 302);
    assert!(!RobotsRules::disallow_all().allows("/"));
    assert!(RobotsRules::allow_all().allows("/anything"));
}

/// A URL a server chose with a trailing dot or in upper case names the same origin: the
/// robots.txt rules read for the site apply to it (before, `https://h./x` had no rules).
#[tokio::test]
async fn robots_rules_apply_to_the_same_origin_however_its_host_is_spelt() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki, vec![ip(1)])).expect("net");
    let site = net.site_client();
    site.set_robots(
        &url(&server, "/"),
        RobotsRules::parse(b"User-agent: *\nDisallow: /ok\n"),
    );
    let port = server.addr.port();
    for spelt in [
        SITE.to_owned() + ".",
        SITE.to_ascii_uppercase(),
        SITE.to_ascii_uppercase() + ".",
    ] {
        let other = Url::parse(&format!("https://{spelt}:{port}/ok")).expect("url");
        let err = site
            .fetch(FetchRequest::get(other.clone()))
            .await
            .expect_err("disallowed");
        assert!(
            matches!(err, FetchError::Disallowed { .. }),
            "{other}: {err}"
        );
    }
    assert!(server.seen().is_empty());
}

#[tokio::test]
async fn the_user_agent_names_the_contact() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let opts = NetOptions {
        contact: Some("mailto:ops@example.org".into()),
        ..options(&pki, vec![ip(1)])
    };
    assert!(opts
        .full_user_agent()
        .starts_with(DEFAULT_USER_AGENT.trim_end_matches(')')));
    Net::new(opts)
        .expect("net")
        .site_client()
        .fetch(FetchRequest::get(url(&server, "/ok")))
        .await
        .expect("fetch");
    let seen = server.seen();
    let ua = seen[0].headers["user-agent"].to_str().expect("ascii");
    assert!(
        ua.starts_with("mcpcensus/") && ua.contains("docs/bot.md"),
        "{ua}"
    );
    assert!(ua.ends_with("; contact: mailto:ops@example.org)"), "{ua}");
    let bad = NetOptions {
        contact: Some("call me (maybe)".into()),
        ..NetOptions::default()
    };
    assert!(bad.validate().is_err());
}

#[tokio::test]
async fn the_per_ip_rate_is_charged_to_the_address_the_connection_uses() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    // 127.0.0.2 refuses (nothing listens there); the connection goes to 127.0.0.1.
    let opts = NetOptions {
        per_ip_rps: 0.001,
        per_ip_burst: NonZeroU32::new(2).expect("non-zero"),
        ..options(&pki, vec![ip(2), ip(1)])
    };
    let net = Net::new(opts).expect("net");
    let site = net.site_client();
    for _ in 0..2 {
        let r = site
            .fetch(FetchRequest::get(url(&server, "/ok")))
            .await
            .expect("fetch");
        assert_eq!(r.address.ip(), ip(1));
    }
    // Both requests reached 127.0.0.1: its burst of two is spent.
    assert!(!net.throttle().ip_has_room(ip(1)));
    // The refusing address was charged at most the first request's attempt.
    assert!(net.throttle().ip_has_room(ip(2)));
}

#[tokio::test(start_paused = true)]
async fn a_crawl_delay_longer_than_the_host_rate_spaces_the_host() {
    let throttle = Throttle::new(&NetOptions {
        throttle_jitter: Duration::ZERO,
        ..NetOptions::default()
    })
    .expect("throttle");
    let start = tokio::time::Instant::now();
    for _ in 0..3 {
        throttle
            .acquire("slow.example", ip(1), Some(Duration::from_secs(3)))
            .await;
    }
    // Two gaps of 3 s (the host rate alone would allow all three within its burst).
    assert!(
        start.elapsed() >= Duration::from_secs(6),
        "{:?}",
        start.elapsed()
    );
    let start = tokio::time::Instant::now();
    for _ in 0..3 {
        throttle
            .acquire("fast.example", ip(2), Some(Duration::from_millis(100)))
            .await;
    }
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}
