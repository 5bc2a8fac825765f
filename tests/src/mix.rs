//! Generated sites for the crawl benchmarks: a realistic mix (97% without MCP, 2% with a
//! server card and an MCP server, 1% answering 401, 429, 503 or a redirect), the older
//! one-in-ten MCP mix, or one kind only (plain sites, or card + MCP server sites) to measure
//! the cost of each apart.

use std::net::Ipv4Addr;

use serde_json::json;

use crate::mcp::McpServer;
use crate::{Reply, Site};

/// Which sites a benchmark web holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mix {
    /// 97% plain, 2% card + MCP server, 1% 401/429/503/redirect.
    Realistic,
    /// One site in ten an MCP server advertised by a Link header, the rest plain.
    Tenth,
    /// Every site plain (the realistic mix's no-MCP site).
    Plain,
    /// Every site a card + MCP server (the realistic mix's MCP site).
    Servers,
}

impl std::str::FromStr for Mix {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "realistic" => Ok(Self::Realistic),
            "tenth" => Ok(Self::Tenth),
            "plain" => Ok(Self::Plain),
            "servers" => Ok(Self::Servers),
            other => Err(format!(
                "unknown mix {other:?} (realistic, tenth, plain or servers)"
            )),
        }
    }
}

/// What one generated site is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A homepage and nothing else (every other path 404).
    Plain,
    /// An MCP server at /mcp (one tool), named by a server card (realistic) or a Link header.
    Mcp,
    /// Every path answers 401 without a challenge.
    Unauthorized,
    /// Every path answers 429.
    TooMany,
    /// Every path answers 503.
    Unavailable,
    /// Every path redirects to another origin.
    Redirect,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Plain,
        Kind::Mcp,
        Kind::Unauthorized,
        Kind::TooMany,
        Kind::Unavailable,
        Kind::Redirect,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Plain => "plain",
            Kind::Mcp => "mcp",
            Kind::Unauthorized => "401",
            Kind::TooMany => "429",
            Kind::Unavailable => "503",
            Kind::Redirect => "redirect",
        }
    }
}

/// The kind of site number `i`: deterministic, spread evenly through the list.
pub fn kind(mix: Mix, i: u64) -> Kind {
    match mix {
        Mix::Tenth if i.is_multiple_of(10) => Kind::Mcp,
        Mix::Tenth | Mix::Plain => Kind::Plain,
        Mix::Servers => Kind::Mcp,
        Mix::Realistic => match i % 100 {
            0 | 50 => Kind::Mcp,
            25 => [
                Kind::Unauthorized,
                Kind::TooMany,
                Kind::Unavailable,
                Kind::Redirect,
            ][((i / 100) % 4) as usize],
            _ => Kind::Plain,
        },
    }
}

/// Site number `i` of `mix`, named `name`, on `ip`; its card names `https://name:port/mcp`.
pub fn site(mix: Mix, i: u64, name: &str, ip: Ipv4Addr, port: u16) -> Site {
    let site = Site::new(name).ip(ip);
    match kind(mix, i) {
        Kind::Plain => site.route("/", Reply::html(PLAIN_HOME)),
        Kind::Mcp if mix == Mix::Tenth => site
            .route(
                "/",
                Reply::html("<html><body>MCP</body></html>").header("link", "</mcp>; rel=\"mcp\""),
            )
            .mcp("/mcp", &server()),
        Kind::Mcp => site
            .route("/", Reply::html(PLAIN_HOME))
            .route(
                "/.well-known/mcp/server-card.json",
                Reply::json(card(name, port)).content_type("application/mcp-server-card+json"),
            )
            .mcp("/mcp", &server()),
        Kind::Unauthorized => site.default(Reply::status(401)),
        Kind::TooMany => site.default(Reply::status(429)),
        Kind::Unavailable => site.default(Reply::status(503)),
        Kind::Redirect => site.default(Reply::redirect(301, "https://elsewhere.bench.test/")),
    }
}

fn server() -> McpServer {
    McpServer::ts_v2().tools_named(&["search"])
}

fn card(name: &str, port: u16) -> serde_json::Value {
    json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
        "name": format!("bench.test/{name}"),
        "version": "1.0.0",
        "description": "A simulated MCP server",
        "remotes": [{
            "type": "streamable-http",
            "url": format!("https://{name}:{port}/mcp"),
            "supportedProtocolVersions": ["2025-11-25"]
        }],
    })
}

/// A small homepage shaped like a real one: `<link>`s in the head, text and anchors below.
const PLAIN_HOME: &str = concat!(
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">",
    "<title>A page</title><meta name=\"viewport\" content=\"width=device-width\">",
    "<link rel=\"stylesheet\" href=\"/static/site.css\"><link rel=\"icon\" href=\"/favicon.ico\">",
    "<link rel=\"canonical\" href=\"/\"><script src=\"/static/app.js\" defer></script></head>",
    "<body><header><nav><a href=\"/\">Home</a> <a href=\"/about\">About</a> ",
    "<a href=\"/blog\">Blog</a> <a href=\"/contact\">Contact</a></nav></header><main>",
    "<h1>Welcome</h1><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod ",
    "tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud ",
    "exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</p><p>Duis aute irure ",
    "dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. ",
    "Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit ",
    "anim id est laborum.</p><ul><li><a href=\"/a\">One</a></li><li><a href=\"/b\">Two</a></li>",
    "<li><a href=\"/c\">Three</a></li></ul></main><footer><p>&copy; 2026 Example</p>",
    "</footer></body></html>"
);
