//! The site audit: the discovery audit's order, MCP-DISC-001 in its two readings, soft 404s,
//! and how findings land in the record.

use mcpcensus_store::{Finding, Outcome, Record};
use serde_json::json;

use super::*;
use crate::discovery::DiscoverySource;

#[test]
fn the_catalog_wins_over_every_other_place() {
    let audit = Docs::new()
        .card(good_card())
        .endpoint_card(&good_card().to_string(), card_headers())
        .manifest(good_manifest())
        .catalog(
            "/.well-known/ai-catalog.json",
            0,
            good_catalog("/cards/docs.json"),
        )
        .audit();
    assert_eq!(audit.source, Some(DiscoverySource::AiCatalog));
}

#[test]
fn then_the_well_known_card_then_the_endpoint_card_then_the_manifest() {
    let audit = Docs::new()
        .manifest(good_manifest())
        .endpoint_card(&good_card().to_string(), card_headers())
        .card(good_card())
        .audit();
    assert_eq!(audit.source, Some(DiscoverySource::ServerCard));
    let audit = Docs::new()
        .manifest(good_manifest())
        .endpoint_card(&good_card().to_string(), card_headers())
        .audit();
    assert_eq!(audit.source, Some(DiscoverySource::EndpointServerCard));
    assert_ids(&audit, &["MCP-DISC-002"]);
    assert!(only(&audit, "MCP-DISC-002")
        .evidence
        .contains("https://example.com/mcp/server-card: remove the manifest"));
    let audit = Docs::new().manifest(good_manifest()).audit();
    assert_eq!(audit.source, Some(DiscoverySource::McpJson));
}

#[test]
fn a_card_naming_no_server_is_not_a_hit() {
    let audit = Docs::new()
        .card(json!({"error": "not found"}))
        .manifest(good_manifest())
        .audit();
    assert_eq!(audit.source, Some(DiscoverySource::McpJson));
}

#[test]
fn a_site_running_no_server_has_nothing_to_fix() {
    let audit = Docs::new().audit();
    assert_ids(&audit, &["MCP-DISC-001"]);
    let finding = only(&audit, "MCP-DISC-001");
    assert_eq!(finding.severity.as_str(), "info");
    assert!(finding.evidence.contains("nothing to fix"), "{finding:?}");
    assert_eq!(finding.url.as_deref(), Some("https://example.com/"));
    assert_eq!(audit.source, None);
}

#[test]
fn a_server_found_elsewhere_but_not_at_the_four_places_is_high() {
    // A card at a legacy path the discovery audit does not look at names the endpoint.
    let audit = Docs::new()
        .raw_at(
            "/.well-known/mcp-server-card.json",
            &good_card().to_string(),
            card_headers(),
        )
        .audit();
    assert_ids(&audit, &["MCP-DISC-001"]);
    let finding = only(&audit, "MCP-DISC-001");
    assert_eq!(finding.severity.as_str(), "high");
    assert!(
        finding.evidence.contains("https://example.com/mcp"),
        "{finding:?}"
    );
}

#[test]
fn soft_404s_everywhere_count_as_nothing_served() {
    let html = headers(&[("content-type", "text/html; charset=utf-8")]);
    let page = "<!doctype html><html><body>Home</body></html>";
    let mut docs = Docs::new()
        .raw_at("/.well-known/mcp/server-card.json", page, html.clone())
        .raw_at("/.well-known/mcp.json", page, html.clone())
        .endpoint_card(page, html);
    docs.found.catalogs.push(FetchedCatalog {
        url: url("/.well-known/ai-catalog.json"),
        depth: 0,
        parse: parse_catalog(Some("text/html"), page.as_bytes()),
    });
    let audit = docs.audit();
    assert_ids(&audit, &["MCP-DISC-001"]);
    assert_eq!(only(&audit, "MCP-DISC-001").severity.as_str(), "info");
    assert_eq!(audit.source, None);
}

#[test]
fn a_card_reached_twice_is_reported_once() {
    let card = with(good_card(), "/name", json!("docs"));
    let audit = Docs::new()
        .card(card.clone())
        .catalog(
            "/.well-known/ai-catalog.json",
            0,
            good_catalog("/.well-known/mcp/server-card.json"),
        )
        .listed(
            "/.well-known/mcp/server-card.json",
            &card.to_string(),
            card_headers(),
        )
        .audit();
    assert_eq!(audit.findings.len(), 1, "{:#?}", audit.findings);
}

#[test]
fn apply_to_adds_its_findings_beside_others() {
    let mut record = Record::new("run", 0, "example.com", 1, Outcome::Pass, "");
    let other = Finding {
        rule_id: "TOOL-001".into(),
        severity: crate::rule::Severity::Low,
        evidence: "from another audit".into(),
        url: None,
        tool: Some("search".into()),
    };
    record.findings.push(other.clone());
    Docs::new().card(good_card()).audit().apply_to(&mut record);
    assert_eq!(record.findings, [other]);
    assert_eq!(
        record.discovery_source.map(|s| s.as_str()),
        Some("server_card")
    );
    let mut empty = Record::new("run", 0, "example.com", 1, Outcome::Pass, "");
    Docs::new().audit().apply_to(&mut empty);
    assert_eq!(empty.discovery_source, None);
    assert_eq!(empty.findings.len(), 1, "nothing served: one finding");
}
