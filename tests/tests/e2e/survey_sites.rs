//! The simulated web of the survey's end-to-end proof: one site (or more) per rule of the
//! survey, built once and crawled once by `survey/mod.rs`, whose per-rule tests and export test read the
//! same crawl.
//!
//! Every site is listed in [`SITES`] with the host it is scanned as. Sites that are only ever
//! named by another site's documents (subdomains, another site) are in [`EXTRA_SITES`]: they are
//! not in the input list, and the tests assert what they received.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Duration;

use mcpcensus_simweb::mcp::{BearerAuth, Fault, GetStyle, McpServer};
use mcpcensus_simweb::{DnsRule, RecordedRequest, Reply, SimWeb, Site};
use serde_json::{json, Value};

mod discovery;
mod placement;
mod session;

/// The server card `$schema` of the card extension.
const CARD_SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
const CARD_TYPE: &str = "application/mcp-server-card+json";
const CATALOG_TYPE: &str = "application/ai-catalog+json";

/// The hosts scanned, in input order (the order is part of the export: `input_line`).
pub const SITES: &[&str] = &[
    // Discovery: where the endpoint comes from.
    "card.test",
    "legacy-json.test",
    "legacy-dashed.test",
    "legacy-bare.test",
    "catalog.test",
    "inline.test",
    "nested.test",
    "link-header.test",
    "link-html.test",
    "get-405.test",
    "get-jsonrpc.test",
    "get-stream.test",
    "get-405-rpc.test",
    "ts-v1-card.test",
    "ts-v1-nocard.test",
    "held-back.test",
    "soft404.test",
    "order.test",
    "order-catalog.test",
    "sse-first.test",
    "redirect-get.test",
    "get-403.test",
    "get-noanswer.test",
    "plain.test",
    // Placement: which endpoints are opened.
    "elsewhere.test",
    "sub.test",
    "excl.test",
    "sse-remote.test",
    "http-remote.test",
    "userinfo.test",
    "guarded.test",
    // The session and its verdicts.
    "auth-challenge.test",
    "auth-nocard.test",
    "auth-bare.test",
    "s403-init.test",
    "s403-notif.test",
    "s403-tools.test",
    "s429-init.test",
    "s429-notif.test",
    "s429-tools.test",
    "s500-init.test",
    "s500-notif.test",
    "s500-tools.test",
    "redirect-init.test",
    "redirect-notif.test",
    "redirect-tools.test",
    "html-init.test",
    "rpc-error.test",
    "not-json.test",
    "status-404.test",
    "result-in-400.test",
    "rpc-error-tools.test",
    "reset.test",
    "no-tools-cap.test",
    "empty-tools.test",
    "session.test",
    "sse-priming.test",
    "notif-html.test",
    "oversize-tools.test",
    "tools30.test",
    "old-proto.test",
    "slow.test",
    "late.test",
    "long-list-tools.test",
];

/// Sites that exist but are not scanned: only other sites' documents name them.
pub const EXTRA_SITES: &[&str] = &["other.test", "api.sub.test", "mcp.excl.test"];

/// A subdomain whose address the guard refuses (it resolves to a private address).
pub const GUARDED_SUBDOMAIN: &str = "api.guarded.test";
pub const GUARDED_ADDRESS: [u8; 4] = [10, 9, 8, 7];

/// The opt-out list given to the crawl with `--exclude`.
pub const EXCLUDED: &[&str] = &["mcp.excl.test"];

/// How long the slow server waits before answering `initialize` (over the session's 12 s).
pub const SLOW_INITIALIZE: Duration = Duration::from_secs(20);
/// How long each of two discovery documents of `late.test` takes: together they leave less
/// than the session's 12 s of the default 30 s site deadline.
pub const LATE_DOCUMENT_DELAY: Duration = Duration::from_millis(9_500);
/// Bytes of the oversized `tools/list` answer (over the 64 KB cap).
pub const OVERSIZE_BYTES: usize = 80 * 1024;

/// The running web and the servers whose calls the tests inspect.
pub struct World {
    pub web: SimWeb,
    /// The MCP servers by the host (of the site) that mounts them.
    pub servers: BTreeMap<&'static str, McpServer>,
}

