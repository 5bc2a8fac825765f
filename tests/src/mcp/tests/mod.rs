//! Tests of the simulated MCP servers, talking to them over loopback with the self-test client.

mod auth;
mod faults;
mod get;
mod legacy;
mod modern;
mod proxy;
mod session;

use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use serde_json::{json, Value};

use super::{META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, PROTOCOL_2026};
use crate::selftest::client::{fetch, send, Answer, Proto};
use crate::{SimWeb, Site};

/// Starts a web with these sites.
async fn web(sites: impl IntoIterator<Item = Site>) -> SimWeb {
    SimWeb::builder().sites(sites).start().await.unwrap()
}

fn request(
    web: &SimWeb,
    method: &str,
    host: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Bytes,
) -> Request<Full<Bytes>> {
    let mut builder = Request::builder()
        .method(method)
        .uri(path)
        .header("host", format!("{host}:{}", web.port()));
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder.body(Full::new(body)).unwrap()
}

/// POSTs a JSON-RPC message the way MCP clients do (both Accept types, JSON content type).
async fn post(
    web: &SimWeb,
    host: &str,
    path: &str,
    body: &Value,
    extra: &[(&str, &str)],
) -> Answer {
    post_via(web, host, path, body, extra, Proto::H1).await
}

async fn post_via(
    web: &SimWeb,
    host: &str,
    path: &str,
    body: &Value,
    extra: &[(&str, &str)],
    proto: Proto,
) -> Answer {
    let mut headers = vec![
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
    ];
    headers.extend_from_slice(extra);
    let req = request(
        web,
        "POST",
        host,
        path,
        &headers,
        Bytes::from(body.to_string()),
    );
    fetch(web, host, req, proto).await.unwrap()
}

/// Sends any request and collects the answer.
async fn call(
    web: &SimWeb,
    method: &str,
    host: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let req = request(
        web,
        method,
        host,
        path,
        headers,
        Bytes::from(body.to_string()),
    );
    fetch(web, host, req, Proto::H1).await.unwrap()
}

/// Sends a request and returns the response with its body unread.
async fn open(
    web: &SimWeb,
    method: &str,
    host: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> Response<Incoming> {
    let req = request(web, method, host, path, headers, Bytes::new());
    send(web, host, req, Proto::H1).await.unwrap()
}

/// Reads a body until `done` holds for the text so far (or 5 s pass).
async fn read_until(body: &mut Incoming, text: &mut String, done: impl Fn(&str) -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !done(text) {
        let frame = tokio::time::timeout_at(deadline, body.frame())
            .await
            .expect("stream went quiet")
            .expect("stream ended")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
    }
}

/// One parsed server-sent event.
#[derive(Debug, Default, PartialEq, Eq)]
struct Event {
    event: Option<String>,
    id: Option<String>,
    data: String,
}

/// Parses an event stream (LF or CRLF), skipping comments.
fn events(text: &str) -> Vec<Event> {
    let text = text.replace("\r\n", "\n");
    text.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .filter_map(|block| {
            let mut event = Event::default();
            let mut any = false;
            for line in block.lines() {
                let (field, value) = line.split_once(':').unwrap_or((line, ""));
                let value = value.strip_prefix(' ').unwrap_or(value);
                match field {
                    "event" => event.event = Some(value.into()),
                    "id" => event.id = Some(value.into()),
                    "data" => {
                        if any {
                            event.data.push('\n');
                        }
                        event.data.push_str(value);
                        any = true;
                    }
                    _ => {}
                }
            }
            (any || event.event.is_some()).then_some(event)
        })
        .collect()
}

/// The JSON-RPC message an answer carries: the JSON body, or the first event-stream message
/// with an `id`.
fn rpc(answer: &Answer) -> Value {
    let content_type = answer
        .headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if content_type.starts_with("text/event-stream") {
        events(&answer.text())
            .iter()
            .filter(|e| !e.data.is_empty())
            .map(|e| serde_json::from_str::<Value>(&e.data).unwrap())
            .find(|m| m.get("id").is_some())
            .expect("an answer in the stream")
    } else {
        serde_json::from_slice(&answer.body).unwrap()
    }
}

fn header<'a>(answer: &'a Answer, name: &str) -> Option<&'a str> {
    answer.headers.get(name).and_then(|v| v.to_str().ok())
}

fn initialize(id: i64, version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "simweb-test", "version": "0"}
    }})
}

fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}

fn tools_list(id: i64, cursor: Option<&str>) -> Value {
    let params = match cursor {
        Some(c) => json!({"cursor": c}),
        None => json!({}),
    };
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params})
}

/// A 2026-07-28 request with the `_meta` envelope.
fn modern(id: i64, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        META_PROTOCOL_VERSION: PROTOCOL_2026,
        META_CLIENT_CAPABILITIES: {},
        META_CLIENT_INFO: {"name": "simweb-test", "version": "0"}
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn names(result: &Value) -> Vec<String> {
    result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}
