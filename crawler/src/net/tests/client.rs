//! The HTTP client against local servers on 127.0.0.1 (allowed through the guard).

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroUsize;
use std::sync::atomic::Ordering;
use std::time::Duration;

use http::header::{ACCEPT_ENCODING, AUTHORIZATION, COOKIE, ORIGIN, USER_AGENT};
use http::{HeaderName, HeaderValue, StatusCode, Version};
use url::Url;

use super::support::{long_link, pki, start, Mode, Server, TestPki, SITE};
use crate::net::{
    BlockedRange, ConnectFailure, FetchError, FetchRequest, Net, NetOptions, TimeoutPhase,
    DEFAULT_USER_AGENT,
};

fn localhost() -> IpAddr {
    IpAddr::from([127, 0, 0, 1])
}

/// Options for tests: the site name pinned to 127.0.0.1, generous rates, no jitter.
pub(super) fn options(pki: &TestPki) -> NetOptions {
    crate::testkit::net_options(&[SITE], Some(pki))
}

pub(super) fn url(server: &Server, scheme: &str, path: &str) -> Url {
    let port = server.addr.port();
    Url::parse(&format!("{scheme}://{SITE}:{port}{path}")).expect("url")
}

#[tokio::test]
async fn fetches_over_tls_and_reports_the_peer() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let site = net.site_client();
    let response = site
        .fetch(FetchRequest::get(url(&server, "https", "/ok")))
        .await
        .expect("fetch");
    assert_eq!(response.status, StatusCode::OK);
    assert_eq!(response.body.as_ref(), b"hello");
    assert!(!response.truncated);
    assert_eq!(response.address, server.addr);
    assert_eq!(response.http_version, Version::HTTP_11);

    // The pool reuses the connection for the site's next request.
    let again = site
        .fetch(FetchRequest::get(url(&server, "https", "/ok")))
        .await
        .expect("fetch");
    assert_eq!(again.address, server.addr);
    assert_eq!(server.stats.accepted.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn guard_refuses_loopback_unless_allowed_and_no_connection_is_made() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let opts = NetOptions {
        allow_nets: Vec::new(),
        ..options(&pki)
    };
    let net = Net::new(opts).expect("net");
    let err = net
        .site_client()
        .fetch(FetchRequest::get(url(&server, "https", "/ok")))
        .await
        .expect_err("refused");
    match err {
        FetchError::Guard {
            host,
            address,
            refusal,
        } => {
            assert_eq!(host, SITE);
            assert_eq!(address, localhost());
            assert_eq!(refusal.range, BlockedRange::Loopback);
        }
        other => panic!("expected a guard refusal, got {other:?}"),
    }
    // An IP literal is judged the same way.
    let literal = Url::parse(&format!("http://127.0.0.1:{}/ok", server.addr.port())).expect("url");
    let err = net
        .site_client()
        .fetch(FetchRequest::get(literal))
        .await
        .expect_err("refused");
    assert_eq!(err.kind(), "guard");
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(server.stats.accepted.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn redirects_are_returned_not_followed() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let response = net
        .site_client()
        .fetch(FetchRequest::get(url(&server, "https", "/redirect")))
        .await
        .expect("fetch");
    assert_eq!(response.status, StatusCode::FOUND);
    assert_eq!(
        response.headers.get(http::header::LOCATION),
        Some(&HeaderValue::from_static("/ok"))
    );
    let paths: Vec<String> = server.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(paths, ["/redirect"]);
}

#[tokio::test]
async fn body_cap_cuts_a_large_stream() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let site = net.site_client();
    let cap = 100_000;
    let response = site
        .fetch(FetchRequest::get(url(&server, "https", "/big")).body_cap(cap))
        .await
        .expect("fetch");
    assert_eq!(response.status, StatusCode::OK);
    assert_eq!(response.body.len(), cap);
    assert!(response.truncated);
    // The connection was dropped: the server stops well short of the 10 MB.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let streamed = server.stats.streamed.load(Ordering::SeqCst);
    assert!(
        streamed < 10 * 1024 * 1024,
        "server streamed {streamed} bytes"
    );

    // At exactly the cap nothing is cut; one byte less is.
    let exact = site
        .fetch(FetchRequest::get(url(&server, "https", "/ok")).body_cap(5))
        .await
        .expect("fetch");
    assert_eq!(
        (exact.body.as_ref(), exact.truncated),
        (&b"hello"[..], false)
    );
    let short = site
        .fetch(FetchRequest::get(url(&server, "https", "/ok")).body_cap(4))
        .await
        .expect("fetch");
    assert_eq!((short.body.as_ref(), short.truncated), (&b"hell"[..], true));
}

