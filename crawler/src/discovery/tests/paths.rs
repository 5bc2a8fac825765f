use std::time::Duration;

use mcpcensus_store::DiscoveredVia;

use super::url;
use crate::discovery::*;

#[test]
fn the_documents_table_is_the_survey_order() {
    let order: Vec<(&str, DiscoveredVia, Reader)> = SURVEY_DOCUMENTS
        .iter()
        .map(|row| (row.path, row.via, row.reader))
        .collect();
    assert_eq!(
        order,
        [
            (SERVER_CARD_PATH, DiscoveredVia::ServerCard, Reader::Card),
            (MCP_JSON_PATH, DiscoveredVia::LegacyCard, Reader::Card),
            (
                DASHED_SERVER_CARD_PATH,
                DiscoveredVia::LegacyCard,
                Reader::Card
            ),
            (
                BARE_SERVER_CARD_PATH,
                DiscoveredVia::LegacyCard,
                Reader::Card
            ),
            (AI_CATALOG_PATH, DiscoveredVia::AiCatalog, Reader::Catalog),
            (MCP_PATH, DiscoveredVia::McpPath, Reader::McpPath),
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
