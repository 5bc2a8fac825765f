//! GET and DELETE on the endpoint, as the official SDKs answer them (notes §10).

use std::time::Duration;

use serde_json::json;

use super::fault::Fault;
use super::framing::http_error;
use super::post::call_record;
use super::server::Inner;
use super::{auth, guard};
use crate::record::RecordedRequest;
use crate::reply::Reply;

/// Interval of keep-alive comments on a standalone GET stream (sse-starlette pings every 15 s).
pub const GET_STREAM_PING: Duration = Duration::from_secs(15);

/// How GET on the endpoint is answered (without a live session).
#[derive(Clone, Debug, Default)]
pub enum GetStyle {
    /// 405 with `Allow: POST`.
    #[default]
    Generic405,
    /// Python SDK, stateless: 200 `text/event-stream` that never ends (406 JSON-RPC when the
    /// `Accept` header admits no event stream, `*/*` included, unless
    /// [`super::McpServer::lenient_accept`]).
    PythonStateless,
    /// Response headers never arrive (a stateless Python server behind nginx over HTTP/2).
    HeldBack,
    /// Python SDK, stateful: 400 with a JSON-RPC error body, minting a session id on the
    /// answer; with a live session, an endless event stream.
    PythonStateful,
    /// TypeScript SDK v1, stateful: 400 `text/html` "Missing session ID"; with a live
    /// session, an endless event stream.
    TsV1Stateful,
    /// TypeScript SDK v1, stateless: 405 with a JSON-RPC error body and no `Allow`.
    TsV1Stateless,
    /// 404.
    NotFound,
    /// Any reply.
    Custom(Reply),
}

/// Answers one GET and records it.
pub(crate) fn answer_get(inner: &Inner, req: &RecordedRequest) -> Reply {
    let reply = get_reply(inner, req);
    inner.state.record(call_record(req, None, None, &reply));
    reply
}

/// Answers one DELETE and records it.
pub(crate) fn answer_delete(inner: &Inner, req: &RecordedRequest) -> Reply {
    let reply = delete_reply(inner, req);
    inner.state.record(call_record(req, None, None, &reply));
    reply
}

/// Whether `Accept` admits an event stream (wildcards included).
fn accepts_sse(req: &RecordedRequest) -> bool {
    let accept = req.header_all("accept").join(",").to_ascii_lowercase();
    accept.contains("text/event-stream") || accept.contains("text/*") || accept.contains("*/*")
}

/// An event stream that sends nothing but pings and never ends.
pub(crate) fn endless_stream() -> Reply {
    Reply::sse([])
        .header("x-accel-buffering", "no")
        .keep_open()
        .heartbeat(GET_STREAM_PING)
}

fn not_acceptable() -> Reply {
    http_error(
        406,
        -32600,
        "Not Acceptable: Client must accept text/event-stream",
    )
}

fn method_not_allowed_rpc() -> Reply {
    Reply::json(json!({
        "jsonrpc": "2.0",
        "error": {"code": -32000, "message": "Method not allowed."},
        "id": null
    }))
    .with_status(405)
}

fn get_reply(inner: &Inner, req: &RecordedRequest) -> Reply {
    let spec = &inner.spec;
    if let Some(refusal) = guard::check(spec.host_guard.as_ref(), req) {
        return refusal;
    }
    if let Some(challenge) = auth::check(spec.auth.as_ref(), req) {
        return challenge;
    }
    let fault = inner.take_fault("GET", false);
    if let Some(reply) = fault.as_ref().and_then(Fault::replacement) {
        return reply;
    }
    let reply = styled(inner, req);
    match fault {
        Some(Fault::Delay(delay)) => reply.delay(delay),
        _ => reply,
    }
}

fn styled(inner: &Inner, req: &RecordedRequest) -> Reply {
    let spec = &inner.spec;
    let session = req.header("mcp-session-id");
    let refuses = spec.strict_accept && !accepts_sse(req);
    let live = session.is_some_and(|s| inner.state.session(s) == Some(true));
    match &spec.get {
        GetStyle::Generic405 => Reply::text("Method Not Allowed")
            .with_status(405)
            .header("allow", "POST"),
        GetStyle::PythonStateless if refuses => not_acceptable(),
        GetStyle::PythonStateless => endless_stream(),
        GetStyle::HeldBack => Reply::hang(),
        GetStyle::PythonStateful if refuses => not_acceptable(),
        GetStyle::PythonStateful | GetStyle::TsV1Stateful if live => match session {
            Some(s) => endless_stream().header("mcp-session-id", s),
            None => endless_stream(),
        },
        GetStyle::PythonStateful if session.is_some() => {
            http_error(404, -32001, "Session not found")
        }
        GetStyle::PythonStateful => Reply::json(json!({
            "jsonrpc": "2.0",
            "id": "server-error",
            "error": {"code": -32600, "message": "Bad Request: Missing session ID"}
        }))
        .with_status(400)
        .header("mcp-session-id", inner.state.mint_session()),
        GetStyle::TsV1Stateful => Reply::html("Missing session ID").with_status(400),
        GetStyle::TsV1Stateless => method_not_allowed_rpc(),
        GetStyle::NotFound => Reply::not_found(),
        GetStyle::Custom(reply) => reply.clone(),
    }
}

fn delete_reply(inner: &Inner, req: &RecordedRequest) -> Reply {
    let spec = &inner.spec;
    if let Some(refusal) = guard::check(spec.host_guard.as_ref(), req) {
        return refusal;
    }
    if let Some(challenge) = auth::check(spec.auth.as_ref(), req) {
        return challenge;
    }
    let fault = inner.take_fault("DELETE", false);
    if let Some(reply) = fault.as_ref().and_then(Fault::replacement) {
        return reply;
    }
    let reply = end_session(inner, req);
    match fault {
        Some(Fault::Delay(delay)) => reply.delay(delay),
        _ => reply,
    }
}

fn end_session(inner: &Inner, req: &RecordedRequest) -> Reply {
    if !inner.spec.stateful {
        return method_not_allowed_rpc();
    }
    match req.header("mcp-session-id") {
        None => http_error(
            400,
            -32000,
            "Bad Request: Mcp-Session-Id header is required",
        ),
        Some(s) if inner.state.session(s) == Some(true) => {
            inner.state.end_session(s);
            Reply::status(200)
        }
        Some(_) => http_error(404, -32001, "Session not found"),
    }
}