/// A head and a body several times the client's read size (4 KiB) come whole, over the one
/// connection: a fixed-size read buffer would cap the head at its size, and real sites send
/// heads of 10 KB and more.
#[tokio::test]
async fn a_head_and_body_larger_than_the_read_buffer_come_whole() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let site = net.site_client();
    let link = long_link();
    assert!(link.len() > 12 * 1024, "{} bytes", link.len());
    for _ in 0..2 {
        let response = site
            .fetch(FetchRequest::get(url(&server, "https", "/long-head")))
            .await
            .expect("fetch");
        assert_eq!(response.status, StatusCode::OK);
        assert_eq!(
            response.headers.get("link").map(HeaderValue::as_bytes),
            Some(link.as_bytes())
        );
        assert_eq!(response.body.len(), 40 * 1024);
        assert!(response.body.iter().all(|&b| b == b'y'));
        assert!(!response.truncated);
    }
    assert_eq!(server.stats.accepted.load(Ordering::SeqCst), 1);
}

/// A body read to its end is a buffer of its own, not a slice of the connection's read buffer:
/// a kept slice (the scan keeps bodies past their request) would pin that buffer while the
/// connection reads the next answer into another.
#[tokio::test]
async fn a_read_body_owns_its_bytes_while_the_connection_lives() {
    let pki = pki();
    for (mode, scheme) in [(Mode::TlsH1, "https"), (Mode::Plain, "http")] {
        let server = start(&pki, mode).await;
        let net = Net::new(options(&pki)).expect("net");
        let site = net.site_client();
        for path in ["/ok", "/long-head"] {
            let response = site
                .fetch(FetchRequest::get(url(&server, scheme, path)))
                .await
                .expect("fetch");
            assert_eq!(response.status, StatusCode::OK, "{scheme} {path}");
            assert!(!response.body.is_empty(), "{scheme} {path}");
            assert!(
                response.body.is_unique(),
                "{scheme} {path}: shares a buffer"
            );
        }
        // One connection, reused, while the bodies read from it are held: they own their bytes.
        assert_eq!(server.stats.accepted.load(Ordering::SeqCst), 1, "{scheme}");
        drop(site);
    }
}

#[tokio::test]
async fn header_and_body_timeouts() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let site = net.site_client();
    let timeout = Duration::from_millis(400);

    let err = site
        .fetch(FetchRequest::get(url(&server, "https", "/slow-headers")).timeout(timeout))
        .await
        .expect_err("times out");
    assert!(
        matches!(
            err,
            FetchError::Timeout {
                phase: TimeoutPhase::Headers,
                ..
            }
        ),
        "{err:?}"
    );

    let started = std::time::Instant::now();
    let err = site
        .fetch(FetchRequest::get(url(&server, "https", "/trickle")).timeout(timeout))
        .await
        .expect_err("times out");
    assert!(
        matches!(
            err,
            FetchError::Timeout {
                phase: TimeoutPhase::Body,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn per_ip_connection_cap_holds_under_concurrency() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let cap = net.options().per_ip_connections.get();
    let site = std::sync::Arc::new(net.site_client());
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let site = site.clone();
        let target = url(&server, "https", "/hold");
        tasks.push(tokio::spawn(async move {
            site.fetch(FetchRequest::get(target)).await
        }));
    }
    for task in tasks {
        let response = task.await.expect("join").expect("fetch");
        assert_eq!(response.status, StatusCode::OK);
    }
    let max = server.stats.max_active.load(Ordering::SeqCst);
    assert!(max <= cap, "{max} connections open at once, cap {cap}");
    assert!(max >= 2, "requests should have run in parallel (max {max})");
    assert_eq!(server.seen().len(), 20);
}

#[tokio::test]
async fn connection_cap_spans_site_clients() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let opts = NetOptions {
        per_ip_connections: NonZeroUsize::new(3).expect("non-zero"),
        ..options(&pki)
    };
    let net = Net::new(opts).expect("net");
    let mut tasks = Vec::new();
    for _ in 0..12 {
        let site = net.site_client();
        let target = url(&server, "https", "/hold");
        tasks.push(tokio::spawn(async move {
            site.fetch(FetchRequest::get(target)).await
        }));
    }
    for task in tasks {
        task.await.expect("join").expect("fetch");
    }
    let max = server.stats.max_active.load(Ordering::SeqCst);
    assert!(max <= 3, "{max} connections open at once, cap 3");
}

