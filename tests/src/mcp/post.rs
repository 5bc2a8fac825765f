//! POST on the endpoint: checks, faults, then the 2025 (`initialize`) or 2026
//! (`server/discover`) dialect.

use serde_json::Value;

use super::answers::{self, RpcFailure, Tweak};
use super::fault::Fault;
use super::framing::{framed, http_error};
use super::server::{Inner, McpCall, ProtocolHeader};
use super::{auth, discover, guard};
use crate::record::RecordedRequest;
use crate::reply::Reply;

/// Answers one POST and records it.
pub(crate) fn answer(inner: &Inner, req: &RecordedRequest) -> Reply {
    let parsed: Option<Value> = serde_json::from_slice(&req.body).ok();
    let method = parsed
        .as_ref()
        .and_then(|m| m.get("method"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let reply = checked(inner, req, parsed.as_ref(), method.as_deref());
    inner
        .state
        .record(call_record(req, parsed.as_ref(), method, &reply));
    reply
}

pub(crate) fn call_record(
    req: &RecordedRequest,
    parsed: Option<&Value>,
    method: Option<String>,
    reply: &Reply,
) -> McpCall {
    McpCall {
        http_method: req.method.clone(),
        method,
        id: parsed.and_then(|m| m.get("id")).cloned(),
        session_id: req.header("mcp-session-id").map(str::to_string),
        protocol_header: req.header("mcp-protocol-version").map(str::to_string),
        mcp_method_header: req.header("mcp-method").map(str::to_string),
        status: reply.status,
    }
}

/// The fault's changes to a normal answer.
pub(crate) fn tweak_of(fault: Option<&Fault>) -> Tweak {
    match fault {
        Some(Fault::RpcError(code, message)) => Tweak {
            error: Some(RpcFailure::new(*code, message)),
            oversize: None,
        },
        Some(Fault::Oversized(bytes)) => Tweak {
            error: None,
            oversize: Some(*bytes),
        },
        _ => Tweak::default(),
    }
}

fn checked(
    inner: &Inner,
    req: &RecordedRequest,
    parsed: Option<&Value>,
    method: Option<&str>,
) -> Reply {
    let spec = &inner.spec;
    if let Some(refusal) = guard::check(spec.host_guard.as_ref(), req) {
        return refusal;
    }
    if let Some(challenge) = auth::check(spec.auth.as_ref(), req) {
        return challenge;
    }
    let fault = inner.take_fault(method.unwrap_or(""), true);
    if let Some(reply) = fault.as_ref().and_then(Fault::replacement) {
        return reply;
    }
    let tweak = tweak_of(fault.as_ref());
    let reply = dispatch(inner, req, parsed, &tweak);
    match fault {
        Some(Fault::Delay(delay)) => reply.delay(delay),
        _ => reply,
    }
}

fn dispatch(inner: &Inner, req: &RecordedRequest, parsed: Option<&Value>, tweak: &Tweak) -> Reply {
    let spec = &inner.spec;
    if spec.strict_accept {
        if let Some(refusal) = check_accept(req) {
            return refusal;
        }
    }
    let Some(message) = parsed else {
        return http_error(400, -32700, "Parse error: Invalid JSON");
    };
    if !message.is_object() {
        return http_error(400, -32600, "Invalid Request: batches are not supported");
    }
    if discover::is_modern(spec, req, message) {
        return discover::answer(spec, req, message, tweak);
    }
    if !spec.initialize {
        return discover::refuse_2025(spec, req, message);
    }
    streamable_2025(inner, req, message, tweak)
}

/// 406 / 415 as the SDKs answer them.
fn check_accept(req: &RecordedRequest) -> Option<Reply> {
    let accept = req.header_all("accept").join(",").to_ascii_lowercase();
    if !(accept.contains("application/json") && accept.contains("text/event-stream")) {
        return Some(http_error(
            406,
            -32000,
            "Not Acceptable: Client must accept both application/json and text/event-stream",
        ));
    }
    let content_type = req
        .header("content-type")
        .unwrap_or("")
        .to_ascii_lowercase();
    if !content_type.starts_with("application/json") {
        return Some(http_error(
            415,
            -32000,
            "Unsupported Media Type: Content-Type must be application/json",
        ));
    }
    None
}

/// The 2025 Streamable HTTP transport: initialize, sessions, protocol header, then the call.
fn streamable_2025(inner: &Inner, req: &RecordedRequest, message: &Value, tweak: &Tweak) -> Reply {
    let spec = &inner.spec;
    let method = message.get("method").and_then(Value::as_str);
    let id = message.get("id").cloned();
    let params = message.get("params");
    if method == Some("initialize") {
        let Some(id) = id else {
            return http_error(400, -32600, "Invalid Request: initialize must be a request");
        };
        let outcome = answers::answer_2025(spec, "initialize", params, tweak);
        let ok = outcome.is_ok();
        let reply = framed(spec, &answers::response(id, outcome));
        return if spec.stateful && ok {
            reply.header("mcp-session-id", inner.state.mint_session())
        } else {
            reply
        };
    }
    let session = if spec.stateful {
        match req.header("mcp-session-id") {
            None => {
                return http_error(
                    400,
                    -32000,
                    "Bad Request: Mcp-Session-Id header is required",
                )
            }
            Some(s) if inner.state.session(s) == Some(true) => Some(s.to_string()),
            Some(_) => return http_error(404, -32001, "Session not found"),
        }
    } else {
        None
    };
    if let Some(refusal) = check_protocol_header(inner, req) {
        return refusal;
    }
    let reply = match (method, id) {
        (Some(_), None) => match &tweak.error {
            Some(e) => http_error(400, e.code, &e.message),
            None => Reply::status(spec.initialized_status),
        },
        (Some(method), Some(id)) => framed(
            spec,
            &answers::response(id, answers::answer_2025(spec, method, params, tweak)),
        ),
        (None, Some(_)) if message.get("result").is_some() || message.get("error").is_some() => {
            Reply::accepted()
        }
        _ => http_error(400, -32600, "Invalid Request"),
    };
    match session {
        Some(s) => reply.header("mcp-session-id", s),
        None => reply,
    }
}

fn check_protocol_header(inner: &Inner, req: &RecordedRequest) -> Option<Reply> {
    let spec = &inner.spec;
    let header = req.header("mcp-protocol-version").map(str::trim);
    match (spec.protocol_header, header) {
        (ProtocolHeader::Ignore, _) | (ProtocolHeader::CheckIfPresent, None) => None,
        (ProtocolHeader::Require, None) => Some(http_error(
            400,
            -32000,
            "Bad Request: MCP-Protocol-Version header is required",
        )),
        (_, Some(v)) if spec.speaks(v) => None,
        (_, Some(v)) => Some(http_error(
            400,
            -32000,
            &format!(
                "Bad Request: Unsupported protocol version: {v} (supported versions: {})",
                spec.supported.join(", ")
            ),
        )),
    }
}
