//! GET on the endpoint as each SDK answers it, and the Host-header guards.

use std::time::Duration;

use http_body_util::BodyExt;

use super::*;
use crate::mcp::{GetStyle, HostGuard, McpServer};

const BROWSER_ACCEPT: &str = "text/html,application/xhtml+xml,*/*;q=0.7";

#[tokio::test]
async fn the_simple_get_styles() {
    let web = web([
        Site::new("g.test").mcp("/mcp", &McpServer::new()),
        Site::new("tss.test").mcp("/mcp", &McpServer::ts_v1_stateful()),
        Site::new("tsl.test").mcp("/mcp", &McpServer::ts_v1_stateless()),
        Site::new("pys.test").mcp("/mcp", &McpServer::python_stateful()),
        Site::new("nf.test").mcp("/mcp", &McpServer::new().get_style(GetStyle::NotFound)),
    ])
    .await;
    let accept = [("accept", BROWSER_ACCEPT)];
    let generic = call(&web, "GET", "g.test", "/mcp", &accept, "").await;
    assert_eq!(
        (generic.status, header(&generic, "allow")),
        (405, Some("POST"))
    );

    let ts_stateful = call(&web, "GET", "tss.test", "/mcp", &accept, "").await;
    assert_eq!(ts_stateful.status, 400);
    assert!(header(&ts_stateful, "content-type")
        .unwrap()
        .starts_with("text/html"));
    assert_eq!(ts_stateful.text(), "Missing session ID");

    let ts_stateless = call(&web, "GET", "tsl.test", "/mcp", &accept, "").await;
    assert_eq!(ts_stateless.status, 405);
    assert!(header(&ts_stateless, "allow").is_none());
    assert_eq!(rpc(&ts_stateless)["jsonrpc"], "2.0");

    let py_stateful = call(&web, "GET", "pys.test", "/mcp", &accept, "").await;
    assert_eq!(py_stateful.status, 400);
    assert_eq!(rpc(&py_stateful)["error"]["code"], -32600);
    assert_eq!(
        header(&py_stateful, "mcp-session-id").map(str::len),
        Some(32)
    );

    assert_eq!(
        call(&web, "GET", "nf.test", "/mcp", &accept, "")
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn python_stateless_get_is_an_endless_stream_and_can_be_held_back() {
    let web = web([
        Site::new("py.test").mcp("/mcp", &McpServer::python_stateless()),
        Site::new("held.test").mcp(
            "/mcp",
            &McpServer::python_stateless().get_style(GetStyle::HeldBack),
        ),
    ])
    .await;
    let response = open(
        &web,
        "GET",
        "py.test",
        "/mcp",
        &[("accept", BROWSER_ACCEPT)],
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.into_body();
    assert!(
        tokio::time::timeout(Duration::from_millis(300), body.frame())
            .await
            .is_err(),
        "the stream stays open and quiet"
    );
    let refused = call(
        &web,
        "GET",
        "py.test",
        "/mcp",
        &[("accept", "text/html")],
        "",
    )
    .await;
    assert_eq!(refused.status, 406);

    let held = tokio::time::timeout(
        Duration::from_millis(300),
        open(
            &web,
            "GET",
            "held.test",
            "/mcp",
            &[("accept", BROWSER_ACCEPT)],
        ),
    )
    .await;
    assert!(held.is_err(), "headers never arrive");
}

#[tokio::test]
async fn a_live_session_gets_a_stream_on_get() {
    let server = McpServer::ts_v1_stateful();
    let web = web([Site::new("s.test").mcp("/mcp", &server)]).await;
    let init = post(&web, "s.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await;
    let session = header(&init, "mcp-session-id").unwrap().to_string();
    let response = open(
        &web,
        "GET",
        "s.test",
        "/mcp",
        &[
            ("accept", "text/event-stream"),
            ("mcp-session-id", &session),
        ],
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    assert_eq!(server.calls().last().unwrap().http_method, "GET");
}

#[tokio::test]
async fn host_guards() {
    let web = web([
        Site::new("py.test").mcp(
            "/mcp",
            &McpServer::python_stateless().host_guard(HostGuard::python()),
        ),
        Site::new("ts.test").mcp(
            "/mcp",
            &McpServer::ts_v1_stateless().host_guard(HostGuard::typescript()),
        ),
        Site::new("ok.test").mcp(
            "/mcp",
            &McpServer::new().host_guard(HostGuard::python().allow("ok.test:*")),
        ),
    ])
    .await;
    let py = post(&web, "py.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await;
    assert_eq!(
        (py.status, py.text().as_str()),
        (421, "Invalid Host header")
    );
    let ts = post(&web, "ts.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await;
    assert_eq!(ts.status, 403);
    assert_eq!(rpc(&ts)["error"]["message"], "Invalid Host: ts.test");
    let ok = post(&web, "ok.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await;
    assert_eq!(ok.status, 200);
    let origin = post(
        &web,
        "ok.test",
        "/mcp",
        &initialize(1, "2025-11-25"),
        &[("origin", "https://evil.test")],
    )
    .await;
    assert_eq!(origin.status, 403);
}
