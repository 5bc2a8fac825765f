//! The catalog rules (MCP-CAT-001 to MCP-CAT-003) and the catalog shapes the audit reads:
//! `type` or `mediaType`, a `url` or inline `data`, nested catalogs.

use serde_json::{json, Value};

use super::*;
use crate::discovery::DiscoverySource;

const ROOT: &str = "/.well-known/ai-catalog.json";
const CARD: &str = "/cards/docs.json";

fn entry(identifier: &str, kind: &str, url: &str) -> Value {
    json!({"identifier": identifier, "type": kind, "url": url})
}

fn catalog(entries: Value) -> Value {
    json!({"specVersion": "1.0", "entries": entries})
}

/// `catalog` with `extra` as its last entry.
fn push(mut catalog: Value, extra: Value) -> Value {
    catalog["entries"].as_array_mut().unwrap().push(extra);
    catalog
}

/// A site whose catalog lists the good card at `CARD`, fetched.
fn site(root: Value) -> Docs {
    Docs::new()
        .catalog(ROOT, 0, root)
        .listed(CARD, &good_card().to_string(), card_headers())
}

#[test]
fn shape_type_with_a_url() {
    let audit = site(good_catalog(CARD)).audit();
    assert_ids(&audit, &[]);
    assert_eq!(audit.source, Some(DiscoverySource::AiCatalog));
}

#[test]
fn shape_media_type_with_a_url() {
    let root = catalog(json!([{
        "identifier": "urn:air:example.com:mcp:docs",
        "mediaType": "application/mcp-server-card+json",
        "url": CARD
    }]));
    let audit = site(root).audit();
    assert_ids(&audit, &[]);
    assert_eq!(audit.source, Some(DiscoverySource::AiCatalog));
}

#[test]
fn shape_inline_data() {
    let root = catalog(json!([{
        "identifier": "urn:air:example.com:mcp:docs",
        "type": "application/mcp-server-card+json",
        "data": good_card()
    }]));
    let audit = Docs::new().catalog(ROOT, 0, root).audit();
    assert_ids(&audit, &[]);
    assert_eq!(audit.source, Some(DiscoverySource::AiCatalog));
}

#[test]
fn shape_media_type_with_inline_data() {
    let root = catalog(json!([{
        "identifier": "urn:air:example.com:mcp:docs",
        "mediaType": "application/mcp-server-card+json",
        "data": good_card()
    }]));
    let audit = Docs::new().catalog(ROOT, 0, root).audit();
    assert_ids(&audit, &[]);
}

#[test]
fn shape_nested() {
    let root = catalog(json!([entry(
        "urn:air:example.com:catalog:mcp",
        "application/ai-catalog+json",
        "/catalogs/mcp.json"
    )]));
    let audit = Docs::new()
        .catalog(ROOT, 0, root)
        .catalog("/catalogs/mcp.json", 1, good_catalog(CARD))
        .listed(CARD, &good_card().to_string(), card_headers())
        .audit();
    assert_ids(&audit, &[]);
    assert_eq!(audit.source, Some(DiscoverySource::AiCatalog));
}

#[test]
fn no_spec_version_on_the_catalog_a_card_was_found_through() {
    let root = without(good_catalog(CARD), "/specVersion");
    let audit = site(root).audit();
    assert_ids(&audit, &["MCP-CAT-001"]);
    let finding = only(&audit, "MCP-CAT-001");
    assert_eq!(finding.evidence, "`specVersion` is absent");
    assert_eq!(
        finding.url.as_deref(),
        Some("https://example.com/.well-known/ai-catalog.json")
    );
}

#[test]
fn no_spec_version_along_a_nested_path() {
    let root = json!({"entries": [entry(
        "urn:air:example.com:catalog:mcp",
        "application/ai-catalog+json",
        "/catalogs/mcp.json"
    )]});
    let nested = without(good_catalog(CARD), "/specVersion");
    let audit = Docs::new()
        .catalog(ROOT, 0, root)
        .catalog("/catalogs/mcp.json", 1, nested)
        .listed(CARD, &good_card().to_string(), card_headers())
        .audit();
    assert_ids(&audit, &["MCP-CAT-001"]);
    let urls: Vec<&str> = audit
        .findings
        .iter()
        .filter_map(|f| f.url.as_deref())
        .collect();
    assert_eq!(
        urls,
        [
            "https://example.com/.well-known/ai-catalog.json",
            "https://example.com/catalogs/mcp.json"
        ]
    );
}