#[tokio::test]
async fn sends_our_user_agent_and_never_credentials_cookies_or_origin() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let port = server.addr.port();
    let with_userinfo =
        Url::parse(&format!("https://user:secret@{SITE}:{port}/ok#frag")).expect("url");
    let protocol = HeaderName::from_static("mcp-protocol-version");
    let request = FetchRequest::get(with_userinfo)
        .header(COOKIE, HeaderValue::from_static("session=1"))
        .header(AUTHORIZATION, HeaderValue::from_static("Bearer x"))
        .header(ORIGIN, HeaderValue::from_static("https://evil.example"))
        .header(USER_AGENT, HeaderValue::from_static("someone-else"))
        .header(ACCEPT_ENCODING, HeaderValue::from_static("gzip"))
        .header(protocol.clone(), HeaderValue::from_static("2025-06-18"));
    net.site_client().fetch(request).await.expect("fetch");
    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    let headers = &seen[0].headers;
    assert_eq!(headers.get(USER_AGENT).expect("ua"), DEFAULT_USER_AGENT);
    assert!(DEFAULT_USER_AGENT.starts_with("mcpcensus/"));
    assert_eq!(headers.get(ACCEPT_ENCODING).expect("ae"), "identity");
    assert_eq!(headers.get(&protocol).expect("custom"), "2025-06-18");
    for name in [
        COOKIE,
        AUTHORIZATION,
        ORIGIN,
        http::header::PROXY_AUTHORIZATION,
    ] {
        assert!(headers.get(&name).is_none(), "{name} was sent");
    }
}

#[tokio::test]
async fn offers_only_http1_by_default() {
    let pki = pki();
    let h2 = start(&pki, Mode::TlsH2).await;
    let net = Net::new(options(&pki)).expect("net");
    let response = net
        .site_client()
        .fetch(FetchRequest::get(url(&h2, "https", "/ok")))
        .await
        .expect("fetch");
    assert_eq!(response.http_version, Version::HTTP_11);
    assert_eq!(h2.seen()[0].version, Version::HTTP_11);
}

#[tokio::test]
async fn negotiates_http2_when_offered() {
    let pki = pki();
    let h2 = start(&pki, Mode::TlsH2).await;
    let net = Net::new(NetOptions {
        offer_http2: true,
        ..options(&pki)
    })
    .expect("net");
    let site = net.site_client();
    let response = site
        .fetch(FetchRequest::get(url(&h2, "https", "/ok")))
        .await
        .expect("fetch");
    assert_eq!(response.http_version, Version::HTTP_2);
    assert_eq!(response.body.as_ref(), b"hello");
    assert_eq!(response.address, h2.addr);
    assert_eq!(h2.seen()[0].version, Version::HTTP_2);
    // A body cap on HTTP/2 resets the stream, not the whole connection's other requests.
    let big = site
        .fetch(FetchRequest::get(url(&h2, "https", "/big")).body_cap(10_000))
        .await
        .expect("fetch");
    assert!(big.truncated);
    assert_eq!(big.body.len(), 10_000);
}

#[tokio::test]
async fn plain_http_works_too() {
    let pki = pki();
    let server = start(&pki, Mode::Plain).await;
    let net = Net::new(options(&pki)).expect("net");
    let response = net
        .site_client()
        .fetch(FetchRequest::get(url(&server, "http", "/ok")))
        .await
        .expect("fetch");
    assert_eq!(response.body.as_ref(), b"hello");
    assert_eq!(response.http_version, Version::HTTP_11);
}

