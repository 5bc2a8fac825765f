//! The deep probe's readings that move a census's numbers: the fallback to `initialize` when
//! `server/discover` gets no answer, and `auth` `none` only over an answered tool list.

use mcpcensus_simweb::mcp::{Fault, McpServer};
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::{AuthKind, Transport};

use crate::util::{record_for, WebCrawl};

fn linked(host: &str, server: &McpServer) -> Site {
    let home = Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\"");
    Site::new(host).route("/", home).mcp("/mcp", server)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discover_without_answer_falls_back_and_auth_none_needs_a_tool_list() {
    let silent = McpServer::ts_v1_stateless()
        .n_tools(2)
        .fault_on("server/discover", Fault::Reset);
    let web = SimWeb::builder()
        .site(linked("silent-discover.test", &silent))
        .site(linked(
            "no-tools.test",
            &McpServer::ts_v1_stateless().no_tools_capability(),
        ))
        .start()
        .await
        .unwrap();
    let inputs = vec![
        web.input("silent-discover.test"),
        web.input("no-tools.test"),
    ];
    let crawl = WebCrawl::new();
    let (_, _, records) = crawl
        .run(
            &web,
            &inputs,
            true,
            &["--probe", "deep", "--per-host-rps", "50"],
        )
        .await;

    // No answer to server/discover: the probe went on with initialize and read the tools.
    let silent = record_for(&records, &web.origin("silent-discover.test"));
    assert_eq!(
        silent.transport,
        Some(Transport::StreamableHttp),
        "{silent:?}"
    );
    assert_eq!(silent.auth.as_ref().map(|a| a.kind), Some(AuthKind::None));
    let methods: Vec<String> = web
        .rpc_messages("silent-discover.test")
        .iter()
        .filter_map(|m| m["method"].as_str().map(str::to_owned))
        .collect();
    assert!(
        methods.iter().filter(|m| *m == "initialize").count() >= 2,
        "{methods:?}"
    );

    // It answered its handshake but listed no tools: whether it guards them is unknown.
    let no_tools = record_for(&records, &web.origin("no-tools.test"));
    assert_eq!(
        no_tools.auth.as_ref().map(|a| a.kind),
        Some(AuthKind::Unknown)
    );
    web.shutdown().await;
}
