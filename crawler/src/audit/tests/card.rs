//! The card rules, MCP-CARD-001 to MCP-CARD-011, on `/.well-known/mcp/server-card.json`
//! unless a test says otherwise.

use serde_json::json;

use super::*;

#[test]
fn a_good_card_has_no_findings() {
    let audit = Docs::new().card(good_card()).audit();
    assert_ids(&audit, &[]);
}

#[test]
fn a_card_with_a_trailing_comma_is_not_valid_json() {
    let body = r#"{"name": "com.example/docs", "version": "1.0.0",}"#;
    let audit = Docs::new()
        .raw_at("/.well-known/mcp/server-card.json", body, card_headers())
        .audit();
    // Served but unusable, so nothing names a server either (with signs of one: high).
    assert_ids(&audit, &["MCP-CARD-001", "MCP-DISC-001"]);
    let finding = only(&audit, "MCP-CARD-001");
    assert_eq!(finding.severity.as_str(), "high");
    assert!(finding.evidence.contains("not valid JSON"), "{finding:?}");
    assert_eq!(
        finding.url.as_deref(),
        Some("https://example.com/.well-known/mcp/server-card.json")
    );
    assert_eq!(only(&audit, "MCP-DISC-001").severity.as_str(), "high");
}

#[test]
fn a_json_array_is_not_a_card() {
    let audit = Docs::new()
        .raw_at(
            "/.well-known/mcp/server-card.json",
            "[1, 2]",
            card_headers(),
        )
        .audit();
    assert_ids(&audit, &["MCP-CARD-001", "MCP-DISC-001"]);
    assert!(only(&audit, "MCP-CARD-001")
        .evidence
        .contains("not an object"));
}

#[test]
fn each_missing_required_field_is_one_finding() {
    for key in ["$schema", "name", "version", "description"] {
        let audit = Docs::new()
            .card(without(good_card(), &format!("/{key}")))
            .audit();
        assert_ids(&audit, &["MCP-CARD-002"]);
        let finding = only(&audit, "MCP-CARD-002");
        assert_eq!(finding.evidence, format!("`{key}` is absent"));
        assert_eq!(finding.severity.as_str(), "medium");
    }
}

#[test]
fn a_required_field_of_the_wrong_type_or_empty_is_missing() {
    let audit = Docs::new()
        .card(with(good_card(), "/version", json!(1)))
        .audit();
    assert_ids(&audit, &["MCP-CARD-002"]);
    assert_eq!(
        only(&audit, "MCP-CARD-002").evidence,
        "`version` is a number (1)"
    );

    let audit = Docs::new()
        .card(with(good_card(), "/description", json!("  ")))
        .audit();
    assert_ids(&audit, &["MCP-CARD-002"]);
    assert_eq!(
        only(&audit, "MCP-CARD-002").evidence,
        "`description` is \"  \""
    );
}

#[test]
fn all_four_missing_are_four_findings_and_an_older_name_is_pointed_out() {
    let card = json!({
        "serverInfo": {"name": "docs", "version": "1.0"},
        "remotes": [{"type": "streamable-http", "url": "https://example.com/mcp",
                     "supportedProtocolVersions": ["2025-11-25"]}]
    });
    let audit = Docs::new().card(card).audit();
    assert_ids(&audit, &["MCP-CARD-002"]);
    let evidence: Vec<&str> = audit.findings.iter().map(|f| f.evidence.as_str()).collect();
    assert_eq!(evidence.len(), 4, "{evidence:?}");
    assert!(
        evidence
            .contains(&"`name` is absent (`serverInfo.name` is \"docs\", the pre-SEP spelling)"),
        "{evidence:?}"
    );
}

#[test]
fn a_name_not_in_reverse_dns_form() {
    for bad in [
        "docs",
        "com.example/docs/v2",
        "com example/docs",
        "/docs",
        "com.example/",
    ] {
        let audit = Docs::new()
            .card(with(good_card(), "/name", json!(bad)))
            .audit();
        assert_ids(&audit, &["MCP-CARD-003"]);
        assert!(only(&audit, "MCP-CARD-003").evidence.contains(bad), "{bad}");
    }
    for good in [
        "com.example/docs",
        "io.github.owner/server",
        "example-org/with_remote.v2",
    ] {
        let audit = Docs::new()
            .card(with(good_card(), "/name", json!(good)))
            .audit();
        assert_ids(&audit, &[]);
    }
}

#[test]
fn a_tools_array_in_the_card() {
    let tools = json!([{"name": "search", "description": "Search."}]);
    let audit = Docs::new().card(with(good_card(), "/tools", tools)).audit();
    assert_ids(&audit, &["MCP-CARD-004"]);
    assert_eq!(
        only(&audit, "MCP-CARD-004").evidence,
        "`tools` lists 1 tools"
    );
    // Even empty: the schema omits the key.
    let audit = Docs::new()
        .card(with(good_card(), "/tools", json!([])))
        .audit();
    assert_ids(&audit, &["MCP-CARD-004"]);
}

