use mcpcensus_store::DiscoveredVia;

use super::url;
use crate::discovery::*;

#[test]
fn card_paths_put_the_current_path_first() {
    assert_eq!(CARD_PATHS[0], "/.well-known/mcp/server-card.json");
    assert_eq!(&CARD_PATHS[1..], &LEGACY_CARD_PATHS[..]);
    assert_eq!(card_via(SERVER_CARD_PATH), Some(DiscoveredVia::ServerCard));
    for path in LEGACY_CARD_PATHS {
        assert_eq!(card_via(path), Some(DiscoveredVia::LegacyCard), "{path}");
    }
    assert_eq!(card_via(AI_CATALOG_PATH), None);
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
