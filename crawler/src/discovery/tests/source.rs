use crate::discovery::*;

fn card(body: &str) -> Option<ParsedCard> {
    parse_card(None, body.as_bytes()).into_parsed()
}

#[test]
fn the_first_hit_in_the_discovery_audit_order_wins() {
    let all = SourceHits {
        ai_catalog: true,
        server_card: true,
        endpoint_server_card: true,
        mcp_json: true,
    };
    assert_eq!(discovery_source(&all), Some(DiscoverySource::AiCatalog));
    let no_catalog = SourceHits {
        ai_catalog: false,
        ..all
    };
    assert_eq!(
        discovery_source(&no_catalog),
        Some(DiscoverySource::ServerCard)
    );
    let endpoint_only = SourceHits {
        endpoint_server_card: true,
        mcp_json: true,
        ..SourceHits::default()
    };
    assert_eq!(
        discovery_source(&endpoint_only),
        Some(DiscoverySource::EndpointServerCard)
    );
    let manifest_only = SourceHits {
        mcp_json: true,
        ..SourceHits::default()
    };
    assert_eq!(
        discovery_source(&manifest_only),
        Some(DiscoverySource::McpJson)
    );
    assert_eq!(discovery_source(&SourceHits::default()), None);
}

#[test]
fn text_forms_round_trip() {
    let texts: Vec<&str> = DiscoverySource::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(
        texts,
        [
            "ai_catalog",
            "server_card",
            "endpoint_server_card",
            "mcp_json"
        ]
    );
    for &source in DiscoverySource::ALL {
        assert_eq!(DiscoverySource::parse(source.as_str()), Some(source));
        assert_eq!(source.to_string(), source.as_str());
    }
    assert_eq!(DiscoverySource::parse("legacy_card"), None);
}

#[test]
fn a_soft_404_or_an_empty_object_is_not_a_hit() {
    assert!(SourceHits::card_hit(
        card(r#"{"name":"com.example/x"}"#).as_ref()
    ));
    assert!(!SourceHits::card_hit(card("{}").as_ref()));
    assert!(!SourceHits::card_hit(
        card("<!doctype html><p>404").as_ref()
    ));
    assert!(!SourceHits::card_hit(None));
}