#[test]
fn no_remotes_absent_empty_or_not_an_array() {
    for remotes in [
        None,
        Some(json!([])),
        Some(json!("https://example.com/mcp")),
    ] {
        let card = match remotes {
            None => without(good_card(), "/remotes"),
            Some(value) => with(good_card(), "/remotes", value),
        };
        let audit = Docs::new().card(card).audit();
        assert_ids(&audit, &["MCP-CARD-005"]);
        assert_eq!(only(&audit, "MCP-CARD-005").severity.as_str(), "high");
    }
}

#[test]
fn no_remotes_points_to_an_older_endpoint_field() {
    let card = with(without(good_card(), "/remotes"), "/endpoint", json!("/mcp"));
    let audit = Docs::new().card(card).audit();
    assert_ids(&audit, &["MCP-CARD-005"]);
    assert!(
        only(&audit, "MCP-CARD-005").evidence.contains("\"/mcp\""),
        "{:?}",
        audit.findings
    );
}

#[test]
fn an_unrecognised_or_missing_transport() {
    let audit = Docs::new()
        .card(with(good_card(), "/remotes/0/type", json!("http")))
        .audit();
    assert_ids(&audit, &["MCP-CARD-006"]);
    assert_eq!(
        only(&audit, "MCP-CARD-006").evidence,
        "`remotes[0].type` is \"http\""
    );
    // Exact, as a validating client compares.
    let audit = Docs::new()
        .card(with(
            good_card(),
            "/remotes/0/type",
            json!("Streamable-HTTP"),
        ))
        .audit();
    assert_ids(&audit, &["MCP-CARD-006"]);
    let audit = Docs::new()
        .card(without(good_card(), "/remotes/0/type"))
        .audit();
    assert_ids(&audit, &["MCP-CARD-006"]);
    // sse is defined (legacy, but recognised).
    let audit = Docs::new()
        .card(with(good_card(), "/remotes/0/type", json!("sse")))
        .audit();
    assert_ids(&audit, &[]);
}

#[test]
fn a_remote_with_no_url_or_not_absolute_https() {
    let cases = [
        (None, "`remotes[0].url` is absent"),
        (Some(json!("/mcp")), "`remotes[0].url` \"/mcp\" is relative"),
        (
            Some(json!("http://example.com/mcp")),
            "`remotes[0].url` \"http://example.com/mcp\" is not https",
        ),
        (Some(json!(42)), "`remotes[0].url` is a number (42)"),
        (
            Some(json!("https://")),
            "`remotes[0].url` \"https://\" is not a valid URL",
        ),
    ];
    for (value, evidence) in cases {
        let card = match value {
            None => without(good_card(), "/remotes/0/url"),
            Some(value) => with(good_card(), "/remotes/0/url", value),
        };
        let audit = Docs::new().card(card).audit();
        assert_ids(&audit, &["MCP-CARD-007"]);
        assert_eq!(only(&audit, "MCP-CARD-007").evidence, evidence);
    }
}

#[test]
fn a_templated_https_url_is_absolute() {
    let audit = Docs::new()
        .card(with(
            good_card(),
            "/remotes/0/url",
            json!("https://{tenant}.example.com/mcp"),
        ))
        .audit();
    assert_ids(&audit, &[]);
}

#[test]
fn a_remote_that_is_not_an_object_has_no_url() {
    let audit = Docs::new()
        .card(with(
            good_card(),
            "/remotes",
            json!(["https://example.com/mcp"]),
        ))
        .audit();
    assert_ids(&audit, &["MCP-CARD-007"]);
}

#[test]
fn no_supported_protocol_versions() {
    let audit = Docs::new()
        .card(without(good_card(), "/remotes/0/supportedProtocolVersions"))
        .audit();
    assert_ids(&audit, &["MCP-CARD-008"]);
    let audit = Docs::new()
        .card(with(
            good_card(),
            "/remotes/0/supportedProtocolVersions",
            json!([]),
        ))
        .audit();
    assert_ids(&audit, &["MCP-CARD-008"]);
}

#[test]
fn only_pre_2025_06_revisions() {
    let audit = Docs::new()
        .card(with(
            good_card(),
            "/remotes/0/supportedProtocolVersions",
            json!(["2025-03-26", "2024-11-05"]),
        ))
        .audit();
    assert_ids(&audit, &["MCP-CARD-010"]);
    assert_eq!(
        only(&audit, "MCP-CARD-010").evidence,
        "declares only 2025-03-26, 2024-11-05"
    );
    // One current revision is enough.
    let audit = Docs::new()
        .card(with(
            good_card(),
            "/remotes/0/supportedProtocolVersions",
            json!(["2025-06-18", "2024-11-05"]),
        ))
        .audit();
    assert_ids(&audit, &[]);
}

