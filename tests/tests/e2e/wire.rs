//! The wire the crawler owns, against servers that write raw HTTP/1.1 over TLS 1.2 and 1.3:
//! each framing case gives the record a careful client would give. No silent truncation (a
//! chunk line without a size is a protocol failure, not the end of the body), no answer read
//! as the next request's (a server that sends one stray answer after each), no site lost to a
//! robots.txt a browser reads (a folded header line, a body that ends where TLS closes without
//! close_notify, 129 header fields, a 300 KB head), one robots.txt request per URL however the
//! origins redirect, and the endpoint a server card named kept through a discovery pause.

use std::process::ExitCode;

use mcpcensus_simweb::{RawAnswer, RawEnd, RawHttp, Reply, SimWeb, Site};
use mcpcensus_store::{DiscoveredVia, FailureKind, Outcome, Record};
use serde_json::json;

use crate::util::{record_for, WebCrawl};

const NOT_FOUND: &str = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
const CARD_PATH: &str = "/.well-known/mcp/server-card.json";
/// An answer sent after every answer, unasked for.
const STRAY: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nevil";

fn json_answer(body: &serde_json::Value) -> RawAnswer {
    let body = body.to_string();
    RawAnswer::new(format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ))
}

fn home_naming_mcp() -> RawAnswer {
    let body = "<!doctype html><title>raw</title>";
    RawAnswer::new(format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nLink: </mcp>; rel=\"mcp\"\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    ))
}

/// An MCP server in raw bytes: its homepage names `/mcp`, whose session lists one tool.
fn raw_mcp(raw: RawHttp) -> RawHttp {
    let init = json!({"jsonrpc": "2.0", "id": 1, "result": {
        "protocolVersion": "2025-06-18",
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "raw", "version": "1.0"}
    }});
    let tools = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [
        {"name": "raw_tool", "description": "Reads a raw thing.", "inputSchema": {"type": "object"}}
    ]}});
    raw.route("GET", "/robots.txt", RawAnswer::new(NOT_FOUND))
        .route("GET", "/", home_naming_mcp())
        .route(
            "GET",
            "/mcp",
            RawAnswer::new(
                "HTTP/1.1 405 Method Not Allowed\r\nAllow: POST\r\nContent-Length: 0\r\n\r\n",
            ),
        )
        .rpc("POST", "/mcp", "initialize", json_answer(&init))
        .rpc(
            "POST",
            "/mcp",
            "notifications/initialized",
            RawAnswer::new("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"),
        )
        .rpc("POST", "/mcp", "tools/list", json_answer(&tools))
}

/// A site whose robots.txt is `robots` (raw) and whose homepage is plain.
fn robots_site(name: &str, robots: RawAnswer) -> Site {
    let home = "<!doctype html><title>plain</title>";
    Site::new(name).raw_http(RawHttp::tls13().route("GET", "/robots.txt", robots).route(
        "GET",
        "/",
        RawAnswer::new(format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{home}",
            home.len()
        )),
    ))
}

const ROBOTS_BODY: &str = "User-agent: *\nDisallow: /private/\n";

/// A server card naming `/mcp`, framed by `framing` (bytes after the head's status line).
fn card_site(name: &str, head_and_body: String) -> Site {
    Site::new(name).raw_http(
        RawHttp::tls13()
            .route("GET", "/robots.txt", RawAnswer::new(NOT_FOUND))
            .route("GET", CARD_PATH, RawAnswer::new(head_and_body)),
    )
}

fn card_json() -> String {
    json!({"name": "raw", "remotes": [{"type": "streamable-http", "url": "/mcp"}]}).to_string()
}

fn request<'r>(record: &'r Record, purpose: &str) -> &'r mcpcensus_store::RequestLog {
    record
        .requests
        .iter()
        .find(|q| q.purpose == purpose)
        .unwrap_or_else(|| panic!("no {purpose} request: {:#?}", record.requests))
}

