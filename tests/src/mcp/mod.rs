//! Ready-made MCP server behaviours for the simulated web: Streamable HTTP servers in the
//! 2025 (`initialize`) and 2026-07-28 (`server/discover`) dialects modelled on the official
//! SDKs, the legacy HTTP+SSE transport, bearer challenges with OAuth metadata, and a proxy to
//! a real server on loopback.
//!
//! ```
//! use mcpcensus_simweb::mcp::{AuthServer, BearerAuth, McpServer, ProtectedResource, WellKnownAt};
//! use mcpcensus_simweb::Site;
//! let open = Site::new("open.test").mcp("/mcp", &McpServer::python_stateful().n_tools(3));
//! let locked = Site::new("locked.test")
//!     .mcp("/mcp", &McpServer::new().bearer_auth(BearerAuth::python_sdk()))
//!     .protected_resource("/mcp", &ProtectedResource::new("auth.test"), WellKnownAt::Both);
//! let auth = Site::new("auth.test").authorization_server(&AuthServer::dcr());
//! # let _ = (open, locked, auth);
//! ```

mod answers;
mod auth;
pub(crate) use auth::origin_for;
mod discover;
mod fault;
mod framing;
mod get;
mod guard;
mod legacy_sse;
mod post;
mod proxy;
mod recovering;
mod server;
mod tools;

#[cfg(test)]
mod tests;

pub use auth::{
    origin_of, AuthServer, BearerAuth, Challenge, MetadataAt, ProtectedResource, Registration,
    WellKnownAt, ID_JAG_PROFILE, JWT_BEARER_GRANT, PRM_WELL_KNOWN,
};
pub use discover::{HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION};
pub use fault::Fault;
pub use get::{GetStyle, GET_STREAM_PING};
pub use guard::HostGuard;
pub use legacy_sse::{LegacySseServer, LEGACY_STREAM_QUEUE};
pub use proxy::{ProxyHost, ProxyOptions, DEFAULT_PROXY_CONNECT_TIMEOUT};
pub use server::{
    Framing, McpCall, McpServer, ProtocolHeader, DEFAULT_TTL_MS, KNOWN_2025_VERSIONS,
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, META_SERVER_INFO,
    PROTOCOL_2025, PROTOCOL_2026,
};
pub use tools::Tool;

use serde_json::Value;

use crate::reply::Reply;
use crate::site::Site;
use crate::web::SimWeb;

impl Site {
    /// Mounts `server` at `path`: POST, GET (its [`GetStyle`]) and DELETE; other methods get
    /// 405 with `Allow: GET, POST, DELETE`.
    pub fn mcp(self, path: &str, server: &McpServer) -> Self {
        self.route_method("POST", path, server.post_reply())
            .route_method("GET", path, server.get_reply())
            .route_method("DELETE", path, server.delete_reply())
            .route(
                path,
                Reply::text("Method Not Allowed")
                    .with_status(405)
                    .header("allow", "GET, POST, DELETE"),
            )
    }
}

impl SimWeb {
    /// The JSON-RPC messages `host` received in request bodies, in order of arrival (batches
    /// flattened; bodies that are not JSON-RPC skipped).
    pub fn rpc_messages(&self, host: &str) -> Vec<Value> {
        self.requests(host)
            .iter()
            .filter_map(|r| r.json())
            .flat_map(|body| match body {
                Value::Array(items) => items,
                other => vec![other],
            })
            .filter(|m| m.get("jsonrpc").is_some() || m.get("method").is_some())
            .collect()
    }

    /// The JSON-RPC methods `host` received, in order (notifications included; responses,
    /// which carry no method, skipped).
    pub fn rpc_methods(&self, host: &str) -> Vec<String> {
        self.rpc_messages(host)
            .iter()
            .filter_map(|m| m.get("method").and_then(Value::as_str).map(str::to_string))
            .collect()
    }
}
