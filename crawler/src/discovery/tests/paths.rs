use std::time::Duration;

use mcpcensus_store::{DiscoveredVia, DocumentKind, SurfaceSignal};

use super::url;
use crate::discovery::*;

#[test]
fn the_documents_table_is_the_survey_order() {
    use DiscoveredVia as Via;
    use SurfaceSignal as Signal;
    let order: Vec<(&str, DocumentKind, Reader)> = SURVEY_DOCUMENTS
        .iter()
        .map(|row| (row.path, row.kind, row.reader))
        .collect();
    assert_eq!(
        order,
        [
            (
                SERVER_CARD_PATH,
                DocumentKind::ServerCard,
                Reader::Card(Via::ServerCard)
            ),
            (
                MCP_JSON_PATH,
                DocumentKind::LegacyCard,
                Reader::Card(Via::LegacyCard)
            ),
            (
                DASHED_SERVER_CARD_PATH,
                DocumentKind::LegacyCard,
                Reader::Card(Via::LegacyCard)
            ),
            (
                BARE_SERVER_CARD_PATH,
                DocumentKind::LegacyCard,
                Reader::Card(Via::LegacyCard)
            ),
            (
                AI_CATALOG_PATH,
                DocumentKind::AiCatalog,
                Reader::Catalog(Via::AiCatalog)
            ),
            (MCP_PATH, DocumentKind::McpPath, Reader::McpPath),
            // The API and agent surface after the MCP check's own documents.
            (
                "/.well-known/api-catalog",
                DocumentKind::ApiCatalog,
                Reader::Surface(Signal::ApiCatalog)
            ),
            (
                "/.well-known/agent-card.json",
                DocumentKind::AgentCard,
                Reader::Surface(Signal::A2aAgentCard)
            ),
            (
                "/.well-known/oauth-protected-resource",
                DocumentKind::ProtectedResource,
                Reader::Surface(Signal::OauthProtectedResource)
            ),
            (
                "/.well-known/oauth-authorization-server",
                DocumentKind::AuthServer,
                Reader::Surface(Signal::OauthAuthorizationServer)
            ),
        ]
    );
    // The plain GET of /mcp can never eat the session's 12 s.
    assert!(SURVEY_DOCUMENTS
        .iter()
        .all(|row| row.timeout < Duration::from_secs(12)));
}

#[test]
fn discovery_gets_send_the_survey_headers() {
    assert_eq!(
        DISCOVERY_HEADERS,
        [
            (
                "accept",
                "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.7"
            ),
            ("accept-language", "en"),
        ]
    );
}

#[test]
fn endpoint_server_card_appends_to_the_path() {
    let cases = [
        (
            "https://example.com/mcp",
            "https://example.com/mcp/server-card",
        ),
        (
            "https://example.com/mcp/",
            "https://example.com/mcp/server-card",
        ),
        ("https://example.com", "https://example.com/server-card"),
        (
            "https://api.example.com:8443/v1/mcp?key=1#x",
            "https://api.example.com:8443/v1/mcp/server-card",
        ),
    ];
    for (endpoint, card) in cases {
        assert_eq!(endpoint_server_card_url(&url(endpoint)).as_str(), card);
    }
}