fn why(r: &Record) -> String {
    format!("{:?}: {} {:#?}", r.outcome, r.outcome_reason, r.requests)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_framing_case_gives_the_record_a_careful_client_gives() {
    let card = card_json();
    // The card cut in two by a chunk line with no size digit: read before as the last chunk,
    // the rest of the card swallowed as trailers, and a complete 200 recorded.
    let (first, rest) = card.split_at(card.len() / 2);
    let no_digit = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n\
         {:x}\r\n{first}\r\n;cut\r\n{rest}\r\n0\r\n\r\n",
        first.len()
    );
    let gzip_chunked = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n\
         {:x}\r\n{card}\r\n0\r\n\r\n",
        card.len()
    );
    let robots = |head: &str| {
        format!(
            "HTTP/1.1 200 OK\r\n{head}Content-Length: {}\r\n\r\n{ROBOTS_BODY}",
            ROBOTS_BODY.len()
        )
    };
    let fields: String = (0..129).map(|i| format!("X-Field-{i}: v\r\n")).collect();
    let pad = format!("X-Pad: {}\r\n", "p".repeat(1000));
    let sites = vec![
        Site::new("stray12.wire.test").raw_http(raw_mcp(RawHttp::tls12()).stray(STRAY)),
        Site::new("stray13.wire.test").raw_http(raw_mcp(RawHttp::tls13()).stray(STRAY)),
        card_site("nodigit.wire.test", no_digit),
        card_site("gzipte.wire.test", gzip_chunked),
        robots_site(
            "fold.wire.test",
            RawAnswer::new(robots("Content-Type: text/plain;\r\n charset=utf-8\r\n")),
        ),
        robots_site(
            "nonotify.wire.test",
            RawAnswer::new(format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n{ROBOTS_BODY}"
            ))
            .then(RawEnd::CloseWithoutNotify),
        ),
        robots_site("fields.wire.test", RawAnswer::new(robots(&fields))),
        robots_site(
            "bighead.wire.test",
            RawAnswer::new(robots(&pad.repeat(300))),
        ),
    ];
    let names: Vec<String> = sites.iter().map(|s| s.name().to_owned()).collect();
    let web = SimWeb::builder().sites(sites).start().await.unwrap();
    let inputs: Vec<String> = names.iter().map(|n| web.input(n)).collect();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl.run(&web, &inputs, true, &[]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    let record = |host: &str| record_for(&records, &web.origin(host));

    // A stray answer after every answer never becomes the next request's answer, over TLS 1.2
    // and 1.3: the session lists the server's own tool.
    for host in ["stray12.wire.test", "stray13.wire.test"] {
        let r = record(host);
        assert_eq!(r.outcome, Outcome::Pass, "{host}: {}", why(r));
        let tools: Vec<&str> = r.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(tools, ["raw_tool"], "{host}");
    }

    // Broken framing is a protocol failure of that request, never a complete document.
    for (host, words) in [
        ("nodigit.wire.test", "invalid chunked body"),
        (
            "gzipte.wire.test",
            "a transfer coding the client did not ask for",
        ),
    ] {
        let r = record(host);
        let card = request(r, "server_card");
        assert_eq!(
            card.error_kind,
            Some(FailureKind::Protocol),
            "{host}: {card:?}"
        );
        assert!(
            card.error.as_deref().is_some_and(|e| e.contains(words)),
            "{host}: {card:?}"
        );
        assert_eq!(r.endpoint, None, "{host}: a half card names nothing");
    }

    // robots.txt quirks a browser reads keep the site in the census, its rules read.
    for host in [
        "fold.wire.test",
        "nonotify.wire.test",
        "fields.wire.test",
        "bighead.wire.test",
    ] {
        let r = record(host);
        assert_ne!(r.outcome, Outcome::NotMeasured, "{host}: {}", why(r));
        let robots = r.robots.as_ref().expect("robots section");
        assert_eq!(
            (robots.status, robots.verdict.as_str()),
            (Some(200), "rules"),
            "{host}"
        );
        assert!(
            request(r, "robots").error_kind.is_none(),
            "{host}: {:?}",
            r.requests
        );
    }
    // The close without close_notify is taken as the end, and said so.
    let nonotify = request(record("nonotify.wire.test"), "robots");
    assert!(
        nonotify
            .error
            .as_deref()
            .is_some_and(|e| e.contains("close_notify")),
        "{nonotify:?}"
    );
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_txt_is_asked_once_however_the_origins_redirect_to_each_other() {
    let web = SimWeb::builder()
        .site(Site::new("loop.test"))
        .site(Site::new("www.loop.test"))
        .start()
        .await
        .unwrap();
    let to = |host: &str, path: &str| Reply::status(301).header("location", web.url(host, path));
    web.add_site(
        Site::new("loop.test")
            .route("/robots.txt", to("www.loop.test", "/robots.txt"))
            .route("/", to("www.loop.test", "/")),
    )
    .unwrap();
    web.add_site(
        Site::new("www.loop.test")
            .route("/robots.txt", to("loop.test", "/robots.txt"))
            .route("/", Reply::html("<!doctype html><title>www</title>")),
    )
    .unwrap();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl.run(&web, &[web.input("loop.test")], true, &[]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    let r = record_for(&records, &web.origin("loop.test"));
    let robots_reads: usize = ["loop.test", "www.loop.test"]
        .iter()
        .map(|h| {
            web.requests(h)
                .iter()
                .filter(|q| q.path == "/robots.txt")
                .count()
        })
        .sum();
    // Each robots.txt URL once (before: a chain of six for each origin, 12 of 25 requests).
    assert_eq!(robots_reads, 2, "{}", why(r));
    assert_eq!(r.outcome, Outcome::OutOfScope, "{}", why(r));
    let robots = r.robots.as_ref().expect("robots section");
    assert_eq!(robots.url, web.url("www.loop.test", "/robots.txt"));
    assert_eq!(
        robots.verdict, "allow_all",
        "a loop is unavailable: RFC 9309"
    );
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_endpoint_a_card_named_survives_a_discovery_pause() {
    let web = SimWeb::builder()
        .site(Site::new("paused.test"))
        .start()
        .await
        .unwrap();
    let endpoint = web.url("paused.test", "/mcp");
    let card = json!({"name": "paused", "remotes": [{"type": "streamable-http", "url": endpoint}]});
    web.add_site(
        Site::new("paused.test")
            .route(CARD_PATH, Reply::json(card))
            .route_method(
                "GET",
                "/mcp",
                Reply::status(429).header("retry-after", "3600"),
            ),
    )
    .unwrap();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl
        .run(&web, &[web.input("paused.test")], true, &[])
        .await;
    assert_eq!(code, ExitCode::SUCCESS);
    let r = record_for(&records, &web.origin("paused.test"));
    assert_eq!(r.outcome, Outcome::NotMeasured, "{}", why(r));
    assert_eq!(r.endpoint.as_deref(), Some(endpoint.as_str()), "{}", why(r));
    assert_eq!(r.discovered_via, Some(DiscoveredVia::ServerCard));
    assert!(
        !r.requests.iter().any(|q| q.method == "POST"),
        "the paused site is not opened: {:?}",
        r.requests
    );
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stray_answer_never_shifts_the_next_even_with_politeness_lifted() {
    let sites = vec![
        Site::new("stray12.wire.test").raw_http(raw_mcp(RawHttp::tls12()).stray(STRAY)),
        Site::new("stray13.wire.test").raw_http(raw_mcp(RawHttp::tls13()).stray(STRAY)),
    ];
    let web = SimWeb::builder().sites(sites).start().await.unwrap();
    let inputs = [
        web.input("stray12.wire.test"),
        web.input("stray13.wire.test"),
    ];
    let crawl = WebCrawl::new();
    let lifted = [
        "--per-host-rps",
        "1000",
        "--per-host-burst",
        "16",
        "--per-ip-rps",
        "1000",
    ];
    let (code, _, records) = crawl.run(&web, &inputs, true, &lifted).await;
    assert_eq!(code, ExitCode::SUCCESS);
    for host in ["stray12.wire.test", "stray13.wire.test"] {
        let r = record_for(&records, &web.origin(host));
        assert_eq!(r.outcome, Outcome::Pass, "{host}: {}", why(r));
        let tools: Vec<&str> = r.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(tools, ["raw_tool"], "{host}");
    }
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_origin_two_sites_reach_has_its_robots_txt_read_once_a_run() {
    let web = SimWeb::builder()
        .site(Site::new("shared.test"))
        .site(Site::new("www.shared.test"))
        .start()
        .await
        .unwrap();
    web.add_site(Site::new("shared.test").route(
        "/",
        Reply::status(301).header("location", web.url("www.shared.test", "/")),
    ))
    .unwrap();
    web.add_site(
        Site::new("www.shared.test")
            .route(
                "/robots.txt",
                Reply::bytes("text/plain", ROBOTS_BODY.to_owned()),
            )
            .route("/", Reply::html("<!doctype html><title>www</title>")),
    )
    .unwrap();
    let inputs = [web.input("shared.test"), web.input("www.shared.test")];
    let crawl = WebCrawl::new();
    // One site at a time: the second finds the first's answer.
    let (code, _, records) = crawl
        .run(&web, &inputs, true, &["--concurrency", "1"])
        .await;
    assert_eq!(code, ExitCode::SUCCESS);
    let robots_reads = web
        .requests("www.shared.test")
        .iter()
        .filter(|q| q.path == "/robots.txt")
        .count();
    assert_eq!(robots_reads, 1, "www's robots.txt read once in the run");
    for host in ["shared.test", "www.shared.test"] {
        let r = record_for(&records, &web.origin(host));
        let robots = r.robots.as_ref().expect("robots section");
        assert_eq!(
            robots.url,
            web.url("www.shared.test", "/robots.txt"),
            "{host}"
        );
        assert_eq!(
            (robots.status, robots.verdict.as_str()),
            (Some(200), "rules"),
            "{host}"
        );
    }
    web.shutdown().await;
}