#[test]
fn no_spec_version_is_not_reported_for_a_catalog_with_no_mcp_card() {
    let root = json!({"entries": [entry(
        "urn:air:example.com:a2a:research",
        "application/a2a-agent-card+json",
        "https://agents.example.com/research"
    )]});
    let audit = Docs::new().catalog(ROOT, 0, root).audit();
    // Nothing names an MCP server either: the a2a entry is not one.
    assert_ids(&audit, &["MCP-DISC-001"]);
    assert_eq!(only(&audit, "MCP-DISC-001").severity.as_str(), "info");
}

#[test]
fn an_incomplete_entry() {
    let cases = [
        (
            json!({"type": "application/mcp-server-card+json", "url": CARD}),
            "`entries[1].identifier` is absent",
        ),
        (
            json!({"identifier": "urn:air:example.com:mcp:x", "url": CARD}),
            "`entries[1].type` is absent",
        ),
        (
            json!({"identifier": "urn:air:example.com:mcp:x",
                   "type": "application/mcp-server-card+json"}),
            "`entries[1]` has neither url nor data",
        ),
        (
            json!({"identifier": "urn:air:example.com:mcp:x",
                   "type": "application/mcp-server-card+json", "data": null}),
            "`entries[1]` has neither url nor data",
        ),
        (
            json!("https://example.com/card.json"),
            "`entries[1]` is a string, not an object",
        ),
    ];
    for (bad, evidence) in cases {
        let root = push(good_catalog(CARD), bad);
        let audit = site(root).audit();
        assert_ids(&audit, &["MCP-CAT-002"]);
        assert_eq!(only(&audit, "MCP-CAT-002").evidence, evidence);
    }
}

#[test]
fn everything_an_entry_lacks_is_one_finding() {
    let root = push(good_catalog(CARD), json!({"displayName": "X"}));
    let audit = site(root).audit();
    assert_ids(&audit, &["MCP-CAT-002"]);
    assert_eq!(
        only(&audit, "MCP-CAT-002").evidence,
        "`entries[1].identifier` is absent; `entries[1].type` is absent; \
         `entries[1]` has neither url nor data"
    );
}

#[test]
fn an_unrecognised_entry_type() {
    for kind in [
        "application/agent-skills+json",
        "application/mcp-server+json",
        "text/html",
    ] {
        let extra = entry("urn:air:example.com:x", kind, "/x.json");
        let root = push(good_catalog(CARD), extra);
        let audit = site(root).audit();
        assert_ids(&audit, &["MCP-CAT-003"]);
        assert_eq!(
            only(&audit, "MCP-CAT-003").evidence,
            format!("`entries[1].type` is \"{kind}\"")
        );
    }
}

#[test]
fn the_three_defined_types_are_recognised_case_insensitively() {
    let extra = json!([
        entry(
            "urn:a",
            "application/a2a-agent-card+json",
            "https://agents.example.com/a"
        ),
        entry(
            "urn:b",
            "Application/AI-Catalog+JSON",
            "https://other.example/c.json"
        ),
    ]);
    let root = extra
        .as_array()
        .unwrap()
        .iter()
        .fold(good_catalog(CARD), |root, entry| push(root, entry.clone()));
    let audit = site(root).audit();
    assert_ids(&audit, &[]);
}

#[test]
fn url_and_data_together_are_usable() {
    let root = with(good_catalog(CARD), "/entries/0/data", good_card());
    let audit = Docs::new().catalog(ROOT, 0, root).audit();
    assert_ids(&audit, &[]);
}

#[test]
fn a_soft_404_catalog_is_not_served() {
    let mut docs = Docs::new().card(good_card());
    docs.found.catalogs.push(FetchedCatalog {
        url: url(ROOT),
        depth: 0,
        parse: parse_catalog(Some("text/html"), b"<html><body>Home</body></html>"),
    });
    let audit = docs.audit();
    assert_ids(&audit, &[]);
    assert_eq!(audit.source, Some(DiscoverySource::ServerCard));
}
