//! Whether the plain GET of `/mcp` signals MCP (the survey): "405 with an Allow header that names
//! POST, a JSON-RPC 2.0 message, or an event stream. A 401 does not count, whatever its
//! challenge names." The GET is judged on its status and headers as soon as they arrive (a
//! stateless server's event stream never ends); the body is read only when they cannot decide.

use http::header::ALLOW;
use http::{HeaderMap, Method, StatusCode};
use serde_json::Value;

use super::document::{is_html_type, looks_like_html, media_type, trimmed};
use crate::net::json::check_depth;

/// Body bytes worth reading to find a JSON-RPC message (SDK error answers are ~150 bytes).
pub const MCP_PATH_BODY_LIMIT: usize = 16 * 1024;

const EVENT_STREAM: &str = "text/event-stream";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpSignal {
    /// 405 with an `Allow` naming POST.
    AllowPost,
    /// A JSON-RPC 2.0 message, whatever the status (the Python SDK's 400, the TypeScript
    /// SDK's 405 without `Allow`).
    JsonRpc,
    /// `Content-Type: text/event-stream`, whatever the status.
    EventStream,
    NoSignal {
        why: NoSignalReason,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoSignalReason {
    /// A 401, whatever its challenge or body: RFC 9728 has every protected resource answer so.
    Unauthorized,
    /// A 3xx: no redirect is followed.
    Redirect,
    /// An HTML page (including the TypeScript SDK's "Missing session ID").
    Html,
    Empty,
    NotJson,
    /// JSON, but not a JSON-RPC 2.0 message.
    NotJsonRpc,
    /// The headers could not decide and no body was given.
    BodyUnread,
    /// No answer at all (no response head: timeout, reset, refused connection, guard).
    NoAnswer,
    /// A 5xx or a 429 without an MCP message: the server said "not now", not "no"
    /// (docs/rules.md, "Not now is not no").
    NotNow,
}

impl McpSignal {
    pub fn signals(self) -> bool {
        !matches!(self, McpSignal::NoSignal { .. })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            McpSignal::AllowPost => "allow_post",
            McpSignal::JsonRpc => "json_rpc",
            McpSignal::EventStream => "event_stream",
            McpSignal::NoSignal { why } => why.as_str(),
        }
    }
}

impl NoSignalReason {
    pub fn as_str(self) -> &'static str {
        match self {
            NoSignalReason::Unauthorized => "unauthorized",
            NoSignalReason::Redirect => "redirect",
            NoSignalReason::Html => "html",
            NoSignalReason::Empty => "empty",
            NoSignalReason::NotJson => "not_json",
            NoSignalReason::NotJsonRpc => "not_json_rpc",
            NoSignalReason::BodyUnread => "body_unread",
            NoSignalReason::NoAnswer => "no_answer",
            NoSignalReason::NotNow => "not_now",
        }
    }
}

/// What the status and headers alone say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadVerdict {
    Decided(McpSignal),
    /// Read up to `MCP_PATH_BODY_LIMIT` bytes and call `judge_mcp_body`.
    ReadBody,
}

/// Judges the answer's head. Only an HTML type ends the judgment without the body: a
/// JSON-RPC message labelled `text/plain`, `application/octet-stream` or nothing still counts.
pub fn judge_mcp_head(status: StatusCode, headers: &HeaderMap) -> HeadVerdict {
    let no_signal = |why| HeadVerdict::Decided(McpSignal::NoSignal { why });
    if status == StatusCode::UNAUTHORIZED {
        return no_signal(NoSignalReason::Unauthorized);
    }
    if status.is_redirection() {
        return no_signal(NoSignalReason::Redirect);
    }
    if status == StatusCode::METHOD_NOT_ALLOWED && allows_post(headers) {
        return HeadVerdict::Decided(McpSignal::AllowPost);
    }
    match media_type(headers).as_deref() {
        Some(EVENT_STREAM) => HeadVerdict::Decided(McpSignal::EventStream),
        Some(kind) if is_html_type(kind) => no_signal(NoSignalReason::Html),
        _ => HeadVerdict::ReadBody,
    }
}

/// Judges the body's opening. The first JSON value is read, so trailing bytes do not matter;
/// a value cut off by the read limit is not JSON.
pub fn judge_mcp_body(body: &[u8]) -> McpSignal {
    let body = trimmed(body);
    let why = if body.is_empty() {
        NoSignalReason::Empty
    } else if looks_like_html(body) {
        NoSignalReason::Html
    } else if check_depth(body).is_err() {
        NoSignalReason::NotJson
    } else {
        match serde_json::Deserializer::from_slice(body)
            .into_iter::<Value>()
            .next()
        {
            Some(Ok(value)) if is_json_rpc_message(&value) => return McpSignal::JsonRpc,
            Some(Ok(_)) => NoSignalReason::NotJsonRpc,
            _ => NoSignalReason::NotJson,
        }
    };
    McpSignal::NoSignal { why }
}

/// Head then, when needed, body. `body` is `None` when none was read.
pub fn judge_mcp_get(status: StatusCode, headers: &HeaderMap, body: Option<&[u8]>) -> McpSignal {
    let signal = match (judge_mcp_head(status, headers), body) {
        (HeadVerdict::Decided(signal), _) => signal,
        (HeadVerdict::ReadBody, Some(body)) => judge_mcp_body(body),
        (HeadVerdict::ReadBody, None) => McpSignal::NoSignal {
            why: NoSignalReason::BodyUnread,
        },
    };
    not_now(status, signal)
}

/// A 5xx or a 429 that carries no MCP signal (an error page, nothing) says "not now": the
/// server may be MCP when it is up. A JSON-RPC message or an event stream still signals.
pub fn not_now(status: StatusCode, signal: McpSignal) -> McpSignal {
    let temporary = status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS;
    match signal {
        McpSignal::NoSignal { why } if temporary && why != NoSignalReason::Redirect => {
            McpSignal::NoSignal {
                why: NoSignalReason::NotNow,
            }
        }
        other => other,
    }
}

/// `Allow` fields are comma lists and may repeat; methods compared case-insensitively.
fn allows_post(headers: &HeaderMap) -> bool {
    headers
        .get_all(ALLOW)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|method| method.trim().eq_ignore_ascii_case(Method::POST.as_str()))
}

/// A request, response or notification: `"jsonrpc": "2.0"` and a `result`, `error` or
/// `method`.
fn is_json_rpc_message(value: &Value) -> bool {
    let Value::Object(object) = value else {
        return false;
    };
    object.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && ["result", "error", "method"]
            .iter()
            .any(|key| object.contains_key(*key))
}
