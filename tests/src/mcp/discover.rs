//! The 2026-07-28 dialect: `server/discover`, the `_meta` envelope and its header checks.

use serde_json::{json, Value};

use super::answers::{self, ListKind, Tweak};
use super::framing::{framed, http_error, http_error_data, rpc_error};
use super::server::{Spec, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION};
use crate::record::RecordedRequest;
use crate::reply::Reply;

/// HeaderMismatch.
pub const HEADER_MISMATCH: i64 = -32020;
/// MissingRequiredClientCapability.
pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
/// UnsupportedProtocolVersion.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

fn meta(message: &Value) -> Option<&Value> {
    message.get("params").and_then(|p| p.get("_meta"))
}

/// Whether a server speaking the 2026 dialect takes this request as one.
pub(crate) fn is_modern(spec: &Spec, req: &RecordedRequest, message: &Value) -> bool {
    if !spec.discover {
        return false;
    }
    let header_modern = req
        .header("mcp-protocol-version")
        .map(str::trim)
        .is_some_and(|v| spec.discover_versions.iter().any(|d| d == v));
    header_modern
        || meta(message).is_some_and(|m| m.get(META_PROTOCOL_VERSION).is_some())
        || message.get("method").and_then(Value::as_str) == Some("server/discover")
}

/// A 2025-era request to a 2026-only server: 400 with -32022 naming what it supports.
pub(crate) fn refuse_2025(spec: &Spec, req: &RecordedRequest, message: &Value) -> Reply {
    let requested = if message.get("method").and_then(Value::as_str) == Some("initialize") {
        message
            .get("params")
            .and_then(|p| p.get("protocolVersion"))
            .cloned()
    } else {
        req.header("mcp-protocol-version")
            .map(|v| Value::String(v.to_string()))
    };
    http_error_data(
        400,
        UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version",
        json!({"supported": spec.discover_versions, "requested": requested.unwrap_or(Value::Null)}),
    )
}

/// Answers a 2026-dialect request.
pub(crate) fn answer(spec: &Spec, req: &RecordedRequest, message: &Value, tweak: &Tweak) -> Reply {
    if let Some(refusal) = check_envelope(spec, req, message) {
        return refusal;
    }
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    let Some(id) = message.get("id").cloned() else {
        return Reply::accepted();
    };
    if let Some(error) = &tweak.error {
        return framed(
            spec,
            &rpc_error(id, error.code, &error.message, error.data.clone()),
        );
    }
    let outcome = match method {
        "server/discover" => {
            let mut result = answers::discover_result(spec);
            answers::pad(&mut result, tweak.oversize);
            Ok(result)
        }
        _ => match ListKind::from_method(method) {
            Some(kind) if answers::lists(spec, kind) => {
                answers::list_page(spec, kind, message.get("params"), tweak.oversize).map(
                    |mut result| {
                        answers::modern_envelope(spec, &mut result, true);
                        result
                    },
                )
            }
            _ => {
                return Reply::json(rpc_error(id, -32601, "Method not found", None))
                    .with_status(404)
            }
        },
    };
    framed(spec, &answers::response(id, outcome))
}

/// The headers and `_meta` keys every 2026 request must carry.
fn check_envelope(spec: &Spec, req: &RecordedRequest, message: &Value) -> Option<Reply> {
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return Some(http_error(
            400,
            -32600,
            "Invalid Request: clients must not send responses",
        ));
    };
    let Some(header) = req.header("mcp-protocol-version").map(str::trim) else {
        return Some(http_error_data(
            400,
            HEADER_MISMATCH,
            "Header mismatch: MCP-Protocol-Version header is required",
            json!({"header": "MCP-Protocol-Version"}),
        ));
    };
    if !spec.discover_versions.iter().any(|v| v == header) {
        return Some(http_error_data(
            400,
            UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
            json!({"supported": spec.discover_versions, "requested": header}),
        ));
    }
    let meta = meta(message);
    let Some(body_version) = meta
        .and_then(|m| m.get(META_PROTOCOL_VERSION))
        .and_then(Value::as_str)
    else {
        return Some(http_error(
            400,
            -32602,
            &format!("Invalid params: _meta[\"{META_PROTOCOL_VERSION}\"] is required"),
        ));
    };
    if body_version != header {
        return Some(http_error_data(
            400,
            HEADER_MISMATCH,
            "Header mismatch: MCP-Protocol-Version differs from the request's _meta",
            json!({"header": header, "body": body_version}),
        ));
    }
    if meta
        .and_then(|m| m.get(META_CLIENT_CAPABILITIES))
        .is_none_or(|c| !c.is_object())
    {
        return Some(http_error(
            400,
            -32602,
            &format!("Invalid params: _meta[\"{META_CLIENT_CAPABILITIES}\"] is required"),
        ));
    }
    if req.header("mcp-method").map(str::trim) != Some(method) {
        return Some(http_error_data(
            400,
            HEADER_MISMATCH,
            "Header mismatch: Mcp-Method must name the request's method",
            json!({"header": "Mcp-Method", "expected": method}),
        ));
    }
    None
}
