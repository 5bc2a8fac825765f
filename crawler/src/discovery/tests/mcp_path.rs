use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};

use crate::discovery::*;

fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.append(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    map
}

const JSON_RPC_ERROR: &str = r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Missing session ID"}}"#;

/// Name, status, headers, body, expected signal.
type Case = (
    &'static str,
    u16,
    Vec<(&'static str, &'static str)>,
    Option<&'static str>,
    McpSignal,
);

fn none(why: NoSignalReason) -> McpSignal {
    McpSignal::NoSignal { why }
}

#[test]
fn the_signal_table() {
    let cases: Vec<Case> = vec![
        (
            "405 + Allow: GET, POST",
            405,
            vec![("allow", "GET, POST")],
            None,
            McpSignal::AllowPost,
        ),
        (
            "405 + Allow in two lines, lower case",
            405,
            vec![("allow", "GET"), ("allow", "delete,post")],
            None,
            McpSignal::AllowPost,
        ),
        (
            "405 without Allow, JSON-RPC body",
            405,
            vec![("content-type", "application/json")],
            Some(
                r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed."},"id":null}"#,
            ),
            McpSignal::JsonRpc,
        ),
        (
            "405 without Allow, HTML",
            405,
            vec![("content-type", "text/html; charset=utf-8")],
            Some("<html>Method Not Allowed</html>"),
            none(NoSignalReason::Html),
        ),
        (
            "405 with Allow: GET only, no body",
            405,
            vec![("allow", "GET, HEAD")],
            Some(""),
            none(NoSignalReason::Empty),
        ),
        (
            "400 JSON-RPC error (Python SDK)",
            400,
            vec![("content-type", "application/json")],
            Some(JSON_RPC_ERROR),
            McpSignal::JsonRpc,
        ),
        (
            "400 text/html Missing session ID (TypeScript SDK)",
            400,
            vec![("content-type", "text/html")],
            Some("Bad Request: Missing session ID"),
            none(NoSignalReason::Html),
        ),
        (
            "200 event stream",
            200,
            vec![("content-type", "text/event-stream; charset=utf-8")],
            None,
            McpSignal::EventStream,
        ),
        (
            "401 with challenge and JSON-RPC body",
            401,
            vec![
                (
                    "www-authenticate",
                    r#"Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource""#,
                ),
                ("content-type", "application/json"),
            ],
            Some(JSON_RPC_ERROR),
            none(NoSignalReason::Unauthorized),
        ),
        (
            "404 with no body",
            404,
            vec![],
            Some(""),
            none(NoSignalReason::Empty),
        ),
        (
            "404 HTML page",
            404,
            vec![("content-type", "text/html")],
            None,
            none(NoSignalReason::Html),
        ),
        (
            "200 HTML page",
            200,
            vec![("content-type", "text/html")],
            Some("<!doctype html><title>Home</title>"),
            none(NoSignalReason::Html),
        ),
        (
            "200 JSON that is not JSON-RPC",
            200,
            vec![("content-type", "application/json")],
            Some(r#"{"name":"com.example/x","remotes":[]}"#),
            none(NoSignalReason::NotJsonRpc),
        ),
        (
            "200 JSON-RPC 1.0 shape",
            200,
            vec![("content-type", "application/json")],
            Some(r#"{"jsonrpc":"1.0","result":{}}"#),
            none(NoSignalReason::NotJsonRpc),
        ),
        (
            "200 jsonrpc 2.0 without result, error or method",
            200,
            vec![("content-type", "application/json")],
            Some(r#"{"jsonrpc":"2.0","id":1}"#),
            none(NoSignalReason::NotJsonRpc),
        ),
        (
            "JSON-RPC notification labelled text/plain",
            200,
            vec![("content-type", "text/plain")],
            Some(" {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n{\"trailing\":1}"),
            McpSignal::JsonRpc,
        ),
        (
            "HTML without a content type",
            200,
            vec![],
            Some("\n<!DOCTYPE html>"),
            none(NoSignalReason::Html),
        ),
        (
            "a redirect is not followed",
            307,
            vec![("location", "/mcp/"), ("content-type", "application/json")],
            Some(JSON_RPC_ERROR),
            none(NoSignalReason::Redirect),
        ),
        (
            "JSON cut off by the read limit",
            400,
            vec![("content-type", "application/json")],
            Some(r#"{"jsonrpc":"2.0","error":{"code":-3"#),
            none(NoSignalReason::NotJson),
        ),
    ];
    for (name, status, pairs, body, expected) in cases {
        let status = StatusCode::from_u16(status).unwrap();
        let got = judge_mcp_get(status, &headers(&pairs), body.map(str::as_bytes));
        assert_eq!(got, expected, "{name}");
        assert_eq!(got.signals(), expected.signals(), "{name}");
    }
}

#[test]
fn the_head_says_when_the_body_is_needed() {
    let ok = StatusCode::OK;
    assert_eq!(
        judge_mcp_head(ok, &headers(&[("content-type", "text/event-stream")])),
        HeadVerdict::Decided(McpSignal::EventStream)
    );
    assert_eq!(
        judge_mcp_head(ok, &headers(&[("content-type", "application/json")])),
        HeadVerdict::ReadBody
    );
    assert_eq!(judge_mcp_head(ok, &headers(&[])), HeadVerdict::ReadBody);
    assert_eq!(
        judge_mcp_head(
            StatusCode::UNAUTHORIZED,
            &headers(&[("content-type", "text/event-stream")])
        ),
        HeadVerdict::Decided(none(NoSignalReason::Unauthorized))
    );
    // A body was needed and none came.
    assert_eq!(
        judge_mcp_get(ok, &headers(&[("content-type", "application/json")]), None),
        none(NoSignalReason::BodyUnread)
    );
    assert_eq!(McpSignal::AllowPost.as_str(), "allow_post");
    assert_eq!(none(NoSignalReason::Unauthorized).as_str(), "unauthorized");
}
