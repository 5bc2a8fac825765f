//! The survey end to end: discovery, the capped session and the verdict (first cases; the full
//! rule table lands with issue 4).

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::{DiscoveredVia, Outcome};

use crate::util::{record_for, WebCrawl};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn link_header_endpoint_passes_with_its_tools() {
    let server = McpServer::python_stateful().tools_named(&["search_docs", "get_page"]);
    let web = SimWeb::builder()
        .site(
            Site::new("linked.test")
                .route(
                    "/",
                    Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\""),
                )
                .mcp("/mcp", &server),
        )
        .site(Site::new("plain.test").route("/", Reply::html("<html>no mcp</html>")))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs = vec![web.input("linked.test"), web.input("plain.test")];
    let (_, _, records) = crawl
        .run(&web, &inputs, true, &["--per-host-rps", "20"])
        .await;

    let linked = record_for(&records, &web.origin("linked.test"));
    assert_eq!(linked.outcome, Outcome::Pass, "{}", linked.outcome_reason);
    assert_eq!(linked.discovered_via, Some(DiscoveredVia::LinkHeader));
    assert_eq!(
        linked.endpoint.as_deref(),
        Some(web.url("linked.test", "/mcp").as_str())
    );
    assert_eq!(linked.protocol_version.as_deref(), Some("2025-11-25"));
    assert!(linked.session_id_issued);
    assert!(!linked.defect);
    assert!(
        linked.tool_names.contains(&"search_docs".to_owned()),
        "{:?}",
        linked.tool_names
    );
    // At most the survey's three POSTs, and only its three methods.
    let posts = web
        .requests("linked.test")
        .iter()
        .filter(|r| r.method == "POST")
        .count();
    assert_eq!(posts, 3);
    assert_eq!(
        web.rpc_methods("linked.test"),
        ["initialize", "notifications/initialized", "tools/list"]
    );

    let plain = record_for(&records, &web.origin("plain.test"));
    assert_eq!(
        plain.outcome,
        Outcome::OutOfScope,
        "{}",
        plain.outcome_reason
    );
    assert_eq!(plain.endpoint, None);
    assert!(web.requests("plain.test").iter().all(|r| r.method == "GET"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_little_time_left_is_not_measured_and_sends_no_post() {
    let server = McpServer::new();
    let web = SimWeb::builder()
        .site(Site::new("late.test").mcp("/mcp", &server))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let (_, _, records) = crawl
        .run(
            &web,
            &[web.input("late.test")],
            true,
            &["--site-deadline", "8"],
        )
        .await;
    let late = record_for(&records, &web.origin("late.test"));
    assert_eq!(
        late.outcome,
        Outcome::NotMeasured,
        "{}",
        late.outcome_reason
    );
    assert!(
        late.outcome_reason.contains("too little time"),
        "{}",
        late.outcome_reason
    );
    assert!(web.requests("late.test").iter().all(|r| r.method == "GET"));
}
