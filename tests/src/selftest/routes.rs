//! Routing and scripted replies: methods, patterns, defaults, JSON-RPC and redirects.

use bytes::Bytes;
use http::Request;
use http_body_util::Full;
use serde_json::{json, Value};

use super::client::{fetch, get, Answer, Proto};
use crate::{Reply, SimWeb, Site};

async fn call(web: &SimWeb, method: &str, path: &str, body: &str) -> Answer {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "m.test")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    fetch(web, "m.test", req, Proto::H1).await.unwrap()
}

async fn web() -> SimWeb {
    let mcp = Reply::jsonrpc(|call| {
        match call.method() {
        Some("initialize") => Reply::rpc_result(
            call.id_or_null(),
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "t", "version": "1"}}),
        )
        .header("mcp-session-id", "abc"),
        Some(_) if call.is_notification() => Reply::accepted(),
        _ => Reply::rpc_error(call.id_or_null(), -32601, "Method not found"),
    }
    });
    SimWeb::builder()
        .site(
            Site::new("m.test")
                .route("/mcp", Reply::text("any method"))
                .route_method("GET", "/mcp", Reply::status(405).header("allow", "POST"))
                .route_method("POST", "/mcp", mcp)
                .route("/.well-known/*", Reply::json(json!({"prefix": true})))
                .route("/q?v=2", Reply::text("query two"))
                .route("/old", Reply::redirect(301, "https://m.test/new"))
                .route(
                    "/echo",
                    Reply::handler(|req| Reply::text(format!("{} {}", req.method, req.path))),
                )
                .default(Reply::html("<html>soft 404</html>")),
        )
        .start()
        .await
        .unwrap()
}

#[tokio::test]
async fn method_specific_routes_win_over_any_method_routes() {
    let web = web().await;
    let get_mcp = call(&web, "GET", "/mcp", "").await;
    assert_eq!(get_mcp.status, 405);
    assert_eq!(get_mcp.headers["allow"], "POST");
    assert_eq!(call(&web, "DELETE", "/mcp", "").await.text(), "any method");
    assert_eq!(call(&web, "GET", "/mcp?x=1", "").await.status, 405);
}

#[tokio::test]
async fn jsonrpc_handlers_script_an_endpoint() {
    let web = web().await;
    let init = call(
        &web,
        "POST",
        "/mcp",
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
    )
    .await;
    assert_eq!(init.status, 200);
    assert_eq!(init.headers["mcp-session-id"], "abc");
    assert_eq!(init.headers["content-type"], "application/json");
    let body: Value = serde_json::from_slice(&init.body).unwrap();
    assert_eq!(body["id"], 1);
    assert_eq!(body["result"]["protocolVersion"], "2025-11-25");

    let note = call(
        &web,
        "POST",
        "/mcp",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert_eq!((note.status, note.body.len()), (202, 0));
    let unknown = call(
        &web,
        "POST",
        "/mcp",
        r#"{"jsonrpc":"2.0","id":"x","method":"nope"}"#,
    )
    .await;
    let body: Value = serde_json::from_slice(&unknown.body).unwrap();
    assert_eq!(body["error"]["code"], -32601);
    assert_eq!(body["id"], "x");
    let garbage = call(&web, "POST", "/mcp", "not json").await;
    assert_eq!(garbage.status, 400);
    let body: Value = serde_json::from_slice(&garbage.body).unwrap();
    assert_eq!(body["error"]["code"], -32700);
}

#[tokio::test]
async fn patterns_defaults_handlers_and_redirects() {
    let web = web().await;
    assert_eq!(
        get(&web, "m.test", "/.well-known/mcp.json")
            .await
            .unwrap()
            .text(),
        r#"{"prefix":true}"#
    );
    assert_eq!(
        get(&web, "m.test", "/q?v=2").await.unwrap().text(),
        "query two"
    );
    let soft = get(&web, "m.test", "/q?v=3").await.unwrap();
    assert_eq!(
        (soft.status, soft.text().as_str()),
        (200, "<html>soft 404</html>")
    );
    let moved = get(&web, "m.test", "/old").await.unwrap();
    assert_eq!(
        (moved.status, &moved.headers["location"]),
        (
            301,
            &"https://m.test/new".parse::<http::HeaderValue>().unwrap()
        )
    );
    assert_eq!(
        get(&web, "m.test", "/echo?a=b").await.unwrap().text(),
        "GET /echo?a=b"
    );
}

#[tokio::test]
async fn invalid_scripted_headers_become_a_500_not_a_panic() {
    let web = SimWeb::builder()
        .site(
            Site::new("bad.test")
                .route("/", Reply::text("x").header("bad header", "v"))
                .route("/s", Reply::status(1000)),
        )
        .start()
        .await
        .unwrap();
    assert_eq!(get(&web, "bad.test", "/").await.unwrap().status, 500);
    assert_eq!(get(&web, "bad.test", "/s").await.unwrap().status, 500);
}

#[tokio::test]
async fn the_demo_web_starts() {
    let web = crate::demo::demo_web().await.unwrap();
    assert_eq!(get(&web, "mcp.demo.test", "/").await.unwrap().status, 200);
    assert_eq!(
        get(&web, "other-ip.demo.test", "/").await.unwrap().status,
        200
    );
    web.shutdown().await;
}
