//! robots.txt at the final origin: after the homepage's redirect from the apex to `www`, the
//! robots.txt of `www` (read there, once) governs the discovery documents and `/mcp`, and the
//! record's robots section is that origin's.

use std::process::ExitCode;

use mcpcensus_simweb::shapes::Shape;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::{DiscoveredVia, Outcome};

use crate::util::{record_for, WebCrawl};

const ALLOW_ALL: &str = "User-agent: *\nDisallow:\n";
const NO_WELL_KNOWN: &str = "User-agent: *\nDisallow: /.well-known/\n";

/// An apex → `www` site with an MCP server at `www`, each origin with its own robots.txt.
fn site(host: &str, apex_robots: &str, www_robots: &str) -> Vec<Site> {
    let robots = |text: &str| Reply::bytes("text/plain", text.to_owned());
    let shaped = Shape::ApexToWww.build(host, true);
    let [apex, www] = <[Site; 2]>::try_from(shaped.sites).unwrap();
    vec![
        apex.route("/robots.txt", robots(apex_robots)),
        www.route("/robots.txt", robots(www_robots)),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_final_origins_robots_governs_discovery() {
    let web = SimWeb::builder()
        .sites(site("shut.test", ALLOW_ALL, NO_WELL_KNOWN))
        .sites(site("open.test", NO_WELL_KNOWN, ALLOW_ALL))
        .start()
        .await
        .unwrap();
    let inputs = [web.input("shut.test"), web.input("open.test")];
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl.run(&web, &inputs, true, &[]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    let well_known = |host: &str| {
        web.requests(host)
            .iter()
            .filter(|r| r.path.starts_with("/.well-known/"))
            .count()
    };
    let robots_reads = |host: &str| {
        web.requests(host)
            .iter()
            .filter(|r| r.path == "/robots.txt")
            .count()
    };

    // www disallows /.well-known/: no document there is requested; /mcp still finds the server.
    let shut = record_for(&records, &web.origin("shut.test"));
    assert_eq!(shut.outcome, Outcome::Pass, "{}", shut.outcome_reason);
    assert_eq!(shut.discovered_via, Some(DiscoveredVia::McpPath));
    assert_eq!(well_known("www.shut.test"), 0);
    let robots = shut.robots.as_ref().unwrap();
    assert_eq!(
        (robots.url.as_str(), robots.status, robots.verdict.as_str()),
        (
            web.url("www.shut.test", "/robots.txt").as_str(),
            Some(200),
            "rules"
        )
    );
    let skipped: Vec<String> = [
        "/.well-known/mcp/server-card.json",
        "/.well-known/mcp.json",
        "/.well-known/mcp-server-card.json",
        "/.well-known/mcp/server-card",
        "/.well-known/ai-catalog.json",
        "/.well-known/api-catalog",
        "/.well-known/agent-card.json",
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-authorization-server",
    ]
    .iter()
    .map(|p| web.url("www.shut.test", p))
    .collect();
    assert_eq!(robots.skipped, skipped);

    // The apex disallows /.well-known/ but the site lives at www, whose robots.txt allows all:
    // the card at www is read.
    let open = record_for(&records, &web.origin("open.test"));
    assert_eq!(open.outcome, Outcome::Pass, "{}", open.outcome_reason);
    assert_eq!(open.discovered_via, Some(DiscoveredVia::ServerCard));
    assert!(well_known("www.open.test") > 0);
    assert_eq!(well_known("open.test"), 0);
    let robots = open.robots.as_ref().unwrap();
    assert_eq!(robots.url, web.url("www.open.test", "/robots.txt"));
    assert!(robots.skipped.is_empty());

    // Each origin's robots.txt read once, before its first page.
    for host in ["shut.test", "www.shut.test", "open.test", "www.open.test"] {
        assert_eq!(robots_reads(host), 1, "{host}");
        assert_eq!(web.requests(host)[0].path, "/robots.txt", "{host}");
    }
    web.shutdown().await;
}
