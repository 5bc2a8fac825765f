//! The 2026-07-28 dialect: server/discover, the envelope checks, pagination, refusals.

use serde_json::json;

use super::*;
use crate::mcp::{
    McpServer, HEADER_MISMATCH, META_SERVER_INFO, PROTOCOL_2026, UNSUPPORTED_PROTOCOL_VERSION,
};

fn modern_headers(method: &str) -> [(&str, &str); 2] {
    [
        ("mcp-protocol-version", PROTOCOL_2026),
        ("mcp-method", method),
    ]
}

#[tokio::test]
async fn discover_then_paginated_tools_list() {
    let server = McpServer::modern_only()
        .n_tools(25)
        .page_size(10)
        .instructions("Weather tools");
    let web = web([Site::new("m.test").mcp("/mcp", &server)]).await;
    let found = post(
        &web,
        "m.test",
        "/mcp",
        &modern(1, "server/discover", json!({})),
        &modern_headers("server/discover"),
    )
    .await;
    assert_eq!(found.status, 200);
    let result = &rpc(&found)["result"];
    assert_eq!(result["supportedVersions"], json!([PROTOCOL_2026]));
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["ttlMs"], 3_600_000);
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["_meta"][META_SERVER_INFO]["name"], "modern-only");
    assert_eq!(result["instructions"], "Weather tools");
    assert!(result["capabilities"]["tools"].is_object());

    let mut all = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0.. {
        let body = match &cursor {
            Some(c) => modern(2 + page, "tools/list", json!({"cursor": c})),
            None => modern(2 + page, "tools/list", json!({})),
        };
        let answer = post(&web, "m.test", "/mcp", &body, &modern_headers("tools/list")).await;
        assert_eq!(answer.status, 200);
        let result = rpc(&answer)["result"].clone();
        assert_eq!(result["resultType"], "complete");
        assert!(result["ttlMs"].is_u64());
        assert_eq!(result["cacheScope"], "public");
        all.extend(names(&result));
        cursor = result
            .get("nextCursor")
            .and_then(|c| c.as_str())
            .map(str::to_string);
        if cursor.is_none() {
            assert_eq!(page, 2);
            break;
        }
    }
    assert_eq!(all.len(), 25);
    assert_eq!(all[24], "tool_25");
    let bad = rpc(&post(
        &web,
        "m.test",
        "/mcp",
        &modern(9, "tools/list", json!({"cursor": "zzz"})),
        &modern_headers("tools/list"),
    )
    .await);
    assert_eq!(bad["error"]["code"], -32602);
}

#[tokio::test]
async fn a_2026_only_server_refuses_initialize() {
    let web = web([Site::new("m.test").mcp("/mcp", &McpServer::modern_only())]).await;
    let refused = post(&web, "m.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await;
    assert_eq!(refused.status, 400);
    let error = &rpc(&refused)["error"];
    assert_eq!(error["code"], UNSUPPORTED_PROTOCOL_VERSION);
    assert_eq!(error["data"]["supported"], json!([PROTOCOL_2026]));
    assert_eq!(error["data"]["requested"], "2025-11-25");
    let old_list = post(
        &web,
        "m.test",
        "/mcp",
        &tools_list(2, None),
        &[("mcp-protocol-version", "2025-11-25")],
    )
    .await;
    assert_eq!(old_list.status, 400);
    assert_eq!(
        rpc(&old_list)["error"]["code"],
        UNSUPPORTED_PROTOCOL_VERSION
    );
    assert_eq!(
        call(&web, "GET", "m.test", "/mcp", &[], "").await.status,
        405
    );
}

#[tokio::test]
async fn envelope_and_header_checks() {
    let web = web([Site::new("m.test").mcp("/mcp", &McpServer::modern_only())]).await;
    let discover = modern(1, "server/discover", json!({}));
    let no_header = post(
        &web,
        "m.test",
        "/mcp",
        &discover,
        &[("mcp-method", "server/discover")],
    )
    .await;
    assert_eq!(
        (no_header.status, rpc(&no_header)["error"]["code"].as_i64()),
        (400, Some(HEADER_MISMATCH))
    );
    let future = post(
        &web,
        "m.test",
        "/mcp",
        &discover,
        &[
            ("mcp-protocol-version", "2099-01-01"),
            ("mcp-method", "server/discover"),
        ],
    )
    .await;
    assert_eq!(future.status, 400);
    assert_eq!(rpc(&future)["error"]["code"], UNSUPPORTED_PROTOCOL_VERSION);
    assert_eq!(rpc(&future)["error"]["data"]["requested"], "2099-01-01");
    let no_method = post(
        &web,
        "m.test",
        "/mcp",
        &discover,
        &[("mcp-protocol-version", PROTOCOL_2026)],
    )
    .await;
    assert_eq!(rpc(&no_method)["error"]["code"], HEADER_MISMATCH);
    let mut mismatched = discover.clone();
    mismatched["params"]["_meta"][crate::mcp::META_PROTOCOL_VERSION] = json!("2025-11-25");
    let mismatch = post(
        &web,
        "m.test",
        "/mcp",
        &mismatched,
        &modern_headers("server/discover"),
    )
    .await;
    assert_eq!(
        (mismatch.status, rpc(&mismatch)["error"]["code"].as_i64()),
        (400, Some(HEADER_MISMATCH))
    );
    let bare = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
    let no_meta = post(&web, "m.test", "/mcp", &bare, &modern_headers("tools/list")).await;
    assert_eq!(
        (no_meta.status, rpc(&no_meta)["error"]["code"].as_i64()),
        (400, Some(-32602))
    );

    let unknown = post(
        &web,
        "m.test",
        "/mcp",
        &modern(5, "ping", json!({})),
        &modern_headers("ping"),
    )
    .await;
    assert_eq!(unknown.status, 404);
    assert_eq!(rpc(&unknown)["error"]["code"], -32601);
    assert_eq!(rpc(&unknown)["id"], 5);
}

#[tokio::test]
async fn python_servers_speak_both_dialects_and_ts_v1_only_the_old_one() {
    let web = web([
        Site::new("py.test").mcp("/mcp", &McpServer::python_stateless()),
        Site::new("ts.test").mcp("/mcp", &McpServer::ts_v1_stateless()),
    ])
    .await;
    let discover = modern(1, "server/discover", json!({}));
    let py = post(
        &web,
        "py.test",
        "/mcp",
        &discover,
        &modern_headers("server/discover"),
    )
    .await;
    assert_eq!(py.status, 200);
    assert_eq!(
        rpc(&py)["result"]["supportedVersions"],
        json!([PROTOCOL_2026])
    );
    let py_init = rpc(&post(&web, "py.test", "/mcp", &initialize(2, "2025-11-25"), &[]).await);
    assert_eq!(py_init["result"]["protocolVersion"], "2025-11-25");

    let ts = post(
        &web,
        "ts.test",
        "/mcp",
        &discover,
        &modern_headers("server/discover"),
    )
    .await;
    assert_eq!(ts.status, 400);
    assert_eq!(rpc(&ts)["error"]["code"], -32000);
    let ts_plain = post(
        &web,
        "ts.test",
        "/mcp",
        &json!({"jsonrpc": "2.0", "id": 3, "method": "server/discover"}),
        &[],
    )
    .await;
    assert_eq!(ts_plain.status, 200);
    assert_eq!(rpc(&ts_plain)["error"]["code"], -32601);
}
