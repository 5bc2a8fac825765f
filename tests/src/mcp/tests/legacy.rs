//! The legacy HTTP+SSE transport end to end.

use serde_json::json;

use super::*;
use crate::mcp::{LegacySseServer, McpServer};

#[tokio::test]
async fn endpoint_event_post_and_answer_on_the_stream() {
    let legacy = LegacySseServer::new(
        McpServer::new()
            .protocol("2024-11-05")
            .tools_named(&["search"]),
    );
    let web = web([Site::new("old.test").legacy_sse("/sse", &legacy)]).await;

    let response = open(
        &web,
        "GET",
        "old.test",
        "/sse",
        &[("accept", "text/event-stream")],
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.into_body();
    let mut text = String::new();
    read_until(&mut body, &mut text, |t| t.contains("\n\n")).await;
    let first = &events(&text)[0];
    assert_eq!(first.event.as_deref(), Some("endpoint"));
    let uri = first.data.clone();
    assert!(uri.starts_with("/messages?sessionId="), "{uri}");
    assert_eq!(legacy.open_streams(), 1);

    let accepted = post(&web, "old.test", &uri, &initialize(1, "2025-11-25"), &[]).await;
    assert_eq!(
        (accepted.status, accepted.text().as_str()),
        (202, "Accepted")
    );
    read_until(&mut body, &mut text, |t| events(t).len() >= 2).await;
    let init = &events(&text)[1];
    assert_eq!(init.event.as_deref(), Some("message"));
    let init: Value = serde_json::from_str(&init.data).unwrap();
    assert_eq!(init["id"], 1);
    assert_eq!(init["result"]["protocolVersion"], "2024-11-05");

    assert_eq!(
        post(&web, "old.test", &uri, &initialized(), &[])
            .await
            .status,
        202
    );
    assert_eq!(
        post(&web, "old.test", &uri, &tools_list(2, None), &[])
            .await
            .status,
        202
    );
    read_until(&mut body, &mut text, |t| events(t).len() >= 3).await;
    let list: Value = serde_json::from_str(&events(&text)[2].data).unwrap();
    assert_eq!(list["id"], 2);
    assert_eq!(list["result"]["tools"][0]["name"], "search");
    assert_eq!(
        web.rpc_methods("old.test"),
        ["initialize", "notifications/initialized", "tools/list"]
    );

    let refused = post(&web, "old.test", "/sse", &initialize(1, "2025-11-25"), &[]).await;
    assert_eq!(refused.status, 405);
    let unknown = post(
        &web,
        "old.test",
        "/messages?sessionId=nope",
        &json!({}),
        &[],
    )
    .await;
    assert_eq!(unknown.status, 404);
    let missing = post(&web, "old.test", "/messages", &json!({}), &[]).await;
    assert_eq!(missing.status, 400);

    drop(body);
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    while legacy.open_streams() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(legacy.open_streams(), 0);
    assert_eq!(
        post(&web, "old.test", &uri, &tools_list(3, None), &[])
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn absolute_endpoint_and_delayed_answers() {
    let legacy = LegacySseServer::new(McpServer::new())
        .messages_path("/rpc")
        .endpoint_base("https://old.test/rpc")
        .answer_delay(std::time::Duration::from_millis(50));
    let web = web([Site::new("old.test").legacy_sse("/events", &legacy)]).await;
    let mut body = open(&web, "GET", "old.test", "/events", &[])
        .await
        .into_body();
    let mut text = String::new();
    read_until(&mut body, &mut text, |t| t.contains("\n\n")).await;
    let uri = events(&text)[0].data.clone();
    assert!(uri.starts_with("https://old.test/rpc?sessionId="));
    let path = uri.trim_start_matches("https://old.test");
    assert_eq!(
        post(&web, "old.test", path, &tools_list(7, None), &[])
            .await
            .status,
        202
    );
    read_until(&mut body, &mut text, |t| events(t).len() >= 2).await;
    let answer: Value = serde_json::from_str(&events(&text)[1].data).unwrap();
    assert_eq!(answer["id"], 7);
}
