//! `mcpcensus check TARGET --explain` end to end: the transcript shows every request in the
//! order the simulated web received it, with the headers it really carried, and the verdict
//! equals what a crawl of the same site records.

use std::collections::BTreeMap;
use std::process::ExitCode;

use mcpcensus_simweb::mcp::{Fault, McpServer};
use mcpcensus_simweb::{RecordedRequest, Reply, SimWeb, Site};
use mcpcensus_store::Record;

use crate::util::{mcpcensus, record_for, WebCrawl};

/// The API and agent surface documents every scan asks for after /mcp, with their purposes.
const SURFACE_DOCUMENTS: [(&str, &str); 4] = [
    ("/.well-known/api-catalog", "api_catalog"),
    ("/.well-known/agent-card.json", "agent_card"),
    (
        "/.well-known/oauth-protected-resource",
        "protected_resource",
    ),
    ("/.well-known/oauth-authorization-server", "auth_server"),
];

/// The survey's Accept for the discovery GETs.
const DISCOVERY_ACCEPT: &str =
    "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.7";
/// The survey's Accept for the session's POSTs.
const SESSION_ACCEPT: &str = "application/json, text/event-stream";

/// One request block of the transcript.
#[derive(Debug)]
struct Block {
    method: String,
    url: String,
    purpose: String,
    sent: Vec<(String, String)>,
    body_sent: Vec<String>,
    status: Option<u16>,
    received: Vec<(String, String)>,
    text: String,
}

impl Block {
    fn sent(&self, name: &str) -> Option<&str> {
        find(&self.sent, name)
    }

    fn received(&self, name: &str) -> Option<&str> {
        find(&self.received, name)
    }
}

fn find<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// What `check` printed: its request blocks and its verdict fields.
#[derive(Debug)]
struct Output {
    blocks: Vec<Block>,
    verdict: BTreeMap<String, String>,
    text: String,
}

fn parse(text: &str) -> Output {
    let mut blocks = Vec::new();
    for chunk in text.split("\n\n") {
        let mut lines = chunk.lines();
        let Some(first) = lines.next() else { continue };
        let Some((method, rest)) = first.split_once(' ') else {
            continue;
        };
        if method != "GET" && method != "POST" {
            continue;
        }
        let (url, purpose) = rest.split_once("  (").unwrap();
        let mut block = Block {
            method: method.to_owned(),
            url: url.to_owned(),
            purpose: purpose.trim_end_matches(')').to_owned(),
            sent: Vec::new(),
            body_sent: Vec::new(),
            status: None,
            received: Vec::new(),
            text: chunk.to_owned(),
        };
        let (mut in_body_sent, mut in_body_received) = (false, false);
        for line in lines {
            if let Some(sent) = line.strip_prefix("  >") {
                if sent.is_empty() {
                    in_body_sent = true;
                } else if in_body_sent {
                    block.body_sent.push(sent.trim_start().to_owned());
                } else {
                    let (n, v) = sent.trim_start().split_once(": ").unwrap();
                    block.sent.push((n.to_owned(), v.to_owned()));
                }
            } else if let Some(got) = line.strip_prefix("  <") {
                if got.is_empty() {
                    in_body_received = true;
                } else if block.status.is_none() {
                    block.status = Some(got.trim_start()[..3].parse().unwrap());
                } else if !in_body_received {
                    let (n, v) = got.trim_start().split_once(": ").unwrap();
                    block.received.push((n.to_owned(), v.to_owned()));
                }
            }
        }
        blocks.push(block);
    }
    let mut verdict = BTreeMap::new();
    if let Some((_, tail)) = text.split_once("verdict\n") {
        for line in tail.lines().take_while(|l| !l.starts_with("findings")) {
            let (key, value) = line.trim_start().split_once(':').unwrap();
            verdict.insert(key.to_owned(), value.trim().to_owned());
        }
    }
    Output {
        blocks,
        verdict,
        text: text.to_owned(),
    }
}

/// Runs `mcpcensus check TARGET -o FILE` against the web with `extra` flags.
async fn check(web: &SimWeb, target: &str, extra: &[&str]) -> (ExitCode, Output) {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let (ca, out) = (path("ca.pem"), path("out.txt"));
    web.write_ca_pem(&ca).unwrap();
    let dns = web.dns_addr().to_string();
    let mut args = vec![
        "check",
        target,
        "-o",
        &out,
        "--resolver",
        &dns,
        "--ca-file",
        &ca,
        "--allow-net",
        "127.0.0.0/8",
        "--per-host-rps",
        "20",
        "--quiet",
    ];
    args.extend(extra);
    let code = mcpcensus(&args).await.unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    // `check` never writes a store: the output file is all it leaves.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    (code, parse(&text))
}

