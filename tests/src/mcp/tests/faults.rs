//! Faults injected per step.

use std::time::{Duration, Instant};

use super::*;
use crate::mcp::{Fault, McpServer};

#[tokio::test]
async fn status_html_redirect_and_body_faults() {
    let web = web([
        Site::new("f403.test").mcp(
            "/mcp",
            &McpServer::new().fault_on("initialize", Fault::Status(403)),
        ),
        Site::new("f429.test").mcp("/mcp", &McpServer::new().fault_on("*", Fault::Status(429))),
        Site::new("f401.test").mcp(
            "/mcp",
            &McpServer::new().fault_on(
                "initialize",
                Fault::Unauthorized("Bearer realm=\"x\"".into()),
            ),
        ),
        Site::new("html.test").mcp(
            "/mcp",
            &McpServer::new().fault_on("initialize", Fault::Html),
        ),
        Site::new("moved.test").mcp(
            "/mcp",
            &McpServer::new().fault_on(
                "initialize",
                Fault::Redirect(307, "https://elsewhere.test/mcp".into()),
            ),
        ),
        Site::new("rpc.test").mcp(
            "/mcp",
            &McpServer::new()
                .sse()
                .fault_on("tools/list", Fault::RpcError(-32603, "boom".into())),
        ),
        Site::new("junk.test").mcp(
            "/mcp",
            &McpServer::new().fault_on("initialize", Fault::NotJson),
        ),
        Site::new("big.test").mcp(
            "/mcp",
            &McpServer::new()
                .n_tools(5)
                .fault_on("tools/list", Fault::Oversized(100_000)),
        ),
    ])
    .await;
    let init = initialize(1, "2025-11-25");
    assert_eq!(
        post(&web, "f403.test", "/mcp", &init, &[]).await.status,
        403
    );
    let limited = post(&web, "f429.test", "/mcp", &init, &[]).await;
    assert_eq!(
        (limited.status, header(&limited, "retry-after")),
        (429, Some("30"))
    );
    let challenged = post(&web, "f401.test", "/mcp", &init, &[]).await;
    assert_eq!(
        header(&challenged, "www-authenticate"),
        Some("Bearer realm=\"x\"")
    );
    let html = post(&web, "html.test", "/mcp", &init, &[]).await;
    assert_eq!(html.status, 200);
    assert!(header(&html, "content-type")
        .unwrap()
        .starts_with("text/html"));
    let moved = post(&web, "moved.test", "/mcp", &init, &[]).await;
    assert_eq!(
        (moved.status, header(&moved, "location")),
        (307, Some("https://elsewhere.test/mcp"))
    );

    assert_eq!(post(&web, "rpc.test", "/mcp", &init, &[]).await.status, 200);
    let failed = post(&web, "rpc.test", "/mcp", &tools_list(2, None), &[]).await;
    assert_eq!(failed.status, 200);
    assert_eq!(rpc(&failed)["error"]["code"], -32603);

    let junk = post(&web, "junk.test", "/mcp", &init, &[]).await;
    assert_eq!(header(&junk, "content-type"), Some("application/json"));
    assert!(serde_json::from_slice::<Value>(&junk.body).is_err());

    let big = post(&web, "big.test", "/mcp", &tools_list(2, None), &[]).await;
    assert!(big.body.len() >= 100_000, "{}", big.body.len());
    assert_eq!(names(&rpc(&big)["result"]).len(), 5);
}

#[tokio::test]
async fn once_delay_and_get_faults() {
    let server = McpServer::new()
        .fault_once("tools/list", Fault::Status(503))
        .fault_on(
            "notifications/initialized",
            Fault::Delay(Duration::from_millis(300)),
        )
        .fault_on("GET", Fault::Status(500));
    let web = web([Site::new("f.test").mcp("/mcp", &server)]).await;
    assert_eq!(
        post(&web, "f.test", "/mcp", &tools_list(1, None), &[])
            .await
            .status,
        503
    );
    assert_eq!(
        post(&web, "f.test", "/mcp", &tools_list(2, None), &[])
            .await
            .status,
        200
    );
    let start = Instant::now();
    assert_eq!(
        post(&web, "f.test", "/mcp", &initialized(), &[])
            .await
            .status,
        202
    );
    assert!(start.elapsed() >= Duration::from_millis(300));
    assert_eq!(
        call(&web, "GET", "f.test", "/mcp", &[], "").await.status,
        500
    );
    let statuses: Vec<u16> = server.calls().iter().map(|c| c.status).collect();
    assert_eq!(statuses, [503, 200, 202, 500]);
}