#[tokio::test]
async fn streams_an_event_body_and_stops_early() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let mut head = net
        .site_client()
        .fetch_head(FetchRequest::get(url(&server, "https", "/sse")).body_cap(64 * 1024))
        .await
        .expect("head");
    assert_eq!(head.status, StatusCode::OK);
    assert_eq!(
        head.headers.get(http::header::CONTENT_TYPE).expect("type"),
        "text/event-stream"
    );
    let mut seen = String::new();
    while !seen.contains("\"id\":2") {
        let chunk = head.body.chunk().await.expect("chunk").expect("more");
        seen.push_str(std::str::from_utf8(&chunk).expect("utf-8"));
    }
    assert!(!seen.contains("\"id\":3"));
    assert!(head.body.bytes_read() <= 64 * 1024);
    drop(head);
}

#[tokio::test]
async fn status_429_slows_the_host_down() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let response = net
        .site_client()
        .fetch(FetchRequest::get(url(&server, "https", "/busy")))
        .await
        .expect("fetch");
    assert_eq!(response.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(net.throttle().stats().slowed_hosts, 1);
    // The next request to the host waits for Retry-After (7 s here).
    let site = net.site_client();
    let next = site.fetch(FetchRequest::get(url(&server, "https", "/ok")));
    assert!(tokio::time::timeout(Duration::from_millis(500), next)
        .await
        .is_err());
}

#[tokio::test]
async fn connect_and_tls_failures_are_told_apart() {
    let pki = pki();
    // A port with nobody listening.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr")
    };
    let net = Net::new(options(&pki)).expect("net");
    let target = Url::parse(&format!("https://{SITE}:{}/ok", closed.port())).expect("url");
    let err = net
        .site_client()
        .fetch(FetchRequest::get(target))
        .await
        .expect_err("refused");
    assert_eq!(
        err,
        FetchError::Connect {
            host: SITE.to_owned(),
            address: closed,
            failure: ConnectFailure::Refused,
        }
    );

    // Without the test CA the certificate is not trusted.
    let server = start(&pki, Mode::TlsH1).await;
    let untrusting = Net::new(NetOptions {
        ca_files: Vec::new(),
        ..options(&pki)
    })
    .expect("net");
    let err = untrusting
        .site_client()
        .fetch(FetchRequest::get(url(&server, "https", "/ok")))
        .await
        .expect_err("untrusted");
    assert_eq!(err.kind(), "tls", "{err:?}");
}

#[tokio::test]
async fn unknown_names_and_bad_urls_fail_cleanly() {
    let pki = pki();
    let net = Net::new(options(&pki)).expect("net");
    let site = net.site_client();
    let ftp = Url::parse("ftp://site.test/file").expect("url");
    let err = site.fetch(FetchRequest::get(ftp)).await.expect_err("bad");
    assert_eq!(err.kind(), "invalid_url");
    let unknown = Url::parse("https://unknown.test/").expect("url");
    let err = site
        .fetch(FetchRequest::get(unknown))
        .await
        .expect_err("unknown");
    assert_eq!(err.kind(), "resolve", "{err:?}");
}

#[test]
fn options_reject_nonsense() {
    let bad = [
        NetOptions {
            connect_timeout: Duration::ZERO,
            ..NetOptions::default()
        },
        NetOptions {
            per_host_rps: 0.0,
            ..NetOptions::default()
        },
        NetOptions {
            per_ip_rps: f64::NAN,
            ..NetOptions::default()
        },
        NetOptions {
            user_agent: "bad\nagent".to_owned(),
            ..NetOptions::default()
        },
        NetOptions {
            user_agent: " ".to_owned(),
            ..NetOptions::default()
        },
        NetOptions {
            slow_down: Duration::from_secs(100),
            slow_down_max: Duration::from_secs(10),
            ..NetOptions::default()
        },
        NetOptions {
            nameservers: vec!["127.0.0.1:0".parse().expect("addr")],
            ..NetOptions::default()
        },
        NetOptions {
            static_hosts: HashMap::from([("x.test".to_owned(), Vec::new())]),
            ..NetOptions::default()
        },
    ];
    for opts in bad {
        assert!(opts.validate().is_err(), "{opts:?}");
    }
    NetOptions::default()
        .validate()
        .expect("defaults are valid");
}

#[test]
fn ca_file_errors_name_the_file() {
    let mut empty = tempfile::NamedTempFile::new().expect("temp");
    std::io::Write::write_all(&mut empty, b"not a certificate\n").expect("write");
    let err = Net::new(NetOptions {
        ca_files: vec![empty.path().to_owned()],
        nameservers: vec!["127.0.0.1:9".parse().expect("addr")],
        ..NetOptions::default()
    })
    .expect_err("no certificates");
    assert!(err
        .to_string()
        .contains(&empty.path().display().to_string()));
}

