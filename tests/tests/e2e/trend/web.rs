//! The two-night web's definition: what each site is on each night, whether tonight's list
//! names it and at which rank. The simulated web is built from it, and so is the truth the
//! reports are checked against (`truth.rs`), never from what the crawler recorded.

use std::net::Ipv4Addr;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, Site};

/// Sites on the web; `MCPCENSUS_TREND_SITES` makes it smaller while working on the test.
pub const SITES: usize = 10_000;
/// Addresses the sites share (per-IP politeness applies as on the web: 40 sites an address).
const IPS: usize = 250;
/// Ranks are spread over the top 150k, so every bucket up to "top 1M" holds sites.
const RANK_SPAN: u64 = 150_000;
/// Every 50th site plays each role (`i % 50`); the fleet's sites share one platform.
const ROLES: usize = 50;

/// What a site is across the two nights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// An open MCP server at `/mcp`, named by the homepage's Link header, both nights.
    Open,
    /// Its Link header names `/mcp`, then `/v2/mcp`.
    Moved,
    /// An open server; the second night every path answers 500.
    Outage,
    /// A server at `/mcp` and nothing naming it; the second night `/mcp` answers 500.
    McpDown,
    /// An open server; the second night every path answers 429.
    Throttled,
    /// An open server; the second night a plain homepage (the server is gone).
    Gone,
    /// A plain site; the second night an open server.
    Appears,
    /// An open server whose tool list grows by one tool the second night.
    ToolsChanged,
    /// An open server both nights; the second night's list leaves it out.
    Dropped,
    /// An open server both nights, listed only the second night.
    Added,
    /// A server at `/mcp` and nothing naming it, both nights.
    McpOnly,
    /// One of a hosting platform's sites (`shopN.fleet.test`): the same server everywhere.
    Fleet,
    /// A plain site; the second night every path answers 500.
    PlainOutage,
    /// A plain site.
    Plain,
}

/// What a site serves on one night.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Serves {
    Plain,
    /// An MCP server at `path` with these tools; `linked`: the homepage's Link header names it.
    Server {
        path: &'static str,
        tools: Vec<String>,
        linked: bool,
    },
    /// `/mcp` answers 500 to every method, the rest is a plain site.
    McpError,
    /// Every path answers this status.
    Everything(u16),
}

pub fn sites() -> usize {
    std::env::var("MCPCENSUS_TREND_SITES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SITES)
}

pub fn role(i: usize) -> Role {
    match i % ROLES {
        0 | 13 | 26 => Role::Open,
        1 => Role::Moved,
        2 => Role::Outage,
        3 => Role::McpDown,
        4 => Role::Throttled,
        5 => Role::Gone,
        6 => Role::Appears,
        7 => Role::ToolsChanged,
        8 => Role::Dropped,
        9 => Role::Added,
        10 => Role::McpOnly,
        11 | 12 => Role::Fleet,
        14 => Role::PlainOutage,
        _ => Role::Plain,
    }
}

pub fn host(i: usize) -> String {
    match role(i) {
        Role::Fleet => format!("shop{i}.fleet.test"),
        // A registrable domain each, as on the web (a shard keeps a domain's sites together).
        _ => format!("site{i}.test"),
    }
}

fn ip(i: usize) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 20, (i % IPS) as u8 + 1)
}

/// A site's own tools: names no other site has, so two sites share a server fingerprint only
/// when they are one platform's.
fn own_tools(i: usize, n: usize) -> Vec<String> {
    (0..n).map(|t| format!("tool_{i}_{t}")).collect()
}

fn server(path: &'static str, tools: Vec<String>, linked: bool) -> Serves {
    Serves::Server {
        path,
        tools,
        linked,
    }
}

/// What site `i` serves on `night` (1 or 2).
pub fn serves(i: usize, night: u8) -> Serves {
    let tools = own_tools(i, 1 + (i / ROLES) % 4);
    let first = night == 1;
    match role(i) {
        Role::Open | Role::Dropped | Role::Added => server("/mcp", tools, true),
        Role::Moved => server(if first { "/mcp" } else { "/v2/mcp" }, tools, true),
        Role::Outage if !first => Serves::Everything(500),
        Role::Throttled if !first => Serves::Everything(429),
        Role::Outage | Role::Throttled => server("/mcp", tools, true),
        Role::McpDown if !first => Serves::McpError,
        Role::McpDown | Role::McpOnly => server("/mcp", tools, false),
        Role::Gone if first => server("/mcp", tools, true),
        Role::Appears if !first => server("/mcp", tools, true),
        Role::Gone | Role::Appears | Role::Plain => Serves::Plain,
        Role::ToolsChanged => server("/mcp", own_tools(i, if first { 2 } else { 3 }), true),
        Role::Fleet => server(
            "/mcp",
            ["catalog", "cart", "checkout"].map(str::to_owned).to_vec(),
            true,
        ),
        Role::PlainOutage if !first => Serves::Everything(500),
        Role::PlainOutage => Serves::Plain,
    }
}

/// Whether `night`'s list names site `i`.
pub fn listed(i: usize, night: u8) -> bool {
    match role(i) {
        Role::Dropped => night == 1,
        Role::Added => night == 2,
        _ => true,
    }
}

/// Site `i`'s rank in `night`'s list: a different order each night.
pub fn rank(i: usize, night: u8) -> u64 {
    let shift = if night == 1 { 0 } else { 104_729 };
    1 + (i as u64 * 7_919 + shift) % RANK_SPAN
}

const HOME: &str =
    "<!doctype html><html><head><title>A site</title></head><body>Hello</body></html>";

/// The simulated site `i` on `night`.
pub fn site(i: usize, night: u8) -> Site {
    let site = Site::new(host(i)).ip(ip(i));
    match serves(i, night) {
        Serves::Plain => site.route("/", Reply::html(HOME)),
        Serves::Everything(status) => site.default(Reply::status(status)),
        Serves::McpError => site
            .route("/", Reply::html(HOME))
            .route("/mcp", Reply::status(500)),
        Serves::Server {
            path,
            tools,
            linked,
        } => {
            let names: Vec<&str> = tools.iter().map(String::as_str).collect();
            let home = if linked {
                Reply::html(HOME).header("link", format!("<{path}>; rel=\"mcp\""))
            } else {
                Reply::html(HOME)
            };
            site.route("/", home)
                .mcp(path, &McpServer::new().tools_named(&names))
        }
    }
}

/// `night`'s list: `rank,host:port` lines (Tranco's shape), in rank order.
pub fn list(night: u8, port: u16) -> String {
    let mut lines: Vec<(u64, String)> = (0..sites())
        .filter(|i| listed(*i, night))
        .map(|i| (rank(i, night), format!("{}:{port}", host(i))))
        .collect();
    lines.sort();
    lines
        .into_iter()
        .map(|(rank, site)| format!("{rank},{site}\n"))
        .collect()
}
