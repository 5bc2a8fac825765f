//! The manifest rules (MCP-DISC-002, MCP-MAN-001 to MCP-MAN-008) on `/.well-known/mcp.json`.

use serde_json::json;

use super::*;

#[test]
fn a_good_manifest_alone_is_reported_as_served_and_nothing_else() {
    let audit = Docs::new().manifest(good_manifest()).audit();
    assert_ids(&audit, &["MCP-DISC-002"]);
    let finding = only(&audit, "MCP-DISC-002");
    assert_eq!(finding.severity.as_str(), "reported");
    assert_eq!(
        finding.evidence,
        "served, naming \"com.example/docs\"; no server card yet: publish one first"
    );
    assert_eq!(
        finding.url.as_deref(),
        Some("https://example.com/.well-known/mcp.json")
    );
    assert_eq!(
        audit.source,
        Some(crate::discovery::DiscoverySource::McpJson)
    );
}

#[test]
fn once_a_card_exists_the_manifest_should_go() {
    let audit = Docs::new()
        .card(good_card())
        .manifest(good_manifest())
        .audit();
    assert_ids(&audit, &["MCP-DISC-002"]);
    assert!(only(&audit, "MCP-DISC-002")
        .evidence
        .ends_with("a server card exists at https://example.com/.well-known/mcp/server-card.json: remove the manifest"));
}

#[test]
fn a_soft_404_at_the_manifest_path_is_not_served() {
    let audit = Docs::new()
        .card(good_card())
        .raw_at(
            "/.well-known/mcp.json",
            "<html><body>Home</body></html>",
            headers(&[("content-type", "text/html")]),
        )
        .audit();
    assert_ids(&audit, &[]);
}

#[test]
fn an_unparseable_manifest_is_served_and_names_no_server() {
    let audit = Docs::new()
        .raw_at(
            "/.well-known/mcp.json",
            "{\"name\": \"x\",}",
            headers(&[("content-type", "application/json")]),
        )
        .audit();
    // Not a card: no MCP-CARD-001 (the discovery audit words that finding for the card).
    assert_ids(&audit, &["MCP-DISC-001", "MCP-DISC-002"]);
    assert!(only(&audit, "MCP-DISC-002")
        .evidence
        .contains("not valid JSON"));
}

#[test]
fn the_manifest_has_no_name() {
    let audit = Docs::new()
        .manifest(without(good_manifest(), "/name"))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002", "MCP-MAN-001"]);
    assert_eq!(only(&audit, "MCP-MAN-001").evidence, "`name` is absent");
    assert_eq!(only(&audit, "MCP-MAN-001").severity.as_str(), "low");
    // The older serverInfo.name is a name.
    let manifest = with(
        without(good_manifest(), "/name"),
        "/serverInfo",
        json!({"name": "docs", "version": "1"}),
    );
    let audit = Docs::new().manifest(manifest).audit();
    assert_ids(&audit, &["MCP-DISC-002"]);
}

#[test]
fn the_manifest_has_no_description() {
    let audit = Docs::new()
        .manifest(with(good_manifest(), "/description", json!("")))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002", "MCP-MAN-002"]);
    assert_eq!(
        only(&audit, "MCP-MAN-002").evidence,
        "`description` is \"\""
    );
}

#[test]
fn some_tools_have_no_description() {
    let tools = json!([
        {"name": "search_docs", "description": "Search the documentation."},
        {"name": "get_page"},
        {"name": "list_pages", "description": " "}
    ]);
    let audit = Docs::new()
        .manifest(with(good_manifest(), "/tools", tools))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002", "MCP-MAN-003"]);
    assert_eq!(
        only(&audit, "MCP-MAN-003").evidence,
        "2 of 3 tools: \"get_page\", \"list_pages\""
    );
}

#[test]
fn no_tool_has_a_description() {
    let tools = json!(["search", {"name": "query"}]);
    let audit = Docs::new()
        .manifest(with(good_manifest(), "/tools", tools))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002", "MCP-MAN-004"]);
    assert_eq!(
        only(&audit, "MCP-MAN-004").evidence,
        "none of 2 tools: \"search\", \"query\""
    );
}

#[test]
fn the_tools_array_is_empty() {
    let audit = Docs::new()
        .manifest(with(good_manifest(), "/tools", json!([])))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002", "MCP-MAN-005"]);
}

#[test]
fn no_tools_array() {
    let audit = Docs::new()
        .manifest(without(good_manifest(), "/tools"))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002", "MCP-MAN-006"]);
    let audit = Docs::new()
        .manifest(with(good_manifest(), "/tools", json!("search")))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002", "MCP-MAN-006"]);
    assert_eq!(
        only(&audit, "MCP-MAN-006").evidence,
        "`tools` is a string (\"search\")"
    );
}

#[test]
fn no_resources_array_is_reported_not_scored() {
    let audit = Docs::new()
        .manifest(without(good_manifest(), "/resources"))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002", "MCP-MAN-007"]);
    assert_eq!(only(&audit, "MCP-MAN-007").severity.as_str(), "reported");
    // An explicit empty array is a tools-only server saying so.
    let audit = Docs::new()
        .manifest(with(good_manifest(), "/resources", json!([])))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002"]);
}

#[test]
fn no_protocol_version() {
    let audit = Docs::new()
        .manifest(without(good_manifest(), "/protocolVersion"))
        .audit();
    assert_ids(&audit, &["MCP-DISC-002", "MCP-MAN-008"]);
    // A list of supported revisions says it too.
    let manifest = with(
        without(good_manifest(), "/protocolVersion"),
        "/supportedProtocolVersions",
        json!(["2025-11-25"]),
    );
    let audit = Docs::new().manifest(manifest).audit();
    assert_ids(&audit, &["MCP-DISC-002"]);
}

#[test]
fn card_rules_never_apply_to_the_manifest() {
    // A manifest in the card's shape, missing what a card requires and carrying tools.
    let manifest = with(
        good_card(),
        "/tools",
        json!([{"name": "s", "description": "S."}]),
    );
    let manifest = with(manifest, "/resources", json!([]));
    let manifest = without(manifest, "/$schema");
    let audit = Docs::new().manifest(manifest).audit();
    assert_ids(&audit, &["MCP-DISC-002"]);
}
