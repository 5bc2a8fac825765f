//! The simulated web serving the stand-in: the registry, and one site per endpoint host
//! answering as its kind says. A template's host (when it names one) serves a live server on
//! every path, so a request to it would be logged and even answered; a dead host has no site.

use std::collections::HashSet;
use std::time::Duration;

use super::kind::Kind;
use super::list::{Endpoint, Standin};
use crate::mcp::{LegacySseServer, McpServer};
use crate::{Reply, Site};

const SIGNIN_PAGE: &str = "<!doctype html><html><head><title>Sign in</title></head><body>\
    <form method=\"post\" action=\"/login\"><input name=\"email\"><input type=\"password\" \
    name=\"password\"><button>Sign in</button></form></body></html>";

impl Standin {
    /// The web's sites: the registry at `registry_host`, then one per endpoint host. A
    /// recovering server comes back at the first request `gap` after the one before it.
    pub fn sites(&self, registry_host: &str, gap: Duration) -> Vec<Site> {
        let mut hosts = HashSet::new();
        let mut sites = vec![self.registry().site(registry_host)];
        for e in &self.endpoints {
            let Some(host) = e.host() else { continue };
            assert!(hosts.insert(host.to_owned()), "one endpoint a host: {host}");
            sites.extend(site(e, host, gap));
        }
        sites
    }
}

/// A 503 asking for no pause (`Retry-After: 0`): a look's requests come back to back, so
/// the looks of an endpoint are told apart by the pause between them.
fn unavailable() -> Reply {
    Reply::text("Service Unavailable")
        .with_status(503)
        .header("retry-after", "0")
}

/// The site of an endpoint's host; none for a host not in DNS.
fn site(e: &Endpoint, host: &str, gap: Duration) -> Option<Site> {
    let site = Site::new(host);
    let path = e.path();
    Some(match e.kind {
        // The trailing-slash spelling reaches the same server.
        Kind::Live => {
            let server = McpServer::new();
            site.mcp(path, &server).mcp(&format!("{path}/"), &server)
        }
        Kind::Modern => site.mcp(path, &McpServer::modern_only()),
        Kind::Sse => site.legacy_sse(path, &LegacySseServer::new(McpServer::new())),
        Kind::Initialized400 => site.mcp(path, &McpServer::new().initialized_status(400)),
        Kind::Unauthorized => site.route(
            path,
            Reply::text("Unauthorized")
                .with_status(401)
                .header("www-authenticate", "Bearer realm=\"mcp\""),
        ),
        Kind::Forbidden => site.route(path, Reply::text("Forbidden").with_status(403)),
        Kind::SigninRedirect => site
            .route(path, Reply::redirect(302, "/login?next=%2Fmcp"))
            .route("/login", Reply::html(SIGNIN_PAGE)),
        Kind::Html => site.route(path, Reply::html("<!doctype html><title>Docs</title>")),
        Kind::NoDns => return None,
        Kind::TooMany => site.route(path, Reply::text("Too Many Requests").with_status(429)),
        Kind::Unavailable => site.route(path, unavailable()),
        Kind::Recovers => site.mcp_recovering(path, &McpServer::new(), unavailable(), gap),
        Kind::Template => site.mcp("/*", &McpServer::new()),
    })
}
