//! `mcpcensus report` over a store with two crawls of a simulated web.

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};

use crate::util::{mcpcensus, WebCrawl};

/// Two crawls of a small simulated web into one embedded store.
pub struct TwoRuns {
    pub web: SimWeb,
    pub crawl: WebCrawl,
    /// The store directory.
    pub out: String,
    /// The first run's id (the second is the store's latest).
    pub first: String,
}

/// Crawls a.test (two tools), b.test (one tool), plain.test (no MCP) and an invalid line;
/// then b.test takes its server down and a.test adds a tool, and the same list is crawled
/// again.
pub async fn crawl_two_runs() -> TwoRuns {
    let page = || Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\"");
    let web = SimWeb::builder()
        .site(
            Site::new("a.test")
                .route("/", page())
                .mcp("/mcp", &McpServer::new().tools_named(&["search", "fetch"])),
        )
        .site(
            Site::new("b.test")
                .route("/", page())
                .mcp("/mcp", &McpServer::new().tools_named(&["search"])),
        )
        .site(Site::new("plain.test").route("/", Reply::html("<html>no</html>")))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let list = crawl.path("list.txt");
    std::fs::write(
        &list,
        ["a.test", "b.test", "plain.test"]
            .map(|h| web.input(h))
            .join("\n")
            + "\nnot a site\n",
    )
    .unwrap();
    let ca = crawl.path("ca.pem");
    web.write_ca_pem(&ca).unwrap();
    let out = crawl.path("store");
    let dns = web.dns_addr().to_string();
    let args = [
        "crawl",
        &list,
        "--quiet",
        "--out",
        &out,
        "--resolver",
        &dns,
        "--ca-file",
        &ca,
        "--allow-net",
        "127.0.0.0/8",
        "--per-host-rps",
        "20",
        "--per-host-burst",
        "20",
    ];
    mcpcensus(&args).await.unwrap();
    let store = mcpcensus_store::Store::open(&out).unwrap();
    let first = store.latest_run().unwrap().unwrap().run_id;
    // Between the runs b.test takes its server down and a.test adds a tool.
    web.remove_site("b.test");
    web.add_site(Site::new("b.test").route("/", Reply::html("<html>gone</html>")))
        .unwrap();
    web.remove_site("a.test");
    web.add_site(Site::new("a.test").route("/", page()).mcp(
        "/mcp",
        &McpServer::new().tools_named(&["search", "fetch", "buy"]),
    ))
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1100)); // distinct run ids
    mcpcensus(&args).await.unwrap();
    TwoRuns {
        web,
        crawl,
        out,
        first,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_counts_a_run_and_compares_it_with_the_previous_one() {
    let TwoRuns {
        web,
        crawl,
        out,
        first,
    } = crawl_two_runs().await;
    let json_path = crawl.path("report.json");
    mcpcensus(&[
        "report",
        "--from",
        &out,
        "--compare",
        &first,
        "--format",
        "json",
        "-o",
        &json_path,
    ])
    .await
    .unwrap();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let run = &report["run"];
    assert_eq!(run["sites_read"], 4);
    assert_eq!(run["sites_scanned"], 3);
    assert_eq!(run["endpoints"], 1);
    assert_eq!(run["outcomes"]["pass"]["count"], 1);
    assert_eq!(run["outcomes"]["invalid_input"]["count"], 1);
    assert_eq!(run["tool_counts"]["max"], 3);
    assert_eq!(run["endpoints_by_method"]["link_header"], 1);
    let c = &report["comparison"];
    assert_eq!(c["endpoints_delta"], -1);
    assert_eq!(c["vanished_endpoints"][0], web.origin("b.test"));
    assert_eq!(c["changed_tool_lists"][0], web.origin("a.test"));
    assert_eq!(c["outcome_transitions"][0]["from"], "pass");
    assert_eq!(c["outcome_transitions"][0]["to"], "out_of_scope");
    let history = report["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["endpoints"], 2);
    assert_eq!(history[1]["endpoints"], 1);

    let html_path = crawl.path("report.html");
    mcpcensus(&[
        "report", "--from", &out, "--format", "html", "-o", &html_path,
    ])
    .await
    .unwrap();
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(
        html.contains("<rect class=\"bar\" data-label=\"pass\""),
        "{html}"
    );
    assert_eq!(html.matches("<figure").count(), 6);
}