#[test]
fn old_revisions_beside_an_unrecognised_one_are_both_reported() {
    let audit = Docs::new()
        .card(with(
            good_card(),
            "/remotes/0/supportedProtocolVersions",
            json!(["2024-11-05", "1.0"]),
        ))
        .audit();
    assert_ids(&audit, &["MCP-CARD-009", "MCP-CARD-010"]);
}

#[test]
fn no_cors_on_the_card() {
    let cases = [
        (
            headers(&[("content-type", "application/json")]),
            "Access-Control-Allow-Origin is absent; Cache-Control is absent",
        ),
        (
            headers(&[
                ("access-control-allow-origin", "https://example.com"),
                ("cache-control", "public, max-age=3600"),
            ]),
            "Access-Control-Allow-Origin is \"https://example.com\", not *",
        ),
    ];
    for (headers, evidence) in cases {
        let audit = Docs::new()
            .raw_at(
                "/.well-known/mcp/server-card.json",
                &good_card().to_string(),
                headers,
            )
            .audit();
        assert_ids(&audit, &["MCP-CARD-011"]);
        assert_eq!(only(&audit, "MCP-CARD-011").evidence, evidence);
    }
}

#[test]
fn a_card_with_cors_and_no_cache_control_is_reported_not_card_011() {
    let audit = Docs::new()
        .raw_at(
            "/.well-known/mcp/server-card.json",
            &good_card().to_string(),
            headers(&[("access-control-allow-origin", "*")]),
        )
        .audit();
    assert_ids(&audit, &["MCP-CARD-012"]);
    let note = only(&audit, "MCP-CARD-012");
    assert_eq!(note.evidence, "Cache-Control is absent");
    assert_eq!(note.severity, crate::rule::Severity::Reported);
}

#[test]
fn an_html_page_at_the_card_path_is_a_soft_404_not_an_invalid_card() {
    for (body, content_type) in [
        (
            "<!doctype html><html><body>Welcome</body></html>",
            "text/html",
        ),
        ("", "application/json"),
    ] {
        let audit = Docs::new()
            .raw_at(
                "/.well-known/mcp/server-card.json",
                body,
                headers(&[("content-type", content_type)]),
            )
            .audit();
        assert_ids(&audit, &["MCP-DISC-001"]);
        assert_eq!(only(&audit, "MCP-DISC-001").severity.as_str(), "info");
        assert_eq!(audit.source, None);
    }
}

#[test]
fn the_endpoint_card_is_audited_as_a_card() {
    let audit = Docs::new()
        .endpoint_card(&good_card().to_string(), headers(&[]))
        .audit();
    assert_ids(&audit, &["MCP-CARD-011"]);
    assert_eq!(
        only(&audit, "MCP-CARD-011").url.as_deref(),
        Some("https://example.com/mcp/server-card")
    );
    // An HTML page there is a soft 404 too.
    let audit = Docs::new()
        .endpoint_card("<html></html>", headers(&[("content-type", "text/html")]))
        .audit();
    assert_ids(&audit, &["MCP-DISC-001"]);
}

#[test]
fn an_html_page_where_a_catalog_points_is_an_invalid_card() {
    let audit = Docs::new()
        .catalog(
            "/.well-known/ai-catalog.json",
            0,
            good_catalog("/cards/docs.json"),
        )
        .listed(
            "/cards/docs.json",
            "<!DOCTYPE html><title>Server error</title>",
            headers(&[("content-type", "text/html")]),
        )
        .audit();
    assert_ids(&audit, &["MCP-CARD-001"]);
    assert!(only(&audit, "MCP-CARD-001").evidence.contains("HTML"));
}

#[test]
fn a_catalog_listed_card_gets_every_card_rule() {
    let card = with(good_card(), "/name", json!("docs"));
    let audit = Docs::new()
        .catalog(
            "/.well-known/ai-catalog.json",
            0,
            good_catalog("/cards/docs.json"),
        )
        .listed("/cards/docs.json", &card.to_string(), headers(&[]))
        .audit();
    assert_ids(&audit, &["MCP-CARD-003", "MCP-CARD-011"]);
}

#[test]
fn an_inline_card_is_audited_with_its_entry_named_and_no_cors_rule() {
    let catalog = json!({
        "specVersion": "1.0",
        "entries": [{
            "identifier": "urn:air:example.com:mcp:docs",
            "type": "application/mcp-server-card+json",
            "data": without(good_card(), "/description")
        }]
    });
    let audit = Docs::new()
        .catalog("/.well-known/ai-catalog.json", 0, catalog)
        .audit();
    assert_ids(&audit, &["MCP-CARD-002"]);
    let finding = only(&audit, "MCP-CARD-002");
    assert_eq!(finding.evidence, "entries[0].data: `description` is absent");
    assert_eq!(
        finding.url.as_deref(),
        Some("https://example.com/.well-known/ai-catalog.json")
    );
}
