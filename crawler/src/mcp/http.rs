//! The HTTP side of MCP's Streamable HTTP transport that every client request shares: the
//! headers a POST carries and the challenge a refusal names.

use http::header::{ACCEPT, ACCEPT_LANGUAGE, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderName, HeaderValue};

/// `MCP-Session-Id` (header names are case-insensitive; 2025-03-26 wrote `Mcp-Session-Id`).
pub const MCP_SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
/// `MCP-Protocol-Version`.
pub const MCP_PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
/// The `Accept` of a JSON-RPC POST: the transport requires both.
pub const RPC_ACCEPT: &str = "application/json, text/event-stream";

/// The headers every JSON-RPC POST carries, in the order they are sent.
pub fn rpc_headers() -> Vec<(HeaderName, HeaderValue)> {
    vec![
        (ACCEPT_LANGUAGE, HeaderValue::from_static("en")),
        (ACCEPT, HeaderValue::from_static(RPC_ACCEPT)),
        (CONTENT_TYPE, HeaderValue::from_static("application/json")),
    ]
}

/// Every `WWW-Authenticate` value joined, when there is a non-empty one.
pub fn challenge(headers: &HeaderMap) -> Option<String> {
    let values: Vec<String> = headers
        .get_all(WWW_AUTHENTICATE)
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}
