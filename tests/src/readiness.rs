//! Sites for the readiness level: one per agent-readiness signal, one with every signal, and a
//! catch-all that answers 200 with its homepage at every path (where every check must be
//! false, and a naive 200 count would have called most of them present).
//!
//! ```no_run
//! use mcpcensus_simweb::readiness::{catch_all_site, signal_site, Signal};
//! let one = signal_site("llms.test", &[Signal::LlmsTxt]);
//! let all = signal_site("all.test", &Signal::ALL);
//! let soft = catch_all_site("soft.test");
//! # let _ = (one, all, soft);
//! ```

use serde_json::json;

use crate::mcp::origin_for;
use crate::reply::Reply;
use crate::site::Site;

/// One signal a site can publish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signal {
    /// A robots.txt with groups for GPTBot (disallowed) and ClaudeBot (partial).
    RobotsAiRules,
    /// A robots.txt with a `Content-Signal:` line.
    ContentSignals,
    /// A robots.txt naming a sitemap, and the sitemap.
    Sitemap,
    /// An `Agentmap:` line in robots.txt.
    Agentmap,
    /// The homepage's `Link` header names the API catalog.
    LinkHeaders,
    /// The homepage answers `Accept: text/markdown` with markdown.
    Markdown,
    LlmsTxt,
    LlmsFullTxt,
    /// An A2A agent card at `/.well-known/agent-card.json`.
    AgentCard,
    /// A skills index at `/.well-known/agent-skills/index.json`.
    AgentSkills,
    /// An RFC 9727 Linkset at `/.well-known/api-catalog`.
    ApiCatalog,
    /// RFC 8414 metadata at `/.well-known/oauth-authorization-server`.
    OauthDiscovery,
    /// RFC 9728 metadata at `/.well-known/oauth-protected-resource`.
    ProtectedResource,
    /// A server card at `/.well-known/mcp/server-card.json`.
    ServerCard,
    /// A form with a WebMCP tool name on the homepage.
    WebMcp,
    /// `<link rel="ai-catalog">` on the homepage.
    AiCatalogLink,
}

impl Signal {
    pub const ALL: [Signal; 16] = [
        Signal::RobotsAiRules,
        Signal::ContentSignals,
        Signal::Sitemap,
        Signal::Agentmap,
        Signal::LinkHeaders,
        Signal::Markdown,
        Signal::LlmsTxt,
        Signal::LlmsFullTxt,
        Signal::AgentCard,
        Signal::AgentSkills,
        Signal::ApiCatalog,
        Signal::OauthDiscovery,
        Signal::ProtectedResource,
        Signal::ServerCard,
        Signal::WebMcp,
        Signal::AiCatalogLink,
    ];
}

const HOME_TEXT: &str = "# Home\n\nWelcome.\n";

/// A site at `host` publishing `signals` (and a homepage, and 404 elsewhere).
pub fn signal_site(host: &str, signals: &[Signal]) -> Site {
    let has = |s: Signal| signals.contains(&s);
    let mut robots = String::from("User-agent: *\nAllow: /\n");
    if has(Signal::RobotsAiRules) {
        robots.push_str(
            "\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: ClaudeBot\nDisallow: /private\n",
        );
    }
    if has(Signal::ContentSignals) {
        robots.push_str("\nContent-Signal: search=yes, ai-train=no\n");
    }
    if has(Signal::Sitemap) {
        robots.push_str("Sitemap: /sitemap.xml\n");
    }
    if has(Signal::Agentmap) {
        robots.push_str("Agentmap: /agents.json\n");
    }
    let mut head = String::from("<title>Home</title>");
    if has(Signal::AiCatalogLink) {
        head.push_str("<link rel=\"ai-catalog\" href=\"/.well-known/ai-catalog.json\">");
    }
    let mut body = String::from("Welcome");
    if has(Signal::WebMcp) {
        body.push_str(
            "<form toolname=\"searchDocs\" tooldescription=\"Search the docs\" action=\"/s\">\
             <input name=\"q\"></form>",
        );
    }
    let page = format!("<!doctype html><html><head>{head}</head><body>{body}</body></html>");
    let link = has(Signal::LinkHeaders);
    let markdown = has(Signal::Markdown);
    let home = Reply::handler(move |req| {
        let wants_markdown = req
            .header("accept")
            .is_some_and(|a| a.starts_with("text/markdown"));
        let reply = if markdown && wants_markdown {
            Reply::bytes("text/markdown; charset=utf-8", HOME_TEXT)
        } else {
            Reply::html(page.clone())
        };
        if link {
            reply.header("link", "</.well-known/api-catalog>; rel=\"api-catalog\"")
        } else {
            reply
        }
    });
    let mut site = Site::new(host)
        .route("/", home)
        .route("/robots.txt", Reply::text(robots));
    let at = host.to_owned();
    let json_at = move |body: fn(&str) -> serde_json::Value| {
        let at = at.clone();
        Reply::handler(move |req| Reply::json(body(&origin_for(req, &at))))
    };
    for signal in signals {
        site = match signal {
            Signal::Sitemap => site.route(
                "/sitemap.xml",
                Reply::bytes(
                    "application/xml",
                    "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>/</loc></url></urlset>",
                ),
            ),
            Signal::LlmsTxt => site.route(
                "/llms.txt",
                Reply::text("# Example\n\n> A simulated site.\n\n## Docs\n\n- [Home](/): the homepage\n"),
            ),
            Signal::LlmsFullTxt => site.route(
                "/llms-full.txt",
                Reply::bytes("text/markdown", "# Example\n\nEverything, in one file.\n"),
            ),
            Signal::AgentCard => site.route(
                "/.well-known/agent-card.json",
                json_at(|origin| {
                    json!({"name": "Simulated agent", "url": format!("{origin}/a2a"),
                           "version": "1.0.0", "skills": []})
                }),
            ),
            Signal::AgentSkills => site.route(
                "/.well-known/agent-skills/index.json",
                Reply::json(json!({"skills": [{"name": "search-docs",
                    "description": "Search the docs", "url": "/skills/search-docs/SKILL.md"}]})),
            ),
            Signal::ApiCatalog => {
                let at = host.to_owned();
                site.route(
                    "/.well-known/api-catalog",
                    Reply::handler(move |req| {
                        let origin = origin_for(req, &at);
                        let set = json!({"linkset": [{"anchor": format!("{origin}/api"),
                            "service-desc": [{"href": format!("{origin}/openapi.json")}]}]});
                        Reply::bytes("application/linkset+json", set.to_string())
                    }),
                )
            }
            Signal::OauthDiscovery => site.route(
                "/.well-known/oauth-authorization-server",
                json_at(|origin| {
                    json!({"issuer": origin, "token_endpoint": format!("{origin}/token")})
                }),
            ),
            Signal::ProtectedResource => site.route(
                "/.well-known/oauth-protected-resource",
                json_at(|origin| json!({"resource": origin, "authorization_servers": [origin]})),
            ),
            Signal::ServerCard => site.route(
                "/.well-known/mcp/server-card.json",
                json_at(|origin| {
                    json!({"name": "test.example/readiness", "version": "1.0.0",
                           "description": "A card without a live server",
                           "remotes": [{"type": "streamable-http", "url": format!("{origin}/mcp")}]})
                }),
            ),
            _ => site,
        };
    }
    site
}

/// A site that answers every path, robots.txt included, with its homepage (200 HTML).
pub fn catch_all_site(host: &str) -> Site {
    Site::new(host).default(Reply::html(
        "<!doctype html><html><head><title>Home</title></head><body>Welcome</body></html>",
    ))
}
