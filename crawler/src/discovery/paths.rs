//! Where discovery looks (the order and reading of each document is `table.rs`), and what a
//! discovery GET sends.

use url::Url;

/// The card path third-party scanners and sites settled on (Cloudflare, Mintlify).
pub const SERVER_CARD_PATH: &str = "/.well-known/mcp/server-card.json";
/// The folk manifest that predates cards; the discovery audit reports it, the survey reads it
/// as a card.
pub const MCP_JSON_PATH: &str = "/.well-known/mcp.json";
/// The path in the card extension's first schema.
pub const DASHED_SERVER_CARD_PATH: &str = "/.well-known/mcp-server-card.json";
/// The path from the SEP-2127 review (IANA suffix `mcp`), without an extension.
pub const BARE_SERVER_CARD_PATH: &str = "/.well-known/mcp/server-card";
pub const AI_CATALOG_PATH: &str = "/.well-known/ai-catalog.json";
/// RFC 9727's API catalog (a Linkset, or another JSON format by content negotiation).
pub const API_CATALOG_PATH: &str = "/.well-known/api-catalog";
/// The A2A agent card's path since A2A 0.3 (IANA-registered `agent-card.json`). The legacy
/// `/.well-known/agent.json` of A2A 0.2 is not requested: one more GET on every site for a path
/// the protocol has replaced (docs/rules.md, "The surface population").
pub const AGENT_CARD_PATH: &str = "/.well-known/agent-card.json";
/// RFC 9728's protected resource metadata, at the root (the resource is the origin).
pub const PROTECTED_RESOURCE_PATH: &str = "/.well-known/oauth-protected-resource";
/// RFC 8414's authorization server metadata, at the root (the issuer is the origin).
pub const AUTH_SERVER_PATH: &str = "/.well-known/oauth-authorization-server";
/// Requested with one plain GET (the survey).
pub const MCP_PATH: &str = "/mcp";
/// Appended to an endpoint URL: where the card extension recommends hosting the card.
pub const ENDPOINT_SERVER_CARD_SUFFIX: &str = "/server-card";

/// The `Accept` of the survey's reproduction, sent on every discovery GET: the homepage, the
/// card paths, the catalog, catalog-listed cards, `/mcp` and the API and agent surface
/// documents (its `*/*` admits the API catalog's `application/linkset+json`).
///
/// The card extension says clients SHOULD send `Accept: application/mcp-server-card+json`; we
/// do not. A server that negotiates content could answer the two differently, and our verdicts
/// have to match the reference scanner's on the same site. The `*/*;q=0.7` still admits any
/// JSON type, and static card files ignore `Accept` anyway.
pub const DISCOVERY_ACCEPT: &str =
    "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.7";
pub const DISCOVERY_ACCEPT_LANGUAGE: &str = "en";
/// The headers of a discovery GET, beside the user agent the client sets.
pub const DISCOVERY_HEADERS: [(&str, &str); 2] = [
    ("accept", DISCOVERY_ACCEPT),
    ("accept-language", DISCOVERY_ACCEPT_LANGUAGE),
];

/// The card's media type (for the audit's content-type checks; not sent, see above).
pub const SERVER_CARD_MEDIA_TYPE: &str = "application/mcp-server-card+json";
pub const AI_CATALOG_MEDIA_TYPE: &str = "application/ai-catalog+json";
pub const A2A_AGENT_CARD_MEDIA_TYPE: &str = "application/a2a-agent-card+json";

/// `<endpoint>/server-card`: `https://host/mcp` gives `https://host/mcp/server-card`. A
/// trailing slash is not doubled; the query and fragment are dropped (the card names a
/// resource under the endpoint's path, not a variant of the endpoint request).
pub fn endpoint_server_card_url(endpoint: &Url) -> Url {
    let mut url = endpoint.clone();
    url.set_query(None);
    url.set_fragment(None);
    let path = format!(
        "{}{ENDPOINT_SERVER_CARD_SUFFIX}",
        endpoint.path().trim_end_matches('/')
    );
    url.set_path(&path);
    url
}