#[test]
fn interleaves_address_families() {
    use crate::net::connector::interleave;
    let ips: Vec<IpAddr> = [
        "1.1.1.1",
        "1.0.0.1",
        "2606:4700::1111",
        "2606:4700::1001",
        "8.8.8.8",
    ]
    .iter()
    .map(|s| s.parse().expect("ip"))
    .collect();
    let order: Vec<String> = interleave(&ips, 4)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        order,
        ["1.1.1.1", "2606:4700::1111", "1.0.0.1", "2606:4700::1001"]
    );
}

/// A site's requests in turn, as discovery makes them: each waits for the one before.
async fn in_turn(server: &Server, scheme: &str, opts: NetOptions, count: usize) {
    let net = Net::new(opts).expect("net");
    let site = net.site_client();
    for _ in 0..count {
        let response = site
            .fetch(FetchRequest::get(url(server, scheme, "/ok")))
            .await
            .expect("fetch");
        assert_eq!(response.status, StatusCode::OK);
    }
}

// The crawler's runtime, two threads: with hyper's pool, whose task took a connection back
// after the answer, about one request in ten opened a second connection (BENCHMARKS.md: 1.96
// connections a site on nginx); the site's own pool takes it back as the body ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_in_turn_share_one_connection() {
    let pki = pki();
    for (mode, scheme) in [(Mode::TlsH1, "https"), (Mode::Plain, "http")] {
        let server = start(&pki, mode).await;
        let opts = options(&pki);
        in_turn(&server, scheme, opts, 100).await;
        assert_eq!(
            server.stats.accepted.load(Ordering::SeqCst),
            1,
            "{scheme}: one connection for 100 requests in turn"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_at_once_open_their_own_connections_without_waiting() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let opts = options(&pki);
    let net = Net::new(opts).expect("net");
    let site = net.site_client();
    let held = || site.fetch(FetchRequest::get(url(&server, "https", "/hold")));
    let all = tokio::time::timeout(Duration::from_secs(60), async {
        tokio::join!(held(), held(), held(), held())
    })
    .await
    .expect("overlapping requests never wait for a busy connection");
    for response in [all.0, all.1, all.2, all.3] {
        assert_eq!(response.expect("fetch").status, StatusCode::OK);
    }
    assert_eq!(server.stats.accepted.load(Ordering::SeqCst), 4);
    // And the next requests in turn reuse what the pool kept.
    let before = server.stats.accepted.load(Ordering::SeqCst);
    for _ in 0..5 {
        let again = tokio::time::timeout(Duration::from_secs(60), held())
            .await
            .expect("in turn after a burst")
            .expect("fetch");
        assert_eq!(again.status, StatusCode::OK);
    }
    assert_eq!(server.stats.accepted.load(Ordering::SeqCst), before);
}

// A site in flight holds one socket: the connection kept for a host closes when the site
// opens one to another host (its requests go in turn), so the open-files planner can count
// one a site (docs/sizing.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_keeps_one_connection_across_hosts() {
    let pki = pki();
    let (a, b) = (
        start(&pki, Mode::TlsH1).await,
        start(&pki, Mode::TlsH1).await,
    );
    let net = Net::new(options(&pki)).expect("net");
    let site = net.site_client();
    let get = |server: &Server| site.fetch(FetchRequest::get(url(server, "https", "/ok")));
    assert_eq!(get(&a).await.expect("a").status, StatusCode::OK);
    assert_eq!(
        a.stats.active.load(Ordering::SeqCst),
        1,
        "kept for a's next"
    );
    assert_eq!(get(&b).await.expect("b").status, StatusCode::OK);
    // The server sees the close when it reads the end: ample time on a busy machine.
    let closed = tokio::time::timeout(Duration::from_secs(60), async {
        while a.stats.active.load(Ordering::SeqCst) != 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(closed.is_ok(), "a's connection is closed once b's opens");
    assert_eq!(b.stats.active.load(Ordering::SeqCst), 1, "b's is kept");
    // Requests in turn to one host still share its connection.
    assert_eq!(get(&b).await.expect("b again").status, StatusCode::OK);
    assert_eq!(b.stats.accepted.load(Ordering::SeqCst), 1);
}