/// The verdict `check` printed agrees with the crawl's record.
fn assert_same_verdict(out: &Output, record: &Record) {
    let v = &out.verdict;
    let dash = |s: Option<&str>| s.unwrap_or("-").to_owned();
    assert_eq!(v["outcome"], record.outcome.as_str(), "{}", out.text);
    assert_eq!(v["reason"], record.outcome_reason, "{}", out.text);
    assert_eq!(v["defect"], if record.defect { "yes" } else { "no" });
    assert_eq!(v["endpoint"], dash(record.endpoint.as_deref()));
    assert_eq!(
        v["discovered_via"],
        dash(record.discovered_via.map(|d| d.as_str()))
    );
    assert_eq!(
        v["protocol_version"],
        dash(record.protocol_version.as_deref())
    );
    if !record.tool_names.is_empty() {
        assert_eq!(v["tool_names"], record.tool_names.join(", "));
    }
}

/// Each block names the request the server received at the same position, and every header
/// it says was sent arrived as shown.
fn assert_blocks_match_the_server(web: &SimWeb, blocks: &[Block], seen: &[RecordedRequest]) {
    assert_eq!(blocks.len(), seen.len(), "{blocks:#?}");
    for (block, req) in blocks.iter().zip(seen) {
        assert_eq!(block.method, req.method);
        assert_eq!(block.url, web.url(&req.host, &req.path));
        for (name, value) in &block.sent {
            assert_eq!(
                req.header(name),
                Some(value.as_str()),
                "{name} on {} {}",
                block.method,
                block.url
            );
        }
        // The client's own headers are shown too.
        assert!(block.sent("user-agent").is_some(), "{}", block.text);
        assert_eq!(block.sent("accept-encoding"), Some("identity"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explain_shows_discovery_then_the_session_as_sent() {
    let server = McpServer::python_stateful().tools_named(&["search_docs", "get_page"]);
    let web = SimWeb::builder()
        .site(
            Site::new("linked.test")
                .route(
                    "/",
                    Reply::html("<html>docs</html>").header("link", "</mcp>; rel=\"mcp\""),
                )
                .mcp("/mcp", &server),
        )
        .start()
        .await
        .unwrap();
    let (code, out) = check(&web, &web.input("linked.test"), &["--explain"]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    // The audit's findings follow the verdict with their fix texts: only a Link header
    // names this server, so no discovery document is found.
    let findings = out
        .text
        .split_once("\nfindings\n")
        .map(|(_, f)| f)
        .unwrap_or("");
    assert!(findings.contains("MCP-DISC-001 [high]"), "{}", out.text);
    assert!(findings.contains("    fix: "), "{}", out.text);
    let seen = web.requests("linked.test");
    assert_blocks_match_the_server(&web, &out.blocks, &seen);

    // The discovery GETs first (homepage first, /mcp last), then the session's three POSTs,
    // then the discovery audit's `<endpoint>/server-card`.
    let split = out.blocks.iter().position(|b| b.method == "POST").unwrap();
    let (gets, rest) = out.blocks.split_at(split);
    let (posts, after) = rest.split_at(rest.len() - 1);
    assert_eq!(
        (after[0].method.as_str(), after[0].url.as_str()),
        ("GET", web.url("linked.test", "/mcp/server-card").as_str())
    );
    assert_eq!(after[0].purpose, "endpoint_server_card");
    assert!(gets.iter().all(|b| b.method == "GET"));
    // robots.txt is read before anything else (it decides what else may be fetched).
    assert_eq!(
        (
            gets[0].url.as_str(),
            gets[0].purpose.as_str(),
            gets[0].status
        ),
        (
            web.url("linked.test", "/robots.txt").as_str(),
            "robots",
            Some(404)
        )
    );
    assert!(out.text.contains("robots.txt: "), "{}", out.text);
    let gets = &gets[1..];
    assert_eq!(gets[0].url, web.url("linked.test", "/"));
    assert_eq!(gets[0].purpose, "home");
    assert_eq!(gets[0].received("link"), Some("</mcp>; rel=\"mcp\""));
    assert!(
        gets[0].text.contains("  < <html>docs</html>"),
        "{}",
        gets[0].text
    );
    // The MCP check's documents end with /mcp; the API and agent surface documents follow.
    let (mcp_get, surface) = gets.split_at(gets.len() - SURFACE_DOCUMENTS.len());
    let last = mcp_get.last().unwrap();
    assert_eq!(
        (last.url.as_str(), last.purpose.as_str()),
        (web.url("linked.test", "/mcp").as_str(), "mcp_path")
    );
    let asked: Vec<(&str, &str)> = surface
        .iter()
        .map(|b| (b.url.as_str(), b.purpose.as_str()))
        .collect();
    let want: Vec<(String, &str)> = SURFACE_DOCUMENTS
        .iter()
        .map(|(path, purpose)| (web.url("linked.test", path), *purpose))
        .collect();
    let want: Vec<(&str, &str)> = want.iter().map(|(u, p)| (u.as_str(), *p)).collect();
    assert_eq!(asked, want);
    for get in gets {
        assert_eq!(get.sent("accept"), Some(DISCOVERY_ACCEPT), "{}", get.text);
        assert_eq!(get.sent("accept-language"), Some("en"));
        assert!(get.status.is_some(), "{}", get.text);
    }
    let purposes: Vec<&str> = posts.iter().map(|b| b.purpose.as_str()).collect();
    assert_eq!(
        purposes,
        ["initialize", "notifications/initialized", "tools/list"]
    );
    let endpoint = web.url("linked.test", "/mcp");
    for post in posts {
        assert_eq!(post.url, endpoint);
        assert_eq!(post.sent("accept"), Some(SESSION_ACCEPT), "{}", post.text);
        assert_eq!(post.sent("content-type"), Some("application/json"));
        assert_eq!(post.sent("accept-language"), Some("en"));
    }
    let [init, note, list] = posts else {
        panic!("three POSTs: {posts:#?}")
    };
    assert_eq!(init.sent("mcp-protocol-version"), None, "{}", init.text);
    assert_eq!(init.sent("mcp-session-id"), None);
    assert!(init.body_sent[0].contains("\"method\":\"initialize\""));
    assert!(init.body_sent[0].contains("\"protocolVersion\":\"2025-11-25\""));
    assert_eq!(init.status, Some(200));
    let session = init
        .received("mcp-session-id")
        .expect("a session id issued");
    for later in [note, list] {
        assert_eq!(
            later.sent("mcp-session-id"),
            Some(session),
            "{}",
            later.text
        );
        assert_eq!(later.sent("mcp-protocol-version"), Some("2025-11-25"));
    }
    assert!(note.text.contains("(body not read)"), "{}", note.text);
    assert!(list.text.contains("search_docs"), "{}", list.text);

    assert_eq!(out.verdict["outcome"], "pass", "{}", out.text);
    assert_eq!(out.verdict["tool_names"], "search_docs, get_page");

    // Without --explain: the verdict alone, and the same one.
    let (_, plain) = check(&web, &web.input("linked.test"), &[]).await;
    assert!(plain.blocks.is_empty(), "{}", plain.text);
    assert!(plain.text.starts_with("verdict\n"), "{}", plain.text);

    // A crawl of the same site records the same verdict.
    let crawl = WebCrawl::new();
    let (_, _, records) = crawl
        .run(
            &web,
            &[web.input("linked.test")],
            true,
            &["--per-host-rps", "20"],
        )
        .await;
    let record = record_for(&records, &web.origin("linked.test"));
    assert_same_verdict(&out, record);
    assert_same_verdict(&plain, record);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_shows_its_location_and_is_not_followed() {
    let server = McpServer::python_stateful().fault_on(
        "initialize",
        Fault::Redirect(307, "https://elsewhere.test/mcp".into()),
    );
    let web = SimWeb::builder()
        .site(
            Site::new("hop.test")
                .route(
                    "/",
                    Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\""),
                )
                .mcp("/mcp", &server),
        )
        .site(Site::new("moved.test").route("/", Reply::redirect(301, "https://www.moved.test/")))
        .site(Site::new("elsewhere.test").route("/", Reply::html("<html></html>")))
        .site(Site::new("www.moved.test").route("/", Reply::html("<html></html>")))
        .start()
        .await
        .unwrap();

    // At initialize: one POST, its Location shown, nothing more sent.
    let (code, hop) = check(&web, &web.input("hop.test"), &["--explain"]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert_blocks_match_the_server(&web, &hop.blocks, &web.requests("hop.test"));
    let posts: Vec<&Block> = hop.blocks.iter().filter(|b| b.method == "POST").collect();
    let [init] = posts[..] else {
        panic!("one POST: {}", hop.text)
    };
    assert_eq!(init.status, Some(307), "{}", init.text);
    assert_eq!(
        init.received("location"),
        Some("https://elsewhere.test/mcp")
    );
    assert!(
        init.text
            .contains("(redirect to https://elsewhere.test/mcp: not followed)"),
        "{}",
        init.text
    );
    assert_eq!(hop.verdict["outcome"], "not_measured", "{}", hop.text);

    // At the homepage: shown the same way; a Location on another port is another site, so
    // the homepage ends there (redirects within the site are followed: shapes.rs) and the
    // documents are asked of the scanned origin.
    let (code, moved) = check(&web, &web.input("moved.test"), &["--explain"]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert_blocks_match_the_server(&web, &moved.blocks, &web.requests("moved.test"));
    // After robots.txt (read first, a 404 here: everything allowed).
    assert_eq!(moved.blocks[0].purpose, "robots");
    let home = &moved.blocks[1];
    assert_eq!((home.purpose.as_str(), home.status), ("home", Some(301)));
    assert!(
        home.text
            .contains("(redirect to https://www.moved.test/: not followed)"),
        "{}",
        home.text
    );
    // robots.txt, the homepage, the four card paths, the catalog, /mcp, then the API and agent
    // surface documents.
    assert_eq!(moved.blocks.len(), 12, "{}", moved.text);
    assert_eq!(moved.blocks[7].purpose, "mcp_path", "{}", moved.text);
    let surface: Vec<&str> = moved.blocks[8..]
        .iter()
        .map(|b| b.purpose.as_str())
        .collect();
    let want: Vec<&str> = SURFACE_DOCUMENTS.iter().map(|(_, p)| *p).collect();
    assert_eq!(surface, want, "{}", moved.text);
    assert_eq!(moved.verdict["outcome"], "out_of_scope", "{}", moved.text);
    assert_eq!(
        moved.verdict["reason"],
        "out of scope: no document names an endpoint the scan opens, and /mcp answered without \
         signalling MCP; the homepage redirects to another site (https://www.moved.test/); not \
         followed",
        "{}",
        moved.text
    );
    assert!(web.requests("www.moved.test").is_empty());
    assert!(web.requests("elsewhere.test").is_empty());

    let crawl = WebCrawl::new();
    let inputs = [web.input("hop.test"), web.input("moved.test")];
    let (_, _, records) = crawl
        .run(&web, &inputs, true, &["--per-host-rps", "20"])
        .await;
    assert_same_verdict(&hop, record_for(&records, &web.origin("hop.test")));
    assert_same_verdict(&moved, record_for(&records, &web.origin("moved.test")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_input_prints_its_reason_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let out = out.to_str().unwrap();
    let code = mcpcensus(&["check", "http://a.test", "--explain", "-o", out])
        .await
        .unwrap();
    assert_eq!(code, ExitCode::from(1));
    let printed = parse(&std::fs::read_to_string(out).unwrap());
    assert!(printed.blocks.is_empty(), "{}", printed.text);
    assert_eq!(
        printed.verdict["outcome"], "invalid_input",
        "{}",
        printed.text
    );
    assert_eq!(printed.verdict["reason"], "http:// origins are not scanned");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_excluded_site_gets_no_request() {
    let web = SimWeb::builder()
        .site(Site::new("optout.test").route("/", Reply::html("<html></html>")))
        .start()
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("exclude.txt");
    std::fs::write(&list, "optout.test\n").unwrap();
    let list = list.to_str().unwrap();
    let (code, out) = check(
        &web,
        &web.input("optout.test"),
        &["--explain", "--exclude", list],
    )
    .await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(out.verdict["outcome"], "excluded", "{}", out.text);
    assert!(out.blocks.is_empty());
    assert_eq!(web.request_count("optout.test"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_prints_the_probe_classification() {
    let server = McpServer::ts_v1_stateful().n_tools(2);
    let web = SimWeb::builder()
        .site(
            Site::new("deep.test")
                .route(
                    "/",
                    Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\""),
                )
                .mcp("/mcp", &server),
        )
        .start()
        .await
        .unwrap();
    let (code, out) = check(&web, &web.input("deep.test"), &["--deep", "--explain"]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(out.verdict["transport"], "streamable_http", "{}", out.text);
    assert_eq!(out.verdict["spec_version"], "2025-11-25");
    assert_eq!(
        out.verdict["deprecated_features"],
        "initialize_only, sessions"
    );
    assert_eq!(out.verdict["migration_status"], "to_migrate");
    assert!(out.verdict["checklist"].starts_with("1. Implement server/discover"));
    assert!(out.verdict["checklist"].ends_with("3. Re-run the scan."));
    assert!(out.text.contains("SW-MCP-001 [high]"), "{}", out.text);
    // The probe's requests are in the transcript, after the session's.
    assert!(out
        .blocks
        .iter()
        .any(|b| b.purpose == "probe:server/discover"));
}
