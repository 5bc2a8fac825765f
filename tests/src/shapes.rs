//! The real web's shapes for the simulated web: where sites live (apex → `www`, `www` → apex),
//! redirects that leave the site or loop, catch-all pages, bot walls and partial 5xx, each with
//! or without an MCP server behind it; and a mix of them in published proportions.
//!
//! ```no_run
//! use mcpcensus_simweb::shapes::{mix, Shape};
//! let sites = mix(200, 7); // 200 shaped sites, deterministic for seed 7
//! let apex = Shape::ApexToWww.build("a0.test", true);
//! assert_eq!(apex.input, "a0.test");
//! # let _ = sites;
//! ```
//!
//! The mix ([`MIX`], per mille of sites) and where each share comes from:
//!
//! - `www` origins: HTTP Archive counts 41–43% of the origins it crawls as `www.` origins
//!   (Web Almanac, "Page weight"/"CDN" chapters' origin tables, 2022–2024); a list of registrable
//!   domains reaches them through an apex that redirects: [`Shape::ApexToWww`] 420‰.
//! - `www` → apex: no published share was found; 30‰ is an assumption, kept small.
//! - a homepage redirecting to another site (parked, merged or moved brands) and redirect
//!   loops: no published share was found; 20‰ and 2‰ are assumptions.
//! - soft 404s (a 200 HTML page for every path): Bar-Yossef et al., "Sic Transit Gloria
//!   Telae" (WWW 2004) found about 25% of dead links answering a soft 404; 150‰ of sites
//!   here.
//! - bot walls (a 403 HTML challenge to a non-browser client): no published share was found;
//!   30‰ is an assumption.
//! - 5xx on some paths only: assumption, 10‰; every `/.well-known/` path answering 503
//!   ([`Shape::WellKnownUnavailable`]): assumption, 5‰.
//! - slow and trickling sites: CrUX, as the Web Almanac's Performance chapters (2022–2024) read
//!   it, rates a large minority of origins' time to first byte as not good, but no published
//!   share of homepages whose headers take several seconds was found: [`Shape::SlowHome`]
//!   (headers after [`SLOW_HEAD`]) 20‰, [`Shape::StalledHome`] (after [`STALLED_HEAD`], past
//!   the crawler's 10 s per document) 5‰ and [`Shape::TrickleHome`] (a body of
//!   [`TRICKLE_BODY`] bytes, [`TRICKLE_BYTES`] a second) 5‰ are assumptions.
//! - sites with only IPv6 addresses ([`Shape::Ipv6Only`]): rare on top lists; no published
//!   share was found, 1‰ is an assumption.
//! - sites that reset TLS ([`Shape::TlsReset`]: RST after the ClientHello; [`Shape::TlsClose`]:
//!   closed after it): no published share was found; 3‰ and 2‰ are assumptions.
//! - servers only the newest discovery finds ([`Shape::NewestOnly`]): assumption, 2‰ (the
//!   2026-07-28 revision is new; every one carries a server).
//! - the rest ([`Shape::Plain`]): a homepage and 404 elsewhere.
//!
//! The API and agent surface shapes without MCP ([`Shape::ApiOnly`], [`Shape::AgentCardOnly`],
//! [`Shape::OauthOnly`], and [`Shape::SoftApiCatalog`], whose catalog path is a soft 404) are
//! not in the mix: no published share of sites serving those documents was found.
//!
//! An MCP server sits behind a shape when [`ShapedSite::server`] is set: [`mix`] puts one behind
//! every 50th site of each shape that can carry one (the share of sites publishing an MCP
//! endpoint is small; no census has measured it yet, which is what this crawler is for).

use std::time::Duration;

use serde_json::json;

use crate::mcp::origin_for;
use crate::mcp::McpServer;
use crate::reply::Reply;
use crate::site::{Site, TlsFault};

