//! JSON-RPC 2.0 messages as a server sends them: what one value is, and which one answers a
//! request. The survey session and the deep probe both read answers through here, so an id is
//! matched one way everywhere.

use serde_json::Value;

/// A JSON-RPC error object as the server sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// `error.code`.
    pub code: i64,
    /// `error.message` (empty when absent).
    pub message: String,
    /// `error.data.supported`: the protocol versions a server that refused ours names (the
    /// 2026-07-28 revision's UnsupportedProtocolVersion); empty when absent.
    pub supported: Vec<String>,
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

/// Reads one JSON value as a JSON-RPC message. A JSON-RPC 2.0 message must say `"jsonrpc":"2.0"` (the MCP SDKs
/// validate it the same way); an error must be an object with an integer `code`.
pub fn read_message(value: &Value) -> Message {
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
                    supported: supported_versions(err.get("data")),
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
pub fn id_matches(id: &Value, want: u64) -> bool {
    match id {
        Value::Number(n) => n.as_u64() == Some(want) || n.as_f64() == Some(want as f64),
        _ => false,
    }
}

/// The answer to request `id` in one message: a response with that id, or an error with a null
/// id (JSON-RPC's answer when the server could not read the request's id; one POST carries one
/// request, so such an error can only be about ours).
pub fn answer_in(value: &Value, id: u64) -> Option<Answer> {
    match read_message(value) {
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

/// True when `value` is a response to `id`, or an error with a null id.
pub fn answers(value: &Value, id: u64) -> bool {
    answer_in(value, id).is_some()
}

/// The method of a request the server sent (a message with a method and a non-null id), such as
/// `roots/list` or `sampling/createMessage` sent before its answer.
pub fn server_call(value: &Value) -> Option<String> {
    match read_message(value) {
        Message::Call if value.get("id").is_some_and(|id| !id.is_null()) => value
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_owned),
        _ => None,
    }
}

/// The message answering `id` in a JSON value, whole: the value itself, or the first matching
/// item of a batch (2025-03-26 allowed batches).
pub fn answering_message(value: Value, id: u64) -> Option<Value> {
    match value {
        Value::Array(items) => items.into_iter().find(|item| answers(item, id)),
        single => answers(&single, id).then_some(single),
    }
}

/// `data.supported` of an error, its strings only, at most a few (a server's list is short;
/// a long one is not read whole).
fn supported_versions(data: Option<&Value>) -> Vec<String> {
    data.and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .take(16)
                .map(|v| v.chars().take(32).collect())
                .collect()
        })
        .unwrap_or_default()
}
