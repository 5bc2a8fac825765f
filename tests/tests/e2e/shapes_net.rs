//! The network's shapes: a site with only an IPv6 address (measured over ::1 when the guard
//! lets ::1/128 through, refused otherwise) and sites that break TLS after the ClientHello
//! (unreachable with a TLS reason, after one connection each: no retry storm); a site's
//! requests share one kept-alive connection, and a server that closes after each answer is
//! measured the same.

use std::collections::HashSet;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::process::ExitCode;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::shapes::Shape;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::Outcome;

use crate::util::{record_for, WebCrawl};

/// Whether this machine has an IPv6 loopback to serve on.
fn has_ipv6_loopback() -> bool {
    std::net::TcpListener::bind((Ipv6Addr::LOCALHOST, 0)).is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ipv6_only_site_is_measured_over_ipv6() {
    if !has_ipv6_loopback() {
        eprintln!("SKIPPED: this machine has no IPv6 loopback (::1 cannot be bound)");
        return;
    }
    let shaped = Shape::Ipv6Only.build("six.test", true);
    let web = SimWeb::builder()
        .sites(shaped.sites.clone())
        .start()
        .await
        .unwrap();
    let inputs = [web.input("six.test")];
    let (both, v4) = (WebCrawl::new(), WebCrawl::new());
    let ((code, _, records), (v4_code, _, v4_records)) = tokio::join!(
        both.run(&web, &inputs, true, &[]),
        v4.run(&web, &inputs, false, &["--allow-net", "127.0.0.0/8"]),
    );
    assert_eq!((code, v4_code), (ExitCode::SUCCESS, ExitCode::SUCCESS));
    let six = IpAddr::V6(Ipv6Addr::LOCALHOST);
    let r = record_for(&records, &web.origin("six.test"));
    assert_eq!(
        (r.outcome, r.outcome_reason.as_str(), r.addresses.as_slice()),
        (
            Outcome::Pass,
            "tools/list names 1 tool (protocol version 2025-11-25)",
            ["::1".to_owned()].as_slice()
        )
    );
    // Every request went over ::1; none reached the site's IPv4 listener.
    let seen = web.requests("six.test");
    assert!(!seen.is_empty());
    assert!(seen.iter().all(|req| req.local.ip() == six), "{seen:?}");
    // Without ::1/128 allowed, the guard refuses the only address: no connection.
    let r = record_for(&v4_records, &web.origin("six.test"));
    assert_eq!(
        (r.outcome, r.outcome_reason.as_str()),
        (
            Outcome::NotMeasured,
            "refused by the address guard: ::1 is loopback"
        )
    );
    assert!(r.requests.is_empty());
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_resets_are_unreachable_after_one_connection() {
    let sites = [
        (Shape::TlsReset, "reset.test", Ipv4Addr::new(127, 0, 0, 61)),
        (Shape::TlsClose, "close.test", Ipv4Addr::new(127, 0, 0, 62)),
    ];
    let web = SimWeb::builder()
        .sites(sites.iter().flat_map(|(shape, host, ip)| {
            let shaped = shape.build(host, true);
            assert!(shaped.server.is_none());
            shaped.sites.into_iter().map(move |s| s.ip(*ip))
        }))
        .start()
        .await
        .unwrap();
    let inputs: Vec<String> = sites.iter().map(|(_, host, _)| web.input(host)).collect();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl.run(&web, &inputs, true, &[]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    let port = format!(":{}", web.port());
    let reasons = [
        "Connection reset by peer (os error 104)",
        "tls handshake eof",
    ];
    for ((_, host, ip), why) in sites.into_iter().zip(reasons) {
        let r = record_for(&records, &web.origin(host));
        let detail = format!("{host} at {ip}:PORT: TLS handshake failed: {why}");
        assert_eq!(
            (r.outcome, r.outcome_reason.replace(&port, ":PORT")),
            (
                Outcome::Unreachable,
                format!("the site did not answer: {detail}")
            ),
            "{host}"
        );
        // The first request (robots.txt) failed and nothing more was tried: one connection.
        let sent: Vec<(&str, Option<String>)> = r
            .requests
            .iter()
            .map(|q| {
                (
                    q.purpose.as_str(),
                    q.error.as_ref().map(|e| e.replace(&port, ":PORT")),
                )
            })
            .collect();
        assert_eq!(sent, [("robots", Some(detail))], "{host}");
        let conns = web.connections(ip);
        assert_eq!((conns.accepted, conns.handshake_failures), (1, 1), "{host}");
        assert_eq!(web.request_count(host), 0, "{host}");
    }
    web.shutdown().await;
}

/// A homepage naming the MCP server at `/mcp` by its Link header.
fn linked_home() -> Reply {
    Reply::html("<!doctype html><title>home</title>").header("link", "</mcp>; rel=\"mcp\"")
}

/// The connections that carried a host's requests.
fn connections_of(web: &SimWeb, host: &str) -> (usize, usize) {
    let requests = web.requests(host);
    let conns: HashSet<u64> = requests.iter().map(|r| r.conn_id).collect();
    (requests.len(), conns.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_is_one_kept_alive_connection_unless_the_server_closes_each() {
    // Servers with keep-alive off answer `Connection: close` and close: every request after
    // such an answer opens a new connection, and the site is measured the same.
    let server = McpServer::ts_v2().tools_named(&["search"]);
    let closing = Reply::status(404).header("connection", "close");
    let web = SimWeb::builder()
        .site(
            Site::new("kept.test")
                .route("/", linked_home())
                .mcp("/mcp", &server),
        )
        .site(
            Site::new("closing.test")
                .route("/", linked_home().header("connection", "close"))
                .default(closing)
                .mcp("/mcp", &server),
        )
        .start()
        .await
        .unwrap();
    let inputs = vec![web.input("kept.test"), web.input("closing.test")];
    let (_, _, records) = WebCrawl::new().run(&web, &inputs, true, &[]).await;
    for host in ["kept.test", "closing.test"] {
        let r = record_for(&records, &web.origin(host));
        assert_eq!(r.outcome, Outcome::Pass, "{host}: {}", r.outcome_reason);
        assert_eq!(r.tool_names, ["search"], "{host}");
    }
    // robots.txt, the homepage, five discovery documents, /mcp, the four API and agent
    // surface documents and the session's POSTs.
    let (requests, conns) = connections_of(&web, "kept.test");
    assert!(requests >= 10, "kept.test: {requests} requests");
    assert_eq!(
        conns, 1,
        "kept.test: {requests} requests over {conns} connections"
    );
    // Each of the eleven GETs answered with `Connection: close` ends its connection.
    let (requests, conns) = connections_of(&web, "closing.test");
    assert!(
        conns >= 12 && conns <= requests,
        "closing.test: {requests} requests over {conns} connections"
    );
}