/// One shape of the real web.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// The apex answers every path with a 301 to `https://www.{host}` (the same path); the
    /// site lives at `www`.
    ApexToWww,
    /// `www.{apex}` answers every path with a 301 to the apex; the site lives at the apex.
    WwwToApex,
    /// The homepage redirects to another site (`moved-{host}`).
    OtherSite,
    /// The apex redirects to `www`, which redirects back.
    Loop,
    /// A 200 HTML page for every path (soft 404).
    SoftNotFound,
    /// A 403 HTML challenge for every path.
    BotWall,
    /// The homepage and the server card answer; the legacy card and the catalog answer 503.
    PartialFiveHundred,
    /// Every `/.well-known/` path answers 503 (no Retry-After): a path routed to a backend
    /// that is not there. The homepage and `/mcp` answer.
    WellKnownUnavailable,
    /// The homepage's headers come after [`SLOW_HEAD`]; every other path answers at once.
    SlowHome,
    /// The homepage's headers come after [`STALLED_HEAD`], past the crawler's time for a
    /// document; every other path answers at once.
    StalledHome,
    /// The homepage's body trickles, [`TRICKLE_BYTES`] a second, for longer than the crawler's
    /// time for a document.
    TrickleHome,
    /// DNS gives only an IPv6 address (::1); the site serves there.
    Ipv6Only,
    /// TCP is accepted, then the connection is reset after the ClientHello.
    TlsReset,
    /// TCP is accepted, then the connection is closed after the ClientHello.
    TlsClose,
    /// Only the newest discovery finds it: `/.well-known/ai-catalog.json` lists the card at
    /// `<endpoint>/server-card`, and the server answers only the 2026-07-28 revision
    /// (`server/discover`, no `initialize`).
    NewestOnly,
    /// A homepage and 404 elsewhere.
    Plain,
    /// The apex redirects every path to `www`; the card at `www` names the server at
    /// `https://mcp.{host}/mcp`, on its own subdomain (the marketing site at www, the MCP
    /// server on its own host).
    WwwWithMcpHost,
    /// `www.{apex}` redirects to the apex, whose card names the server at
    /// `https://api.{apex}/mcp`.
    ApexWithApiHost,
    /// A brand alias or dedicated MCP host: its homepage redirects to another site
    /// (`moved-{host}`), while its own `/mcp` serves MCP (GET: 405 `Allow: POST`).
    BrandAlias,
    /// An API and no MCP: an RFC 9727 Linkset at `/.well-known/api-catalog`, and a homepage
    /// whose `<link rel="service-desc">` names its OpenAPI document (`/openapi.json`) and whose
    /// `<link rel="service-doc">` names its documentation.
    ApiOnly,
    /// An A2A agent and no MCP: an agent card at `/.well-known/agent-card.json`.
    AgentCardOnly,
    /// OAuth metadata at the root and no MCP: RFC 9728's protected resource and RFC 8414's
    /// authorization server documents.
    OauthOnly,
    /// `/.well-known/api-catalog` answers a 200 HTML page (a soft 404); every other path but
    /// the homepage 404s.
    SoftApiCatalog,
}

/// When a [`Shape::SlowHome`] homepage's headers come: slow, within the crawler's 10 s.
pub const SLOW_HEAD: Duration = Duration::from_secs(4);
/// When a [`Shape::StalledHome`] homepage's headers come: past the crawler's 10 s.
pub const STALLED_HEAD: Duration = Duration::from_secs(15);
/// A [`Shape::TrickleHome`] homepage's length, sent [`TRICKLE_BYTES`] a second.
pub const TRICKLE_BODY: usize = 480;
/// Bytes a second of a [`Shape::TrickleHome`] homepage.
pub const TRICKLE_BYTES: usize = 16;

/// The shares of [`mix`], per mille, in the order [`mix`] deals them.
pub const MIX: &[(Shape, u32)] = &[
    (Shape::ApexToWww, 420),
    (Shape::WwwToApex, 30),
    (Shape::OtherSite, 20),
    (Shape::Loop, 2),
    (Shape::SoftNotFound, 150),
    (Shape::BotWall, 30),
    (Shape::PartialFiveHundred, 10),
    (Shape::WellKnownUnavailable, 5),
    (Shape::SlowHome, 20),
    (Shape::StalledHome, 5),
    (Shape::TrickleHome, 5),
    (Shape::Ipv6Only, 1),
    (Shape::TlsReset, 3),
    (Shape::TlsClose, 2),
    (Shape::NewestOnly, 2),
    (Shape::Plain, 295),
];

