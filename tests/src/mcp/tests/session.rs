//! 2025-era sessions: initialize, session ids, notifications, tools/list, framing.

use serde_json::json;

use super::*;
use crate::mcp::{McpServer, Tool};
use crate::selftest::client::Proto;

#[tokio::test]
async fn stateful_session_over_sse_with_priming_and_notifications() {
    let server = McpServer::ts_v1_stateful()
        .priming(true)
        .retry_ms(1000)
        .notify_before(json!({"jsonrpc": "2.0", "method": "notifications/message",
            "params": {"level": "info", "data": "hello"}}))
        .keep_alive_comments(2)
        .tools_named(&["search", "fetch"]);
    let web = web([Site::new("s.test").mcp("/mcp", &server)]).await;

    let init = post(&web, "s.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await;
    assert_eq!(init.status, 200);
    assert_eq!(header(&init, "content-type"), Some("text/event-stream"));
    let stream = events(&init.text());
    assert_eq!(
        stream[0],
        Event {
            event: None,
            id: Some("0".into()),
            data: String::new()
        }
    );
    assert!(init.text().starts_with("id: 0\nretry: 1000\ndata: \n\n"));
    assert_eq!(stream[1].event.as_deref(), Some("message"));
    assert_eq!(stream[1].id.as_deref(), Some("1"));
    assert!(init.text().contains(": keep-alive\n"));
    assert_eq!(stream.last().unwrap().id.as_deref(), Some("2"));
    let answer = rpc(&init);
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(answer["result"]["serverInfo"]["name"], "ts-v1-stateful");
    assert!(answer["result"]["capabilities"]["tools"].is_object());
    let session = header(&init, "mcp-session-id").unwrap().to_string();
    assert_eq!(session.len(), 32);
    assert_eq!(server.sessions(), vec![session.clone()]);

    let with_session = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let note = post(&web, "s.test", "/mcp", &initialized(), &with_session).await;
    assert_eq!((note.status, note.body.len()), (202, 0));
    let list = post(&web, "s.test", "/mcp", &tools_list(2, None), &with_session).await;
    assert_eq!(list.status, 200);
    assert_eq!(header(&list, "mcp-session-id"), Some(session.as_str()));
    assert_eq!(names(&rpc(&list)["result"]), ["search", "fetch"]);

    assert_eq!(
        web.rpc_methods("s.test"),
        ["initialize", "notifications/initialized", "tools/list"]
    );
    let calls = server.calls();
    assert_eq!(calls.len(), 3);
    assert_eq!(calls[2].session_id.as_deref(), Some(session.as_str()));
    assert_eq!(calls[2].protocol_header.as_deref(), Some("2025-11-25"));
    assert_eq!(server.count("tools/list"), 1);
}

#[tokio::test]
async fn python_stateful_answers_with_crlf_events_over_h2() {
    let server = McpServer::python_stateful().n_tools(3);
    let web = web([Site::new("py.test").mcp("/mcp", &server)]).await;
    let init = post_via(
        &web,
        "py.test",
        "/mcp",
        &initialize(1, "2025-11-25"),
        &[],
        Proto::H2,
    )
    .await;
    assert_eq!(init.version, http::Version::HTTP_2);
    assert!(init.text().starts_with("event: message\r\ndata: {"));
    let session = header(&init, "mcp-session-id").unwrap().to_string();
    let headers = [("mcp-session-id", session.as_str())];
    let list = post_via(
        &web,
        "py.test",
        "/mcp",
        &tools_list(2, None),
        &headers,
        Proto::H2,
    )
    .await;
    assert_eq!(
        names(&rpc(&list)["result"]),
        ["tool_01", "tool_02", "tool_03"]
    );
}

#[tokio::test]
async fn sessions_are_required_checked_and_ended() {
    let server = McpServer::new().stateful();
    let web = web([Site::new("s.test").mcp("/mcp", &server)]).await;
    let init = post(&web, "s.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await;
    assert_eq!(header(&init, "content-type"), Some("application/json"));
    let session = header(&init, "mcp-session-id").unwrap().to_string();

    let missing = post(&web, "s.test", "/mcp", &tools_list(2, None), &[]).await;
    assert_eq!(missing.status, 400);
    assert_eq!(
        rpc(&missing)["error"]["message"],
        "Bad Request: Mcp-Session-Id header is required"
    );
    let unknown = post(
        &web,
        "s.test",
        "/mcp",
        &tools_list(2, None),
        &[("mcp-session-id", "nope")],
    )
    .await;
    assert_eq!(unknown.status, 404);
    assert_eq!(rpc(&unknown)["error"]["code"], -32001);

    let headers = [("mcp-session-id", session.as_str())];
    assert_eq!(
        post(&web, "s.test", "/mcp", &tools_list(3, None), &headers)
            .await
            .status,
        200
    );
    assert_eq!(
        call(&web, "DELETE", "s.test", "/mcp", &headers, "")
            .await
            .status,
        200
    );
    let ended = post(&web, "s.test", "/mcp", &tools_list(4, None), &headers).await;
    assert_eq!(ended.status, 404);
}

#[tokio::test]
async fn stateless_json_issues_no_session() {
    let server = McpServer::ts_v1_stateless().tools([Tool::new("get_weather")
        .title("Weather")
        .description("Current weather")
        .read_only()]);
    let web = web([Site::new("j.test").mcp("/mcp", &server)]).await;
    let init = post(&web, "j.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await;
    assert_eq!(init.status, 200);
    assert_eq!(header(&init, "content-type"), Some("application/json"));
    assert!(header(&init, "mcp-session-id").is_none());
    let note = post(&web, "j.test", "/mcp", &initialized(), &[]).await;
    assert_eq!(note.status, 202);
    let list = rpc(&post(&web, "j.test", "/mcp", &tools_list(2, None), &[]).await);
    let tool = &list["result"]["tools"][0];
    assert_eq!(tool["title"], "Weather");
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert_eq!(tool["inputSchema"]["type"], "object");
    assert!(list["result"].get("nextCursor").is_none());
    assert_eq!(
        call(&web, "DELETE", "j.test", "/mcp", &[], "").await.status,
        405
    );
}

#[tokio::test]
async fn versions_are_negotiated_and_headers_checked() {
    let old = McpServer::new()
        .protocol("2025-03-26")
        .require_protocol_header();
    let web = web([Site::new("o.test").mcp("/mcp", &old)]).await;
    let init = rpc(&post(&web, "o.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await);
    assert_eq!(init["result"]["protocolVersion"], "2025-03-26");
    let echoed = rpc(&post(&web, "o.test", "/mcp", &initialize(1, "2024-11-05"), &[]).await);
    assert_eq!(echoed["result"]["protocolVersion"], "2024-11-05");

    let missing = post(&web, "o.test", "/mcp", &tools_list(2, None), &[]).await;
    assert_eq!(missing.status, 400);
    let wrong = post(
        &web,
        "o.test",
        "/mcp",
        &tools_list(2, None),
        &[("mcp-protocol-version", "2025-11-25")],
    )
    .await;
    assert_eq!(wrong.status, 400);
    assert!(rpc(&wrong)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("Unsupported protocol version"));
    let right = post(
        &web,
        "o.test",
        "/mcp",
        &tools_list(2, None),
        &[("mcp-protocol-version", "2025-03-26")],
    )
    .await;
    assert_eq!(right.status, 200);
}

#[tokio::test]
async fn resources_only_and_empty_servers() {
    let resources = McpServer::new().no_tools_capability();
    let empty = McpServer::new().empty_tools();
    let web = web([
        Site::new("r.test").mcp("/mcp", &resources),
        Site::new("e.test").mcp("/mcp", &empty),
    ])
    .await;
    let init = rpc(&post(&web, "r.test", "/mcp", &initialize(1, "2025-11-25"), &[]).await);
    let caps = &init["result"]["capabilities"];
    assert!(caps.get("tools").is_none());
    assert!(caps["resources"].is_object());
    let list = post(&web, "r.test", "/mcp", &tools_list(2, None), &[]).await;
    assert_eq!(list.status, 200);
    assert_eq!(rpc(&list)["error"]["code"], -32601);
    assert_eq!(resources.count("tools/list"), 1);
    let res = rpc(&post(
        &web,
        "r.test",
        "/mcp",
        &json!({"jsonrpc": "2.0", "id": 3, "method": "resources/list"}),
        &[],
    )
    .await);
    assert_eq!(res["result"]["resources"][0]["uri"], "file:///readme.txt");

    let list = rpc(&post(&web, "e.test", "/mcp", &tools_list(2, None), &[]).await);
    assert_eq!(list["result"]["tools"], json!([]));
}

#[tokio::test]
async fn accept_and_content_type_are_checked_like_the_sdks() {
    let web = web([Site::new("a.test").mcp("/mcp", &McpServer::new())]).await;
    let body = initialize(1, "2025-11-25").to_string();
    let no_sse = call(
        &web,
        "POST",
        "a.test",
        "/mcp",
        &[
            ("accept", "application/json"),
            ("content-type", "application/json"),
        ],
        &body,
    )
    .await;
    assert_eq!(no_sse.status, 406);
    let form = call(
        &web,
        "POST",
        "a.test",
        "/mcp",
        &[
            ("accept", "application/json, text/event-stream"),
            ("content-type", "text/plain"),
        ],
        &body,
    )
    .await;
    assert_eq!(form.status, 415);
    let garbage = call(
        &web,
        "POST",
        "a.test",
        "/mcp",
        &[
            ("accept", "application/json, text/event-stream"),
            ("content-type", "application/json"),
        ],
        "{not json",
    )
    .await;
    assert_eq!(garbage.status, 400);
    assert_eq!(rpc(&garbage)["error"]["code"], -32700);
    assert_eq!(
        call(&web, "PUT", "a.test", "/mcp", &[], "").await.status,
        405
    );
}
