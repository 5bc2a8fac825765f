//! Faults injected into one step of a simulated MCP server.

use std::time::Duration;

use serde_json::json;

use crate::reply::Reply;

/// What goes wrong at a step (a JSON-RPC method, or `GET` / `DELETE` on the endpoint).
#[derive(Clone, Debug)]
pub enum Fault {
    /// This status with a short body; 401 carries no `WWW-Authenticate`, 429 and 503 carry
    /// `Retry-After: 30`.
    Status(u16),
    /// 401 with this `WWW-Authenticate` value.
    Unauthorized(String),
    /// A redirect (`301`, `302`, `307`, `308`) to this location.
    Redirect(u16, String),
    /// 200 `text/html` (a soft 404 or a login page).
    Html,
    /// A JSON-RPC error with this code and message, framed like a normal answer (HTTP 200).
    RpcError(i64, String),
    /// 200 `application/json` whose body is not JSON.
    NotJson,
    /// The normal answer, padded to at least this many bytes (tool descriptions for
    /// `tools/list`, `_meta.padding` otherwise).
    Oversized(usize),
    /// The normal answer, after this delay.
    Delay(Duration),
    /// Response headers never sent.
    Hang,
    /// Connection closed (or stream reset) without an answer.
    Reset,
    /// Any reply.
    Reply(Reply),
}

impl Fault {
    /// The reply replacing the normal answer, or `None` when the fault modifies it instead
    /// ([`Fault::RpcError`], [`Fault::Oversized`], [`Fault::Delay`]).
    pub(crate) fn replacement(&self) -> Option<Reply> {
        Some(match self {
            Self::Status(status) => status_reply(*status),
            Self::Unauthorized(challenge) => Reply::json(json!({
                "error": "invalid_token",
                "error_description": "Authentication required"
            }))
            .with_status(401)
            .header("www-authenticate", challenge),
            Self::Redirect(status, location) => Reply::redirect(*status, location),
            Self::Html => Reply::html(
                "<!doctype html><html><head><title>Welcome</title></head>\
                 <body><h1>Page not found</h1></body></html>",
            ),
            Self::NotJson => Reply::bytes("application/json", "this is not JSON {"),
            Self::Hang => Reply::hang(),
            Self::Reset => Reply::reset(),
            Self::Reply(reply) => reply.clone(),
            Self::RpcError(..) | Self::Oversized(_) | Self::Delay(_) => return None,
        })
    }
}

fn status_reply(status: u16) -> Reply {
    let text = match status {
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let reply = Reply::text(text).with_status(status);
    if matches!(status, 429 | 503) {
        reply.header("retry-after", "30")
    } else {
        reply
    }
}

/// When a fault applies.
#[derive(Clone, Debug)]
pub(crate) struct FaultRule {
    /// A JSON-RPC method, `GET`, `DELETE`, or `*` for every POST.
    pub(crate) step: String,
    pub(crate) fault: Fault,
    /// Applies to this many matching calls, then stops (`None`: always).
    pub(crate) times: Option<u64>,
}

impl FaultRule {
    pub(crate) fn matches(&self, step: &str, is_post: bool) -> bool {
        self.step == step || (self.step == "*" && is_post)
    }
}