/// The sites of one shape: the host to put in the input list, every virtual site it needs, and
/// the MCP server when one sits behind it.
#[derive(Clone, Debug)]
pub struct ShapedSite {
    pub shape: Shape,
    /// The host the input list names.
    pub input: String,
    /// The host the site lives at (where documents and the server answer), when it lives
    /// anywhere.
    pub lives_at: Option<String>,
    pub sites: Vec<Site>,
    pub server: Option<McpServer>,
}

fn home() -> Reply {
    Reply::html("<!doctype html><html><head><title>Home</title></head><body>Welcome</body></html>")
}

/// Every path redirects (301) to the same path on `to`, on the request's port.
fn redirect_all(to: String) -> Reply {
    Reply::handler(move |req| {
        let path = req.path.clone();
        Reply::redirect(301, &format!("{}{path}", origin_for(req, &to)))
    })
}

/// The site at `host` with a homepage, and a card naming `server` at `/mcp` when one is given.
fn living(host: &str, server: Option<&McpServer>) -> Site {
    serving(host, home(), server)
}

/// The same with its own homepage.
fn serving(host: &str, home: Reply, server: Option<&McpServer>) -> Site {
    let site = Site::new(host).route("/", home);
    let Some(server) = server else { return site };
    site.route(
        "/.well-known/mcp/server-card.json",
        card_reply(host.to_owned()),
    )
    .mcp("/mcp", server)
}

/// A server card naming `https://{host}:PORT/mcp`.
fn card_reply(host: String) -> Reply {
    Reply::handler(move |req| {
        let url = format!("{}/mcp", origin_for(req, &host));
        Reply::json(json!({
            "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
            "name": "test.example/shaped",
            "version": "1.0.0",
            "description": "A simulated MCP server behind a shape",
            "remotes": [{"type": "streamable-http", "url": url,
                         "supportedProtocolVersions": ["2025-11-25", "2026-07-28"]}],
        }))
    })
}

/// The site of an API or agent surface shape without MCP.
fn surface_site(shape: Shape, host: &str) -> Site {
    let at = host.to_owned();
    // Absolute URLs on the request's port, as a real site writes them.
    let json_at = move |body: fn(&str) -> serde_json::Value| {
        let at = at.clone();
        Reply::handler(move |req| Reply::json(body(&origin_for(req, &at))))
    };
    match shape {
        Shape::ApiOnly => {
            let page = Reply::html(
                "<!doctype html><html><head><title>Home</title>\
                 <link rel=\"service-desc\" href=\"/openapi.json\" \
                 type=\"application/vnd.oai.openapi+json\">\
                 <link rel=\"service-doc\" href=\"/docs\"></head><body>Welcome</body></html>",
            );
            let at = host.to_owned();
            let catalog = Reply::handler(move |req| {
                let origin = origin_for(req, &at);
                Reply::bytes(
                    "application/linkset+json",
                    json!({"linkset": [{"anchor": format!("{origin}/api/v1"),
                        "service-desc": [{"href": format!("{origin}/openapi.json"),
                                          "type": "application/vnd.oai.openapi+json"}],
                        "service-doc": [{"href": format!("{origin}/docs"), "type": "text/html"}]}]})
                    .to_string(),
                )
            });
            Site::new(host)
                .route("/", page)
                .route("/.well-known/api-catalog", catalog)
                .route(
                    "/openapi.json",
                    json_at(|origin| {
                        json!({"openapi": "3.1.0",
                               "info": {"title": "Simulated API", "version": "1.0.0"},
                               "servers": [{"url": format!("{origin}/api/v1")}],
                               "paths": {"/items": {"get": {"responses": {"200": {
                                   "description": "The items"}}}}}})
                    }),
                )
                .route("/docs", home())
        }
        Shape::AgentCardOnly => Site::new(host).route("/", home()).route(
            "/.well-known/agent-card.json",
            json_at(|origin| {
                json!({"name": "Simulated travel agent", "description": "Books trips",
                       "url": format!("{origin}/a2a"), "version": "1.0.0",
                       "protocolVersion": "0.3.0",
                       "capabilities": {"streaming": true},
                       "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
                       "skills": [{"id": "book", "name": "Book a trip",
                                   "description": "Books a trip", "tags": ["travel"]}]})
            }),
        ),
        Shape::OauthOnly => Site::new(host)
            .route("/", home())
            .route(
                "/.well-known/oauth-protected-resource",
                json_at(|origin| {
                    json!({"resource": origin, "authorization_servers": [origin],
                           "bearer_methods_supported": ["header"]})
                }),
            )
            .route(
                "/.well-known/oauth-authorization-server",
                json_at(|origin| {
                    json!({"issuer": origin,
                           "authorization_endpoint": format!("{origin}/authorize"),
                           "token_endpoint": format!("{origin}/token"),
                           "response_types_supported": ["code"]})
                }),
            ),
        _ => Site::new(host).route("/", home()).route(
            "/.well-known/api-catalog",
            Reply::html("<!doctype html><html><body>Page not found, but 200</body></html>"),
        ),
    }
}

