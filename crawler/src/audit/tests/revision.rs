//! Revision strings: released, unreleased dates, semantic versions and the rest, classified
//! and as the card rules report them.

use serde_json::json;

use super::*;
use crate::audit::{classify_revision, Revision, RELEASED_REVISIONS};

fn card_declaring(versions: serde_json::Value) -> SiteAudit {
    Docs::new()
        .card(with(
            good_card(),
            "/remotes/0/supportedProtocolVersions",
            versions,
        ))
        .audit()
}

#[test]
fn released_revisions_are_recognised() {
    for text in RELEASED_REVISIONS {
        assert!(classify_revision(text).is_recognised(), "{text}");
    }
    assert_eq!(
        classify_revision("2026-07-28"),
        Revision::Released { pre_2025_06: false }
    );
    assert_eq!(
        classify_revision("2025-06-18"),
        Revision::Released { pre_2025_06: false }
    );
    assert_eq!(
        classify_revision("2025-03-26"),
        Revision::Released { pre_2025_06: true }
    );
    assert_eq!(
        classify_revision("2024-11-05"),
        Revision::Released { pre_2025_06: true }
    );
    let audit = card_declaring(json!(RELEASED_REVISIONS));
    assert_ids(&audit, &[]);
}

#[test]
fn an_unreleased_date_is_unrecognised() {
    for text in ["2025-09-01", "2026-01-15", "2024-11-06", "2027-07-28"] {
        assert_eq!(classify_revision(text), Revision::UnreleasedDate, "{text}");
    }
    let audit = card_declaring(json!(["2026-07-28", "2025-09-01"]));
    assert_ids(&audit, &["MCP-CARD-009"]);
    assert_eq!(
        only(&audit, "MCP-CARD-009").evidence,
        "`remotes[0].supportedProtocolVersions` holds \"2025-09-01\": \
         a date no revision was released on"
    );
}

#[test]
fn a_semantic_version_is_unrecognised() {
    for text in ["1.0", "1.0.0", "v2", "2.1.0-beta.1", "V1.2"] {
        assert_eq!(classify_revision(text), Revision::SemVer, "{text}");
    }
    let audit = card_declaring(json!(["1.0.0"]));
    assert_ids(&audit, &["MCP-CARD-009"]);
    assert!(only(&audit, "MCP-CARD-009")
        .evidence
        .contains("a semantic version"));
}

#[test]
fn anything_else_is_unrecognised_including_near_misses() {
    for text in ["latest", "2025-11-25 ", "2025/11/25", "", "1", "draft"] {
        assert_eq!(classify_revision(text), Revision::Other, "{text:?}");
    }
    // A non-string item is kept as JSON and never looks like a revision.
    let audit = card_declaring(json!([20251125]));
    assert_ids(&audit, &["MCP-CARD-009"]);
}

#[test]
fn each_unrecognised_value_is_its_own_finding() {
    let audit = card_declaring(json!(["2025-11-25", "1.0", "2025-09-01"]));
    let count = audit
        .findings
        .iter()
        .filter(|f| f.rule_id == "MCP-CARD-009")
        .count();
    assert_eq!(count, 2, "{:#?}", audit.findings);
}

#[test]
fn an_older_cards_protocol_version_is_checked_too() {
    let card = with(good_card(), "/protocolVersion", json!("2024-11-05"));
    let card = with(
        card,
        "/remotes/0/supportedProtocolVersions",
        json!(["2024-11-05"]),
    );
    let audit = Docs::new().card(card).audit();
    assert_ids(&audit, &["MCP-CARD-010"]);
    let card = with(good_card(), "/protocolVersion", json!("1.0"));
    let audit = Docs::new().card(card).audit();
    assert_ids(&audit, &["MCP-CARD-009"]);
}