impl World {
    /// The server mounted on `host`.
    pub fn server(&self, host: &str) -> &McpServer {
        self.servers
            .get(host)
            .unwrap_or_else(|| panic!("no server on {host}"))
    }
}

/// Builds and starts the whole web.
pub async fn start() -> World {
    let mut servers = BTreeMap::new();
    let mut sites = Vec::new();
    for host in SITES.iter().chain(EXTRA_SITES) {
        let (site, server) = site(host);
        if let Some(server) = server {
            servers.insert(*host, server);
        }
        sites.push(site);
    }
    let web = SimWeb::builder()
        .sites(sites)
        .dns(DnsRule::addrs(
            GUARDED_SUBDOMAIN,
            [IpAddr::from(GUARDED_ADDRESS)],
        ))
        .start()
        .await
        .unwrap();
    World { web, servers }
}

fn home() -> Reply {
    Reply::html("<!doctype html><html><head><title>Home</title></head><body>Welcome</body></html>")
}

/// A current server card with these remotes.
fn card(name: &str, remotes: Vec<Value>) -> Value {
    json!({
        "$schema": CARD_SCHEMA,
        "name": format!("test.example/{name}"),
        "version": "1.0.0",
        "description": "A simulated MCP server",
        "remotes": remotes,
    })
}

fn remote(kind: &str, url: &str) -> Value {
    json!({"type": kind, "url": url, "supportedProtocolVersions": ["2025-11-25"]})
}

/// A JSON document computed from the port the request came in on (every site shares it), so
/// documents can name absolute URLs as real sites do.
fn on_port(make: impl Fn(u16) -> Value + Send + Sync + 'static) -> Reply {
    typed_on_port("application/json", make)
}

/// [`on_port`] with another content type (a handler's reply sets its own headers).
fn typed_on_port(
    content_type: &'static str,
    make: impl Fn(u16) -> Value + Send + Sync + 'static,
) -> Reply {
    Reply::handler(move |req: &RecordedRequest| {
        Reply::bytes(content_type, make(req.local.port()).to_string())
    })
}

/// A card naming one streamable-http remote at `https://{host}:PORT{path}`.
fn card_for(name: &'static str, host: &'static str, path: &'static str) -> Reply {
    typed_card_for("application/json", name, host, path)
}

fn typed_card_for(
    content_type: &'static str,
    name: &'static str,
    host: &'static str,
    path: &'static str,
) -> Reply {
    typed_on_port(content_type, move |port| {
        card(
            name,
            vec![remote(
                "streamable-http",
                &format!("https://{host}:{port}{path}"),
            )],
        )
    })
}

fn catalog(entries: Vec<Value>) -> Value {
    json!({"specVersion": "1.0", "host": {"displayName": "Simulated"}, "entries": entries})
}

/// A site with the homepage, the server card at the current path naming `path` on the same
/// host, and `server` mounted at `path`.
fn carded(host: &'static str, path: &'static str, server: &McpServer) -> Site {
    Site::new(host)
        .route("/", home())
        .route(
            "/.well-known/mcp/server-card.json",
            card_for("carded", host, path),
        )
        .mcp(path, server)
}

/// A site with the homepage and `server` at `/mcp`: found by the GET of `/mcp`.
fn at_mcp(host: &'static str, server: &McpServer) -> Site {
    Site::new(host).route("/", home()).mcp("/mcp", server)
}

type Built = (Site, Option<McpServer>);

fn with(site: Site, server: McpServer) -> Built {
    (site, Some(server))
}

/// A server that fails at `step` with `fault`.
fn fault_at(step: &str, fault: Fault) -> McpServer {
    McpServer::new().fault_on(step, fault)
}

/// The site scanned as `host` and the server it mounts (if any).
fn site(host: &'static str) -> Built {
    discovery::site(host)
        .or_else(|| placement::site(host))
        .or_else(|| session::site(host))
        .unwrap_or_else(|| panic!("no site {host}"))
}

/// The step a fault site's name picks (`-init`, `-notif`, `-tools`).
pub fn step_of(host: &str) -> &'static str {
    if host.contains("-init") {
        "initialize"
    } else if host.contains("-notif") {
        "notifications/initialized"
    } else if host.contains("-tools") {
        "tools/list"
    } else {
        panic!("{host} names no step")
    }
}
