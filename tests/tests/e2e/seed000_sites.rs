//! The simulated web of seed 000's end-to-end proof: one site (or more) per rule of the seed,
//! built once and crawled once by `seed000.rs`, whose per-rule tests and export test read the
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

/// The site scanned as `host` and the server it mounts (if any).
#[allow(clippy::too_many_lines)]
fn site(host: &'static str) -> Built {
    let fault_at = |step: &str, fault: Fault| McpServer::new().fault_on(step, fault);
    match host {
        // --- Discovery ---
        "card.test" => {
            let server = McpServer::new().tools_named(&["search", "fetch"]);
            with(carded(host, "/api/mcp", &server), server)
        }
        "legacy-json.test" => {
            // The folk manifest in a pre-SEP shape, served as text/plain.
            let server = McpServer::new().tools_named(&["lookup"]);
            let manifest = typed_on_port("text/plain", move |port| {
                json!({
                    "serverInfo": {"name": "legacy-json", "version": "0.9"},
                    "transport": {
                        "type": "streamable-http",
                        "endpoint": format!("https://legacy-json.test:{port}/rpc")
                    },
                    "capabilities": {"tools": true}
                })
            });
            let site = Site::new(host)
                .route("/", home())
                .route("/.well-known/mcp.json", manifest)
                .mcp("/rpc", &server);
            with(site, server)
        }
        "legacy-dashed.test" => {
            let server = McpServer::new().tools_named(&["dashed"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp-server-card.json",
                    card_for("dashed", host, "/dashed/mcp"),
                )
                .mcp("/dashed/mcp", &server);
            with(site, server)
        }
        "legacy-bare.test" => {
            let server = McpServer::new().tools_named(&["bare"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card",
                    card_for("bare", host, "/bare/mcp"),
                )
                .mcp("/bare/mcp", &server);
            with(site, server)
        }
        "catalog.test" => {
            let server = McpServer::new().tools_named(&["forecast"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/ai-catalog.json",
                    on_port(|port| {
                        catalog(vec![
                            json!({"identifier": "urn:air:catalog.test:a2a:agent",
                                   "type": "application/a2a-agent-card+json",
                                   "url": format!("https://catalog.test:{port}/agent.json")}),
                            json!({"identifier": "urn:air:catalog.test:mcp:weather",
                                   "type": CARD_TYPE,
                                   "url": format!("https://catalog.test:{port}/cards/weather.json")}),
                        ])
                    }),
                )
                .route(
                    "/cards/weather.json",
                    typed_card_for(CARD_TYPE, "weather", host, "/v1/mcp"),
                )
                .mcp("/v1/mcp", &server);
            with(site, server)
        }
        "inline.test" => {
            let server = McpServer::new().tools_named(&["inline_tool"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/ai-catalog.json",
                    on_port(|port| {
                        catalog(vec![json!({
                            "identifier": "urn:air:inline.test:mcp:inline",
                            "type": CARD_TYPE,
                            "data": card("inline", vec![remote(
                                "streamable-http",
                                &format!("https://inline.test:{port}/inline/mcp"),
                            )]),
                        })])
                    }),
                )
                .mcp("/inline/mcp", &server);
            with(site, server)
        }
        "nested.test" => {
            // The site's catalog lists a nested catalog (with the older `mediaType` key),
            // which lists the card by a relative URL.
            let server = McpServer::new().tools_named(&["team_tool"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/ai-catalog.json",
                    Reply::json(catalog(vec![json!({
                        "identifier": "urn:air:nested.test:catalog:team",
                        "mediaType": CATALOG_TYPE,
                        "url": "/catalogs/team.json",
                    })])),
                )
                .route(
                    "/catalogs/team.json",
                    Reply::json(catalog(vec![json!({
                        "identifier": "urn:air:nested.test:mcp:team",
                        "type": CARD_TYPE,
                        "url": "/cards/team.json",
                    })])),
                )
                .route("/cards/team.json", card_for("team", host, "/team/mcp"))
                .mcp("/team/mcp", &server);
            with(site, server)
        }
        "link-header.test" => {
            let server = McpServer::new().tools_named(&["linked"]);
            let site = Site::new(host)
                .route(
                    "/",
                    home().header("link", "</rpc/mcp>; rel=\"mcp\", </about>; rel=\"about\""),
                )
                .mcp("/rpc/mcp", &server);
            with(site, server)
        }
        "link-html.test" => {
            let server = McpServer::new().tools_named(&["linked_html"]);
            let site = Site::new(host)
                .route(
                    "/",
                    Reply::html(
                        "<!doctype html><html><head><title>Linked</title>\
                         <link rel=\"stylesheet\" href=\"/style.css\">\
                         <link rel=\"mcp-server\" href=\"/srv/mcp\"></head>\
                         <body>Welcome</body></html>",
                    ),
                )
                .mcp("/srv/mcp", &server);
            with(site, server)
        }
        "get-405.test" => {
            let server = McpServer::new();
            with(at_mcp(host, &server), server)
        }
        "get-jsonrpc.test" => {
            let server = McpServer::python_stateful().tools_named(&["py_tool"]);
            with(at_mcp(host, &server), server)
        }
        "get-stream.test" => {
            let server = McpServer::python_stateless().tools_named(&["stream_tool"]);
            with(at_mcp(host, &server), server)
        }
        "get-405-rpc.test" => {
            let server = McpServer::ts_v1_stateless().tools_named(&["ts_tool"]);
            with(at_mcp(host, &server), server)
        }
        "ts-v1-card.test" => {
            let server = McpServer::ts_v1_stateful().tools_named(&["ts_card_tool"]);
            with(carded(host, "/mcp", &server), server)
        }
        "ts-v1-nocard.test" => {
            let server = McpServer::ts_v1_stateful().tools_named(&["hidden"]);
            with(at_mcp(host, &server), server)
        }
        "held-back.test" => {
            // A stateless Python server behind nginx: the GET's headers never arrive.
            let server = McpServer::python_stateless()
                .get_style(GetStyle::HeldBack)
                .tools_named(&["nginx_tool"]);
            with(carded(host, "/mcp", &server), server)
        }
        "soft404.test" => {
            // Every unknown path is a 200 HTML page, the card paths and the catalog included.
            let server = McpServer::new().tools_named(&["soft"]);
            let site = at_mcp(host, &server).default(Reply::html(
                "<!doctype html><html><head><title>Not here</title></head><body>Sorry</body></html>",
            ));
            with(site, server)
        }
        "order.test" => {
            // Every source names a different endpoint: the server card wins.
            let server = McpServer::new().tools_named(&["from_card"]);
            let site = Site::new(host)
                .route("/", home().header("link", "</c/mcp>; rel=\"mcp\""))
                .route(
                    "/.well-known/mcp/server-card.json",
                    card_for("order", host, "/a/mcp"),
                )
                .route(
                    "/.well-known/ai-catalog.json",
                    Reply::json(catalog(vec![json!({
                        "identifier": "urn:air:order.test:mcp:b",
                        "type": CARD_TYPE,
                        "data": card("b", vec![remote("streamable-http", "/b/mcp")]),
                    })])),
                )
                .mcp("/a/mcp", &server)
                .mcp("/b/mcp", &McpServer::new())
                .mcp("/c/mcp", &McpServer::new())
                .mcp("/mcp", &McpServer::new());
            with(site, server)
        }
        "order-catalog.test" => {
            // No card at the card paths: the catalog comes before the Link header and /mcp.
            let server = McpServer::new().tools_named(&["from_catalog"]);
            let site = Site::new(host)
                .route("/", home().header("link", "</c/mcp>; rel=\"mcp-server\""))
                .route(
                    "/.well-known/ai-catalog.json",
                    Reply::json(catalog(vec![json!({
                        "identifier": "urn:air:order-catalog.test:mcp:b",
                        "type": CARD_TYPE,
                        "data": card("b", vec![remote("streamable-http", "/b/mcp")]),
                    })])),
                )
                .mcp("/b/mcp", &server)
                .mcp("/c/mcp", &McpServer::new())
                .mcp("/mcp", &McpServer::new());
            with(site, server)
        }
        "sse-first.test" => {
            // The card lists an sse remote first: it is passed over for the streamable one.
            let server = McpServer::new().tools_named(&["streamable"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card.json",
                    on_port(|port| {
                        card(
                            "sse-first",
                            vec![
                                remote("sse", &format!("https://sse-first.test:{port}/sse")),
                                remote(
                                    "streamable-http",
                                    &format!("https://sse-first.test:{port}/stream/mcp"),
                                ),
                            ],
                        )
                    }),
                )
                .route("/sse", Reply::status(500))
                .mcp("/stream/mcp", &server);
            with(site, server)
        }
        "redirect-get.test" => {
            // /mcp redirects to the real endpoint: not followed, so no MCP signal.
            let server = McpServer::new();
            let site = Site::new(host)
                .route("/", home())
                .route("/mcp", Reply::redirect(308, "/mcp/"))
                .mcp("/mcp/", &server);
            with(site, server)
        }
        "get-403.test" => {
            // /mcp refuses the GET (a bot wall): an answer without a signal, however it reads.
            let server = McpServer::new().fault_on("GET", Fault::Status(403));
            with(at_mcp(host, &server), server)
        }
        "get-noanswer.test" => {
            // The stateless Python server behind nginx without a card: the GET of /mcp never
            // gets its headers, so /mcp did not answer.
            let server = McpServer::python_stateless().get_style(GetStyle::HeldBack);
            with(at_mcp(host, &server), server)
        }
        "plain.test" => (Site::new(host).route("/", home()), None),

        // --- Placement ---
        "elsewhere.test" => (
            Site::new(host).route("/", home()).route(
                "/.well-known/mcp/server-card.json",
                card_for("elsewhere", "other.test", "/mcp"),
            ),
            None,
        ),
        "other.test" => {
            let server = McpServer::new().tools_named(&["other_tool"]);
            with(at_mcp(host, &server), server)
        }
        "sub.test" => (
            Site::new(host).route("/", home()).route(
                "/.well-known/mcp/server-card.json",
                card_for("sub", "api.sub.test", "/mcp"),
            ),
            None,
        ),
        "api.sub.test" => {
            let server = McpServer::python_stateful().tools_named(&["sub_tool"]);
            with(at_mcp(host, &server), server)
        }
        "excl.test" => (
            Site::new(host).route("/", home()).route(
                "/.well-known/mcp/server-card.json",
                card_for("excl", "mcp.excl.test", "/mcp"),
            ),
            None,
        ),
        "mcp.excl.test" => {
            let server = McpServer::new();
            with(at_mcp(host, &server), server)
        }
        "sse-remote.test" => (
            Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card.json",
                    on_port(|port| {
                        card(
                            "sse-remote",
                            vec![remote(
                                "sse",
                                &format!("https://sse-remote.test:{port}/sse"),
                            )],
                        )
                    }),
                )
                .route("/sse", Reply::status(500)),
            None,
        ),
        "http-remote.test" => {
            // Served over both schemes: the http:// endpoint would answer if it were opened.
            let server = McpServer::new();
            let site = Site::new(host)
                .http_and_https()
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card.json",
                    on_port(|port| {
                        card(
                            "http-remote",
                            vec![remote(
                                "streamable-http",
                                &format!("http://http-remote.test:{port}/plain/mcp"),
                            )],
                        )
                    }),
                )
                .mcp("/plain/mcp", &server);
            with(site, server)
        }
        "userinfo.test" => {
            let server = McpServer::new();
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card.json",
                    on_port(|port| {
                        card(
                            "userinfo",
                            vec![remote(
                                "streamable-http",
                                &format!("https://user:secret@userinfo.test:{port}/cred/mcp"),
                            )],
                        )
                    }),
                )
                .mcp("/cred/mcp", &server);
            with(site, server)
        }
        "guarded.test" => (
            Site::new(host).route("/", home()).route(
                "/.well-known/mcp/server-card.json",
                card_for("guarded", GUARDED_SUBDOMAIN, "/mcp"),
            ),
            None,
        ),

        // --- The session ---
        "auth-challenge.test" => {
            let server = McpServer::new().bearer_auth(BearerAuth::python_sdk());
            with(carded(host, "/mcp", &server), server)
        }
        "auth-nocard.test" => {
            let server = McpServer::new().bearer_auth(BearerAuth::python_sdk());
            with(at_mcp(host, &server), server)
        }
        "auth-bare.test" => {
            let server = fault_at("initialize", Fault::Status(401));
            with(at_mcp(host, &server), server)
        }
        "s403-init.test" | "s403-notif.test" | "s403-tools.test" | "s429-init.test"
        | "s429-notif.test" | "s429-tools.test" | "s500-init.test" | "s500-notif.test"
        | "s500-tools.test" => {
            let status: u16 = host[1..4].parse().unwrap();
            let server = fault_at(step_of(host), Fault::Status(status));
            with(at_mcp(host, &server), server)
        }
        "redirect-init.test" | "redirect-notif.test" | "redirect-tools.test" => {
            let code = match step_of(host) {
                "initialize" => 307,
                "notifications/initialized" => 302,
                _ => 308,
            };
            let server = fault_at(step_of(host), Fault::Redirect(code, "/moved/mcp".into()));
            let site = at_mcp(host, &server).mcp("/moved/mcp", &McpServer::new());
            with(site, server)
        }
        "html-init.test" => {
            let server = fault_at("initialize", Fault::Html);
            with(at_mcp(host, &server), server)
        }
        "rpc-error.test" => {
            let server = fault_at(
                "initialize",
                Fault::RpcError(-32603, "Internal error".into()),
            );
            with(at_mcp(host, &server), server)
        }
        "not-json.test" => {
            let server = fault_at("initialize", Fault::NotJson);
            with(at_mcp(host, &server), server)
        }
        "status-404.test" => {
            let server = fault_at("initialize", Fault::Status(404));
            with(at_mcp(host, &server), server)
        }
        "result-in-400.test" => {
            let result = json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "odd", "version": "1"}
            });
            let server = fault_at(
                "initialize",
                Fault::Reply(Reply::rpc_result(json!(1), result).with_status(400)),
            );
            with(at_mcp(host, &server), server)
        }
        "rpc-error-tools.test" => {
            let server = fault_at(
                "tools/list",
                Fault::RpcError(-32603, "Database down".into()),
            );
            with(at_mcp(host, &server), server)
        }
        "reset.test" => {
            let server = fault_at("initialize", Fault::Reset);
            with(at_mcp(host, &server), server)
        }
        "no-tools-cap.test" => {
            let server = McpServer::new().no_tools_capability();
            with(at_mcp(host, &server), server)
        }
        "empty-tools.test" => {
            let server = McpServer::new().empty_tools();
            with(at_mcp(host, &server), server)
        }
        "session.test" => {
            // Requires the session id and the protocol header on every later request.
            let server = McpServer::new()
                .stateful()
                .require_protocol_header()
                .tools_named(&["session_tool"]);
            with(at_mcp(host, &server), server)
        }
        "sse-priming.test" => {
            let server = McpServer::new()
                .stateful()
                .sse()
                .priming(true)
                .retry_ms(1000)
                .keep_alive_comments(1)
                .notify_before(json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": "info", "data": "warming up"}
                }))
                .notify_before(json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": {"progressToken": 1, "progress": 1}
                }))
                .tools_named(&["primed"]);
            with(at_mcp(host, &server), server)
        }
        "notif-html.test" => {
            // The notification's answer is an HTML page with 200: its body is never read.
            let server = fault_at("notifications/initialized", Fault::Html);
            with(at_mcp(host, &server), server)
        }
        "oversize-tools.test" => {
            let server = fault_at("tools/list", Fault::Oversized(OVERSIZE_BYTES));
            with(at_mcp(host, &server), server)
        }
        "tools30.test" => {
            let server = McpServer::new().n_tools(30);
            with(at_mcp(host, &server), server)
        }
        "old-proto.test" => {
            let server = McpServer::new()
                .protocol("2025-03-26")
                .tools_named(&["old_tool"]);
            with(at_mcp(host, &server), server)
        }
        "slow.test" => {
            let server = fault_at("initialize", Fault::Delay(SLOW_INITIALIZE));
            with(at_mcp(host, &server), server)
        }
        "late.test" => {
            // Two slow discovery documents use up the site's deadline but 11 s.
            let server = McpServer::new();
            let site = Site::new(host)
                .route("/", home().delay(LATE_DOCUMENT_DELAY))
                .route(
                    "/.well-known/mcp.json",
                    Reply::not_found().delay(LATE_DOCUMENT_DELAY),
                )
                .mcp("/mcp", &server);
            with(site, server)
        }
        other => panic!("no site {other}"),
    }
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
