//! The three JSON-RPC messages the survey session sends.
//!
//! Request bodies follow the survey's curl reproduction (methods, ids, protocol version and
//! member order), so a site owner comparing captures sees the same messages. Ours, stated in
//! docs/rules.md: `clientInfo` names mcpcensus and its version (the reproduction names its
//! own client), the User-Agent is the crawler's with its contact URL, and every request asks
//! `Accept-Encoding: identity` (the 64 KB cap counts the bytes the server sends).

use serde_json::Value;

/// The protocol version offered in `initialize` (the survey: "offering protocol version
/// 2025-11-25").
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
    // serde_json escapes the two strings; the layout is fixed text so member order is the survey's.
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
