//! Seed 002's discovery source: the first of four places that named an MCP server. Its order
//! differs from seed 000's endpoint order (the catalog comes first here); each seed keeps its
//! own, recorded in its own field.

use super::card::ParsedCard;

/// The four places, in seed 002's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiscoverySource {
    /// An entry in `/.well-known/ai-catalog.json`.
    AiCatalog,
    /// `/.well-known/mcp/server-card.json`.
    ServerCard,
    /// `<endpoint>/server-card`.
    EndpointServerCard,
    /// `/.well-known/mcp.json`: legacy, reported and never recommended.
    McpJson,
}

impl DiscoverySource {
    /// Seed 002's order: the first hit wins.
    pub const ORDER: [DiscoverySource; 4] = [
        DiscoverySource::AiCatalog,
        DiscoverySource::ServerCard,
        DiscoverySource::EndpointServerCard,
        DiscoverySource::McpJson,
    ];

    /// The text kept in the record's `discovery_source`.
    pub fn as_str(self) -> &'static str {
        match self {
            DiscoverySource::AiCatalog => "ai_catalog",
            DiscoverySource::ServerCard => "server_card",
            DiscoverySource::EndpointServerCard => "endpoint_server_card",
            DiscoverySource::McpJson => "mcp_json",
        }
    }

    pub fn parse(text: &str) -> Option<DiscoverySource> {
        DiscoverySource::ORDER
            .into_iter()
            .find(|source| source.as_str() == text)
    }
}

impl std::fmt::Display for DiscoverySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which of the four documents named a server.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SourceHits {
    /// The catalog has a server card entry (`ParsedCatalog::has_server_card_entry`).
    pub ai_catalog: bool,
    /// The card parsed and names a server (`ParsedCard::names_server`).
    pub server_card: bool,
    pub endpoint_server_card: bool,
    pub mcp_json: bool,
}

impl SourceHits {
    /// A document counts when it parsed and names a server: a soft 404 or `{}` does not.
    pub fn card_hit(card: Option<&ParsedCard>) -> bool {
        card.is_some_and(ParsedCard::names_server)
    }

    fn hit(&self, source: DiscoverySource) -> bool {
        match source {
            DiscoverySource::AiCatalog => self.ai_catalog,
            DiscoverySource::ServerCard => self.server_card,
            DiscoverySource::EndpointServerCard => self.endpoint_server_card,
            DiscoverySource::McpJson => self.mcp_json,
        }
    }
}

/// The first hit in seed 002's order, or `None`: no MCP server discoverable.
pub fn discovery_source(hits: &SourceHits) -> Option<DiscoverySource> {
    DiscoverySource::ORDER
        .into_iter()
        .find(|source| hits.hit(*source))
}
