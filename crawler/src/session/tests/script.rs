//! Scripted MCP servers and shorthands shared by the session tests.

use std::time::Duration;

use mcpcensus_store::Outcome;
use serde_json::json;

use super::server::{site_client, Canned, McpServer, Seen, SessionServer};
use crate::net::ServerDeadline;
use crate::session::{run_session, SessionOptions, SessionReport};

pub(super) const INIT: &str = "initialize";
pub(super) const NOTE: &str = "notifications/initialized";
pub(super) const LIST: &str = "tools/list";

pub(super) fn init_result(version: &str, capabilities: serde_json::Value) -> String {
    json!({"jsonrpc":"2.0","id":1,"result":{
        "protocolVersion": version,
        "capabilities": capabilities,
        "serverInfo": {"name":"weather","version":"1.2.3"}
    }})
    .to_string()
}

pub(super) fn tools(n: usize) -> serde_json::Value {
    (0..n)
        .map(|i| {
            json!({"name": format!("tool_{i:02}"), "description": format!("Tool number {i}"),
                   "inputSchema": {"type":"object","properties":{"q":{"type":"string"}}}})
        })
        .collect()
}

pub(super) fn tools_result(n: usize) -> String {
    json!({"jsonrpc":"2.0","id":2,"result":{"tools": tools(n)}}).to_string()
}

/// A stateless SDK-like server: JSON answers, no session id, 202 for the notification.
pub(super) fn plain_server(seen: &Seen) -> Canned {
    match seen.rpc_method().as_deref() {
        Some(INIT) => Canned::json(200, init_result("2025-11-25", json!({"tools":{}}))),
        Some(NOTE) => Canned::accepted(),
        Some(LIST) => Canned::json(200, tools_result(3)),
        _ => Canned::json(400, "{}"),
    }
}

/// The same server with one step's answer replaced.
pub(super) fn replacing(
    method: &'static str,
    canned: Canned,
) -> impl Fn(&Seen) -> Canned + Send + Sync + 'static {
    move |seen| {
        if seen.rpc_method().as_deref() == Some(method) {
            canned.clone()
        } else {
            plain_server(seen)
        }
    }
}

pub(super) async fn session_with(server: &McpServer, opts: &SessionOptions) -> SessionReport {
    let site = site_client();
    let deadline = ServerDeadline::after(Duration::from_secs(60), site.waits().clone());
    run_session(&site, &server.endpoint(), opts, &deadline).await
}

pub(super) async fn session(server: &McpServer) -> SessionReport {
    session_with(server, &SessionOptions::default()).await
}

pub(super) fn assert_verdict(report: &SessionReport, outcome: Outcome, reason: &str, defect: bool) {
    assert_eq!(
        (
            report.verdict.outcome,
            report.verdict.reason.as_str(),
            report.verdict.defect
        ),
        (outcome, reason, defect),
        "{report:#?}"
    );
}
