//! The discovery audit's discovery source: the first of four places that named an MCP server.
//! Its order differs from the survey's endpoint order (the catalog comes first here); each
//! measurement keeps its own, recorded in its own field.

use super::card::ParsedCard;

pub use mcpcensus_store::DiscoverySource;

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

/// The first hit in the discovery audit's order, or `None`: no MCP server discoverable.
pub fn discovery_source(hits: &SourceHits) -> Option<DiscoverySource> {
    DiscoverySource::ALL
        .iter()
        .copied()
        .find(|source| hits.hit(*source))
}
