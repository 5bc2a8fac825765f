//! DNS-rebinding protection as the SDKs ship it: a `Host` (and `Origin`) allow-list.

use serde_json::json;

use crate::record::RecordedRequest;
use crate::reply::Reply;

/// A Host-header guard in front of an endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostGuard {
    /// Python SDK (`TransportSecuritySettings`): `Host` must match a pattern (`host:port`,
    /// or `host:*` for any port), else 421 text "Invalid Host header"; a present `Origin` that
    /// matches no allowed origin gets 403 "Invalid Origin header".
    PythonSdk {
        /// Host patterns.
        hosts: Vec<String>,
        /// Origin patterns (`http://127.0.0.1:*` …).
        origins: Vec<String>,
    },
    /// TypeScript SDK `allowedHosts`: the `Host` hostname (port ignored) must be listed, else
    /// 403 with a JSON-RPC error body.
    TypeScript {
        /// Hostnames.
        hosts: Vec<String>,
    },
}

impl HostGuard {
    /// The Python SDK default for a server bound to 127.0.0.1.
    pub fn python() -> Self {
        Self::PythonSdk {
            hosts: vec!["127.0.0.1:*".into(), "localhost:*".into(), "[::1]:*".into()],
            origins: vec![
                "http://127.0.0.1:*".into(),
                "http://localhost:*".into(),
                "http://[::1]:*".into(),
            ],
        }
    }

    /// The TypeScript SDK's localhost allow-list.
    pub fn typescript() -> Self {
        Self::TypeScript {
            hosts: vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()],
        }
    }

    /// Also allows this host (a pattern for Python, a hostname for TypeScript).
    pub fn allow(mut self, host: &str) -> Self {
        match &mut self {
            Self::PythonSdk { hosts, .. } | Self::TypeScript { hosts } => hosts.push(host.into()),
        }
        self
    }
}

/// `Host` as sent, or the request's host and port (HTTP/2 sends `:authority` instead).
pub(crate) fn host_value(req: &RecordedRequest) -> String {
    req.header("host")
        .map(str::to_string)
        .unwrap_or_else(|| format!("{}:{}", req.host, req.local.port()))
}

fn pattern_matches(pattern: &str, value: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) if prefix.ends_with(':') => {
            value.starts_with(prefix) || value == &prefix[..prefix.len() - 1]
        }
        _ => pattern == value,
    }
}

fn hostname(host: &str) -> &str {
    if host.starts_with('[') {
        return host
            .split_once(']')
            .map_or(host, |(h, _)| &host[..=h.len()]);
    }
    host.split_once(':').map_or(host, |(h, _)| h)
}

/// The refusal, when the guard refuses the request.
pub(crate) fn check(guard: Option<&HostGuard>, req: &RecordedRequest) -> Option<Reply> {
    let host = host_value(req);
    match guard? {
        HostGuard::PythonSdk { hosts, origins } => {
            if !hosts.iter().any(|p| pattern_matches(p, &host)) {
                return Some(Reply::text("Invalid Host header").with_status(421));
            }
            match req.header("origin") {
                Some(origin) if !origins.iter().any(|p| pattern_matches(p, origin)) => {
                    Some(Reply::text("Invalid Origin header").with_status(403))
                }
                _ => None,
            }
        }
        HostGuard::TypeScript { hosts } => {
            let name = hostname(&host);
            if hosts.iter().any(|h| h.eq_ignore_ascii_case(name)) {
                return None;
            }
            Some(
                Reply::json(json!({
                    "jsonrpc": "2.0",
                    "error": {"code": -32000, "message": format!("Invalid Host: {name}")},
                    "id": null
                }))
                .with_status(403),
            )
        }
    }
}
