//! The one rule table: unique ids, each family where it belongs, and `docs/rules.md` in step
//! with every row (checked here once, for the discovery audit's and the deep probe's alike).

use std::collections::HashSet;

use super::{rule, Severity, RULES};

const RULES_DOC: &str = include_str!("../../docs/rules.md");

#[test]
fn ids_are_unique_and_found_by_rule() {
    let ids: HashSet<&str> = RULES.iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), RULES.len());
    for expected in RULES {
        assert_eq!(rule(expected.id), Some(expected));
    }
    assert_eq!(rule("MCP-NOPE-001"), None);
}

#[test]
fn reported_rules_are_the_two_the_discovery_audit_names() {
    let reported: Vec<&str> = RULES
        .iter()
        .filter(|r| r.severity == Severity::Reported)
        .map(|r| r.id)
        .collect();
    // The discovery audit's two, our Cache-Control note (not the audit's own) and our
    // toxic-flow finding over the tools' capability tags.
    assert_eq!(
        reported,
        [
            "MCP-DISC-002",
            "MCP-MAN-007",
            "MCP-CARD-012",
            "MCP-TOOLS-001"
        ]
    );
}

#[test]
fn the_deep_probe_rules_are_the_server_and_tool_rows() {
    let probe: Vec<&str> = RULES
        .iter()
        .filter(|r| r.is_probe_rule())
        .map(|r| r.id)
        .collect();
    // The deep probe's two, and our server rule over the tools' capability tags.
    assert_eq!(probe, ["SW-MCP-001", "SW-MCP-011", "MCP-TOOLS-001"]);
    assert!(RULES
        .iter()
        .filter(|r| !r.is_probe_rule())
        .all(|r| r.id.starts_with("MCP-")));
}

#[test]
fn docs_rules_md_lists_every_rule_as_the_code_has_it() {
    for rule in RULES {
        let row = RULES_DOC
            .lines()
            .find(|line| line.starts_with(&format!("| {} |", rule.id)))
            .unwrap_or_else(|| panic!("docs/rules.md has no row for {}", rule.id));
        let cells: Vec<&str> = row.split(" | ").map(str::trim).collect();
        assert_eq!(
            cells,
            [
                &format!("| {}", rule.id),
                &format!("`{}`", rule.severity.as_str()),
                rule.applies_to.as_str(),
                rule.title,
                &format!("{} |", rule.fix),
            ],
            "docs/rules.md row for {}",
            rule.id
        );
    }
}
