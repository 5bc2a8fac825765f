//! "Not now" is not "no": a site whose `/mcp` answers 500 is not measured (never out of scope),
//! a site whose robots.txt answers 503 is not measured for the server's failure (never for its
//! rules), both get the second look, and the report counts the sites robots.txt kept out and
//! those each reading moved, the same from the embedded store and from ClickHouse.

use std::process::ExitCode;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::{FailureKind, Outcome, Record};

use crate::util::{mcpcensus, record_for, test_server_url, unique_db, WebCrawl};

fn plain(name: &str) -> Site {
    Site::new(name).route("/", Reply::html("<!doctype html><title>plain</title>"))
}

fn why(r: &Record) -> String {
    format!(
        "{:?}: {} ({:?})",
        r.outcome, r.outcome_reason, r.reason_kind
    )
}

async fn report(crawl: &WebCrawl, name: &str, source: &[&str]) -> serde_json::Value {
    let path = crawl.path(name);
    let mut argv = vec!["report"];
    argv.extend_from_slice(source);
    argv.extend_from_slice(&["--format", "json", "-o", &path]);
    assert_eq!(mcpcensus(&argv).await.unwrap(), ExitCode::SUCCESS);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_site_down_tonight_is_not_a_site_without_mcp() {
    let web = SimWeb::builder()
        .site(plain("down.test").route_method("GET", "/mcp", Reply::status(500)))
        .site(plain("gateway.test").route_method(
            "GET",
            "/mcp",
            Reply::html("bad gateway").with_status(502),
        ))
        .site(plain("failing.test").route("/robots.txt", Reply::status(503)))
        .site(plain("closed.test").route(
            "/robots.txt",
            Reply::bytes("text/plain", "User-agent: *\nDisallow: /\n"),
        ))
        .site(plain("absent.test"))
        .site(plain("slow.test").route_method(
            "GET",
            "/mcp",
            Reply::html("late").delay(std::time::Duration::from_secs(20)),
        ))
        .start()
        .await
        .unwrap();
    let names = [
        "down.test",
        "gateway.test",
        "failing.test",
        "closed.test",
        "absent.test",
        "slow.test",
    ];
    let inputs: Vec<String> = names.iter().map(|n| web.input(n)).collect();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl
        .run(&web, &inputs, true, &["--second-look-delay", "1s"])
        .await;
    assert_eq!(code, ExitCode::SUCCESS);
    let record = |host: &str| record_for(&records, &web.origin(host));

    for (host, kind) in [
        ("down.test", FailureKind::ServerError),
        ("gateway.test", FailureKind::ServerError),
        ("failing.test", FailureKind::ServerError),
        // /mcp's GET got no answer in its time: may pass, looked at again.
        ("slow.test", FailureKind::Timeout),
    ] {
        let r = record(host);
        assert_eq!(
            (r.outcome, r.reason_kind),
            (Outcome::NotMeasured, Some(kind)),
            "{host}: {}",
            why(r)
        );
        let first = r
            .first_look
            .as_ref()
            .unwrap_or_else(|| panic!("{host}: second look"));
        assert_eq!(first.outcome, Outcome::NotMeasured, "{host}");
    }
    assert!(
        record("failing.test")
            .outcome_reason
            .contains("robots.txt answered 503"),
        "{}",
        why(record("failing.test"))
    );
    // The site's own rules: kept out, no second look; a site without /mcp: out of scope.
    let closed = record("closed.test");
    assert_eq!(
        closed.reason_kind,
        Some(FailureKind::Robots),
        "{}",
        why(closed)
    );
    assert!(closed.first_look.is_none());
    let absent = record("absent.test");
    assert_eq!(absent.outcome, Outcome::OutOfScope, "{}", why(absent));

    let out = crawl.path("store");
    let from_store = report(&crawl, "store.json", &["--from", &out]).await;
    let run = &from_store["run"];
    assert_eq!(
        run["robots_kept_out"],
        serde_json::json!({"robots": 1, "server_error": 1})
    );
    assert_eq!(
        run["not_now_readings"],
        serde_json::json!({"mcp_get_not_now": 2, "robots_server_error": 1})
    );

    if let Some(url) = test_server_url() {
        let db = unique_db("notnow");
        let load = ["load", &out, "--clickhouse", &url, "--database", &db];
        assert_eq!(mcpcensus(&load).await.unwrap(), ExitCode::SUCCESS);
        let from_ch = report(
            &crawl,
            "ch.json",
            &["--clickhouse", &url, "--database", &db],
        )
        .await;
        assert_eq!(from_ch["run"], from_store["run"], "both back ends");
    }
    web.shutdown().await;
}

fn mcp_at(name: &str, path: &str) -> Site {
    Site::new(name)
        .route(
            "/",
            Reply::html("<html></html>").header("link", format!("<{path}>; rel=\"mcp\"")),
        )
        .mcp(path, &McpServer::new().tools_named(&["search"]))
}

/// `mcpcensus crawl` of `hosts` into `out` (kept between runs).
async fn crawl_into(web: &SimWeb, crawl: &WebCrawl, out: &str, hosts: &[&str]) {
    let list = crawl.path("list.txt");
    let lines: Vec<String> = hosts.iter().map(|h| web.input(h)).collect();
    std::fs::write(&list, lines.join("\n")).unwrap();
    let ca = crawl.path("ca.pem");
    web.write_ca_pem(&ca).unwrap();
    let dns = web.dns_addr().to_string();
    let argv = [
        "crawl",
        &list,
        "--quiet",
        "--out",
        out,
        "--resolver",
        &dns,
        "--ca-file",
        &ca,
        "--allow-net",
        "127.0.0.0/8",
        "--no-second-look",
    ];
    assert_eq!(mcpcensus(&argv).await.unwrap(), ExitCode::SUCCESS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_comparison_tells_down_from_gone_and_moved() {
    let hosts = [
        "stays.test",
        "moves.test",
        "down.test",
        "gone.test",
        "dropped.test",
    ];
    let mut builder = SimWeb::builder();
    for host in hosts {
        builder = builder.site(mcp_at(host, "/mcp"));
    }
    let web = builder.start().await.unwrap();
    let crawl = WebCrawl::new();
    let out = crawl.path("store");
    crawl_into(&web, &crawl, &out, &hosts).await;
    let store = mcpcensus_store::Store::open(&out).unwrap();
    let first = store.latest_run().unwrap().unwrap().run_id;
    drop(store);
    // The night after: one endpoint moved, one site down (its robots.txt answers 503), one
    // server gone, and one site left out of the list.
    web.add_site(mcp_at("moves.test", "/v2/mcp")).unwrap();
    web.add_site(mcp_at("down.test", "/mcp").route("/robots.txt", Reply::status(503)))
        .unwrap();
    web.add_site(plain("gone.test")).unwrap();
    crawl_into(&web, &crawl, &out, &hosts[..4]).await;

    let compare = ["--from", out.as_str(), "--compare", first.as_str()];
    let from_store = report(&crawl, "cmp.json", &compare).await;
    let c = &from_store["comparison"];
    let origin = |h: &str| serde_json::json!([web.origin(h)]);
    assert_eq!(c["endpoints_still_there"], 1, "{c:#}");
    assert_eq!(
        (&c["endpoints_moved_count"], &c["endpoints_moved"]),
        (&serde_json::json!(1), &origin("moves.test"))
    );
    assert_eq!(
        (
            &c["endpoints_unavailable_count"],
            &c["endpoints_unavailable"]
        ),
        (&serde_json::json!(1), &origin("down.test"))
    );
    assert_eq!(
        (&c["vanished_endpoint_count"], &c["vanished_endpoints"]),
        (&serde_json::json!(1), &origin("gone.test"))
    );
    assert_eq!(
        (
            &c["endpoints_not_scanned_count"],
            &c["endpoints_not_scanned"]
        ),
        (&serde_json::json!(1), &origin("dropped.test"))
    );

    if let Some(url) = test_server_url() {
        let db = unique_db("downgone");
        let load = ["load", &out, "--clickhouse", &url, "--database", &db];
        assert_eq!(mcpcensus(&load).await.unwrap(), ExitCode::SUCCESS);
        let ch = [
            "--clickhouse",
            url.as_str(),
            "--database",
            db.as_str(),
            "--compare",
            first.as_str(),
        ];
        let from_ch = report(&crawl, "cmp-ch.json", &ch).await;
        assert_eq!(
            from_ch["comparison"], from_store["comparison"],
            "both back ends"
        );
    }
    web.shutdown().await;
}
