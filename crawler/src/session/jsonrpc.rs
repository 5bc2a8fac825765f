//! The three JSON-RPC messages the session sends, and how an answer is recognised.
//!
//! Request bodies are written out byte for byte as seed 000's curl reproduction sends them
//! (member order included), so a site owner comparing captures sees the same bytes.

use serde_json::Value;

/// The protocol version offered in `initialize` (seed 000: "offering protocol version 2025-11-25").
pub const OFFERED_PROTOCOL_VERSION: &str = "2025-11-25";
/// The `clientInfo.name` sent in `initialize`.
pub const CLIENT_NAME: &str = "mcpcensus";
/// The `clientInfo.version` sent in `initialize`: the crate's version.
pub const CLIENT_VERSION: &str = env!("CARGO_PKG_VERSION");
/// The id of the `initialize` request.
pub const INITIALIZE_ID: u64 = 1;
/// The id of the `tools/list` request.
pub const TOOLS_LIST_ID: u64 = 2;

/// `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{...}}` with our client info.
pub fn initialize_body() -> String {
    // serde_json escapes the two strings; the layout is fixed text so member order is the seed's.
    let name = Value::from(CLIENT_NAME);
    let version = Value::from(CLIENT_VERSION);
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{INITIALIZE_ID},\"method\":\"initialize\",\"params\":\
         {{\"protocolVersion\":\"{OFFERED_PROTOCOL_VERSION}\",\"capabilities\":{{}},\
         \"clientInfo\":{{\"name\":{name},\"version\":{version}}}}}}}"
    )
}

/// `{"jsonrpc":"2.0","method":"notifications/initialized"}`.
pub fn initialized_body() -> &'static str {
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
}

/// `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`.
pub fn tools_list_body() -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{TOOLS_LIST_ID},"method":"tools/list","params":{{}}}}"#)
}

/// A JSON-RPC error object as the server sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// `error.code`.
    pub code: i64,
    /// `error.message` (empty when absent).
    pub message: String,
}

/// What one JSON value is, as a JSON-RPC 2.0 message.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A response carrying `result`.
    Result {
        /// The id it answers.
        id: Value,
        /// The result.
        result: Value,
    },
    /// A response carrying `error`; `id` is `null` when the server could not tell the request.
    Error {
        /// The id it answers (`Value::Null` when absent or null).
        id: Value,
        /// The error.
        error: RpcError,
    },
    /// A request or notification from the server (has `method`).
    Call,
    /// Anything else (not `"jsonrpc":"2.0"`, neither result nor error, ...).
    Other,
}

/// Classifies one JSON value. A JSON-RPC 2.0 message must say `"jsonrpc":"2.0"` (the MCP SDKs
/// validate it the same way); an error must be an object with an integer `code`.
pub fn classify(value: &Value) -> Message {
    let Some(obj) = value.as_object() else {
        return Message::Other;
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Message::Other;
    }
    if obj.get("method").is_some_and(Value::is_string) {
        return Message::Call;
    }
    let id = obj.get("id").cloned().unwrap_or(Value::Null);
    match (obj.get("result"), obj.get("error")) {
        (Some(result), None) => Message::Result {
            id,
            result: result.clone(),
        },
        (None, Some(Value::Object(err))) => match err.get("code").and_then(Value::as_i64) {
            Some(code) => Message::Error {
                id,
                error: RpcError {
                    code,
                    message: err
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                },
            },
            None => Message::Other,
        },
        _ => Message::Other,
    }
}

/// The answer to one of our requests.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A JSON-RPC result.
    Result(Value),
    /// A JSON-RPC error.
    Error(RpcError),
}

/// True when `id` is our numeric request id (ids are compared as numbers: `1` and `1.0` match,
/// the string `"1"` does not, as JSON-RPC requires the id echoed unchanged).
fn id_matches(id: &Value, want: u64) -> bool {
    match id {
        Value::Number(n) => n.as_u64() == Some(want) || n.as_f64() == Some(want as f64),
        _ => false,
    }
}

/// The answer to request `id` in one message: a response with that id, or an error with a null
/// id (JSON-RPC's answer when the server could not read the request's id; one POST carries one
/// request, so such an error can only be about ours).
pub fn answer_in(value: &Value, id: u64) -> Option<Answer> {
    match classify(value) {
        Message::Result { id: got, result } if id_matches(&got, id) => Some(Answer::Result(result)),
        Message::Error { id: got, error } if got.is_null() || id_matches(&got, id) => {
            Some(Answer::Error(error))
        }
        _ => None,
    }
}

/// The answer to request `id` in a JSON body: one message, or (2025-03-26 allowed batches) the
/// first matching message of an array.
pub fn answer_in_body(value: &Value, id: u64) -> Option<Answer> {
    match value {
        Value::Array(items) => items.iter().find_map(|item| answer_in(item, id)),
        single => answer_in(single, id),
    }
}
