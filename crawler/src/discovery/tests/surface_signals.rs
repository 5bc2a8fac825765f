use mcpcensus_store::SurfaceSignal as Signal;
use serde_json::json;

use super::url;
use crate::discovery::*;

fn link(kind: LinkKind, rel: &str) -> FoundLink {
    FoundLink {
        href: "/x".to_owned(),
        base: url("https://example.com/"),
        kind,
        rel: rel.to_owned(),
        in_header: false,
    }
}

fn doc(signal: Signal, counted: bool) -> SurfaceDoc {
    SurfaceDoc { signal, counted }
}

#[test]
fn nothing_seen_is_no_surface() {
    let found = Discovery {
        mcp_signal: Some(McpSignal::NoSignal {
            why: NoSignalReason::Html,
        }),
        surface_docs: vec![
            doc(Signal::ApiCatalog, false),
            doc(Signal::A2aAgentCard, false),
        ],
        ..Discovery::default()
    };
    assert!(found.surface_signals().is_empty());
}

#[test]
fn an_api_only_site_lists_its_signals_in_order_each_once() {
    let found = Discovery {
        links: vec![
            link(LinkKind::ServiceDoc, "service-doc"),
            link(LinkKind::ServiceDesc, "service-desc"),
            link(LinkKind::ServiceDesc, "service-desc"),
            link(LinkKind::ApiCatalog, "api-catalog"),
        ],
        surface_docs: vec![
            doc(Signal::ApiCatalog, true),
            doc(Signal::OauthAuthorizationServer, true),
            doc(Signal::OauthProtectedResource, false),
            doc(Signal::Openapi, true),
        ],
        ..Discovery::default()
    };
    assert_eq!(
        found.surface_signals(),
        [
            Signal::ApiCatalog,
            Signal::ServiceDesc,
            Signal::ServiceDoc,
            Signal::Openapi,
            Signal::OauthAuthorizationServer,
        ]
    );
}

#[test]
fn mcp_evidence_is_todays() {
    let signals = |found: Discovery| found.surface_signals();
    // A /mcp signal, or a 401 there.
    for signal in [
        McpSignal::AllowPost,
        McpSignal::NoSignal {
            why: NoSignalReason::Unauthorized,
        },
    ] {
        let found = Discovery {
            mcp_signal: Some(signal),
            ..Discovery::default()
        };
        assert_eq!(signals(found), [Signal::Mcp], "{signal:?}");
    }
    // A card served and parsed.
    let card = FetchedCard {
        url: url("https://example.com/.well-known/mcp/server-card.json"),
        via: mcpcensus_store::DiscoveredVia::ServerCard,
        parse: parse_card(None, json!({"name": "x"}).to_string().as_bytes()),
        headers: Default::default(),
    };
    let found = Discovery {
        cards: vec![card],
        ..Discovery::default()
    };
    assert_eq!(signals(found), [Signal::Mcp]);
    // Links: mcp, and the AI catalog apart.
    let found = Discovery {
        links: vec![
            link(LinkKind::AiCatalog, "ai-catalog"),
            link(LinkKind::Mcp, "mcp"),
        ],
        ..Discovery::default()
    };
    assert_eq!(signals(found), [Signal::Mcp, Signal::AiCatalog]);
}
