//! The homepage's `Link` header relations an agent can follow (RFC 8288), and the AIPREF
//! `Content-Usage` response header.

use http::HeaderMap;

use crate::discovery::parse_link_header;

/// The relations `linkHeaders` counts, in the order the record lists them.
pub const AGENT_RELS: [&str; 8] = [
    "api-catalog",
    "service-desc",
    "service-doc",
    "describedby",
    "ai-catalog",
    "mcp",
    "mcp-server",
    "agentmap",
];

/// The agent relations the homepage's `Link` headers name, each once, in [`AGENT_RELS`]'s order
/// (our own strings: nothing the server wrote is kept).
pub fn agent_link_rels(headers: &HeaderMap) -> Vec<&'static str> {
    let mut seen = [false; AGENT_RELS.len()];
    for value in headers.get_all(http::header::LINK) {
        let Ok(text) = value.to_str() else { continue };
        for link in parse_link_header(text) {
            for rel in &link.rels {
                if let Some(at) = AGENT_RELS.iter().position(|r| r == rel) {
                    seen[at] = true;
                }
            }
        }
    }
    AGENT_RELS
        .iter()
        .zip(seen)
        .filter(|(_, seen)| *seen)
        .map(|(rel, _)| *rel)
        .collect()
}

/// The AIPREF `Content-Usage` response header, when it says something.
pub fn content_usage_header(headers: &HeaderMap) -> bool {
    headers
        .get_all("content-usage")
        .iter()
        .any(|v| v.to_str().is_ok_and(|v| !v.trim().is_empty()))
}