impl Shape {
    /// Whether an MCP server can be reached behind this shape.
    pub fn can_serve(self) -> bool {
        !matches!(
            self,
            Shape::OtherSite
                | Shape::Loop
                | Shape::BotWall
                | Shape::TlsReset
                | Shape::TlsClose
                | Shape::ApiOnly
                | Shape::AgentCardOnly
                | Shape::OauthOnly
                | Shape::SoftApiCatalog
        )
    }

    /// The sites of this shape for the input `host` (a name without `www.`), with an MCP
    /// server behind it when `with_server` and [`Shape::can_serve`].
    pub fn build(self, host: &str, with_server: bool) -> ShapedSite {
        let server = (with_server && self.can_serve()).then(McpServer::new);
        let www = format!("www.{host}");
        let (input, lives_at, sites) = match self {
            Shape::ApexToWww => (
                host.to_owned(),
                Some(www.clone()),
                vec![
                    Site::new(host).default(redirect_all(www.clone())),
                    living(&www, server.as_ref()),
                ],
            ),
            Shape::WwwToApex => (
                www.clone(),
                Some(host.to_owned()),
                vec![
                    Site::new(&www).default(redirect_all(host.to_owned())),
                    living(host, server.as_ref()),
                ],
            ),
            Shape::OtherSite => {
                let other = format!("moved-{host}");
                (
                    host.to_owned(),
                    None,
                    vec![
                        Site::new(host).default(redirect_all(other.clone())),
                        living(&other, None),
                    ],
                )
            }
            Shape::Loop => (
                host.to_owned(),
                None,
                vec![
                    Site::new(host).default(redirect_all(www.clone())),
                    Site::new(&www).default(redirect_all(host.to_owned())),
                ],
            ),
            Shape::SoftNotFound => {
                let site = match &server {
                    Some(s) => living(host, Some(s)),
                    None => Site::new(host),
                };
                let page =
                    Reply::html("<!doctype html><html><body>Not here, but 200</body></html>");
                (
                    host.to_owned(),
                    Some(host.to_owned()),
                    vec![site.default(page)],
                )
            }
            Shape::BotWall => {
                let wall = Reply::html(
                    "<!doctype html><html><head><title>Just a moment...</title></head>\
                     <body>Checking your browser</body></html>",
                )
                .with_status(403);
                (host.to_owned(), None, vec![Site::new(host).default(wall)])
            }
            Shape::PartialFiveHundred => {
                let busy = Reply::text("Service Unavailable").with_status(503);
                let site = living(host, server.as_ref())
                    .route("/.well-known/mcp.json", busy.clone())
                    .route("/.well-known/ai-catalog.json", busy);
                (host.to_owned(), Some(host.to_owned()), vec![site])
            }
            Shape::WellKnownUnavailable => {
                let busy = Reply::text("Service Unavailable").with_status(503);
                let site = living(host, None).route("/.well-known/*", busy);
                let site = match &server {
                    Some(s) => site.mcp("/mcp", s),
                    None => site,
                };
                (host.to_owned(), Some(host.to_owned()), vec![site])
            }
            Shape::SlowHome | Shape::StalledHome | Shape::TrickleHome | Shape::Ipv6Only => {
                let page = match self {
                    Shape::SlowHome => home().delay(SLOW_HEAD),
                    Shape::StalledHome => home().delay(STALLED_HEAD),
                    Shape::TrickleHome => Reply::html(format!(
                        "<!doctype html><html><body>{}</body></html>",
                        "x".repeat(TRICKLE_BODY - 41)
                    ))
                    .trickle(TRICKLE_BYTES, Duration::from_secs(1)),
                    _ => home(),
                };
                let site = serving(host, page, server.as_ref());
                let site = if self == Shape::Ipv6Only {
                    site.ipv6_only()
                } else {
                    site
                };
                (host.to_owned(), Some(host.to_owned()), vec![site])
            }
            Shape::TlsReset | Shape::TlsClose => {
                let fault = if self == Shape::TlsReset {
                    TlsFault::Reset
                } else {
                    TlsFault::Close
                };
                let site = Site::new(host).route("/", home()).tls_fault(fault);
                (host.to_owned(), None, vec![site])
            }
            Shape::NewestOnly => {
                let server = McpServer::modern_only();
                let (at, card_at) = (host.to_owned(), host.to_owned());
                let catalog = Reply::handler(move |req| {
                    let card = format!("{}/mcp/server-card", origin_for(req, &at));
                    Reply::bytes(
                        "application/ai-catalog+json",
                        json!({"specVersion": "1.0", "host": {"displayName": "Simulated"},
                               "entries": [{"identifier": "urn:air:shaped:mcp:newest",
                                            "type": "application/mcp-server-card+json",
                                            "url": card}]})
                        .to_string(),
                    )
                });
                let card = card_reply(card_at);
                let site = Site::new(host)
                    .route("/", home())
                    .route("/.well-known/ai-catalog.json", catalog)
                    .route("/mcp/server-card", card)
                    .mcp("/mcp", &server);
                return ShapedSite {
                    shape: self,
                    input: host.to_owned(),
                    lives_at: Some(host.to_owned()),
                    sites: vec![site],
                    server: Some(server),
                };
            }
            Shape::Plain => (
                host.to_owned(),
                Some(host.to_owned()),
                vec![living(host, server.as_ref())],
            ),
            Shape::WwwWithMcpHost | Shape::ApexWithApiHost => {
                let (input, home_at, label) = if self == Shape::WwwWithMcpHost {
                    (host.to_owned(), www.clone(), "mcp")
                } else {
                    (www.clone(), host.to_owned(), "api")
                };
                let server_at = format!("{label}.{host}");
                let mut home_site = Site::new(&home_at).route("/", home());
                let mut sites = vec![Site::new(&input).default(redirect_all(home_at.clone()))];
                if let Some(server) = &server {
                    home_site = home_site.route(
                        "/.well-known/mcp/server-card.json",
                        card_reply(server_at.clone()),
                    );
                    sites.push(Site::new(&server_at).mcp("/mcp", server));
                }
                sites.push(home_site);
                (input, Some(server_at), sites)
            }
            Shape::ApiOnly | Shape::AgentCardOnly | Shape::OauthOnly | Shape::SoftApiCatalog => {
                let site = surface_site(self, host);
                (host.to_owned(), Some(host.to_owned()), vec![site])
            }
            Shape::BrandAlias => {
                let other = format!("moved-{host}");
                let alias = Site::new(host).route("/", redirect_all(other.clone()));
                let alias = match &server {
                    Some(s) => alias.mcp("/mcp", s),
                    None => alias,
                };
                (
                    host.to_owned(),
                    Some(host.to_owned()),
                    vec![alias, living(&other, None)],
                )
            }
        };
        ShapedSite {
            shape: self,
            input,
            lives_at,
            sites,
            server,
        }
    }
}

/// `n` shaped sites named `s{i}-{seed}.test`, dealt in [`MIX`]'s proportions (a deterministic
/// interleaving: site `i` takes the shape whose cumulative share first exceeds a per-seed
/// permutation of `i`), with an MCP server behind every 50th site of each shape that can serve.
pub fn mix(n: usize, seed: u64) -> Vec<ShapedSite> {
    let mut dealt = std::collections::HashMap::<Shape, usize>::new();
    (0..n)
        .map(|i| {
            // A multiplicative hash spreads shapes over the list instead of in blocks.
            let slot = (i as u64 ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
            let per_mille = (slot % 1000) as u32;
            let mut acc = 0;
            let shape = MIX
                .iter()
                .find(|(_, share)| {
                    acc += share;
                    per_mille < acc
                })
                .map_or(Shape::Plain, |(shape, _)| *shape);
            let count = dealt.entry(shape).or_default();
            *count += 1;
            shape.build(&format!("s{i}-{seed}.test"), *count % 50 == 1)
        })
        .collect()
}
