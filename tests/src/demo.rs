//! A small ready-made web for demos and smoke runs (a `scripts/` binary can start it).

use std::time::Duration;

use serde_json::json;

use crate::{DnsRule, Error, Reply, RpcCall, SimWeb, Site};

/// Names of the demo sites, with what each shows.
pub const DEMO_SITES: &[(&str, &str)] = &[
    (
        "mcp.demo.test",
        "a stateless MCP server at /mcp, advertised by a Link header",
    ),
    ("plain.demo.test", "a web page without MCP"),
    ("moved.demo.test", "a redirect to plain.demo.test"),
    ("slow.demo.test", "a page that answers after 2 s"),
    ("other-ip.demo.test", "a page on 127.0.0.2"),
];

/// Names with DNS faults in the demo web.
pub const DEMO_DNS_FAULTS: &[(&str, &str)] = &[
    ("broken.demo.test", "SERVFAIL"),
    (
        "private.demo.test",
        "answers 10.0.0.1 (the guard must refuse it)",
    ),
];

/// Starts the demo web.
pub async fn demo_web() -> Result<SimWeb, Error> {
    SimWeb::builder()
        .sites(demo_sites())
        .dns_rules(demo_dns_rules())
        .start()
        .await
}

/// The DNS faults of [`DEMO_DNS_FAULTS`].
pub fn demo_dns_rules() -> Vec<DnsRule> {
    vec![
        DnsRule::servfail("broken.demo.test"),
        DnsRule::addrs("private.demo.test", [std::net::IpAddr::from([10, 0, 0, 1])]),
    ]
}

/// The demo sites.
pub fn demo_sites() -> Vec<Site> {
    vec![
        Site::new("mcp.demo.test")
            .route(
                "/",
                Reply::html("<html><head><link rel=\"mcp\" href=\"/mcp\"></head><body>MCP demo</body></html>")
                    .header("link", "</mcp>; rel=\"mcp\""),
            )
            .route_method("GET", "/mcp", Reply::status(405).header("allow", "POST"))
            .route_method("POST", "/mcp", Reply::jsonrpc(stateless_mcp)),
        Site::new("plain.demo.test").route("/", Reply::html("<html><body>No MCP here</body></html>")),
        Site::new("moved.demo.test").default(Reply::redirect(301, "https://plain.demo.test/")),
        Site::new("slow.demo.test")
            .route("/", Reply::html("<html>slow</html>").delay(Duration::from_secs(2))),
        Site::new("other-ip.demo.test")
            .ip([127, 0, 0, 2])
            .route("/", Reply::html("<html>on 127.0.0.2</html>")),
    ]
}

/// A minimal stateless MCP server answering `initialize` and `tools/list` with JSON.
fn stateless_mcp(call: &RpcCall<'_>) -> Reply {
    if call.is_notification() {
        return Reply::accepted();
    }
    let id = call.id_or_null();
    match call.method() {
        Some("initialize") => Reply::rpc_result(
            id,
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "simweb-demo", "version": "0.1.0"}
            }),
        ),
        Some("tools/list") => Reply::rpc_result(
            id,
            json!({"tools": [{
                "name": "echo",
                "description": "Echoes its input",
                "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}
            }]}),
        ),
        _ => Reply::rpc_error(id, -32601, "Method not found"),
    }
}
