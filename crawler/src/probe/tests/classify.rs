//! Spec version, deprecated features, migration status and checklist.

use mcpcensus_store::{AuthInfo, AuthKind, Transport};
use serde_json::json;

use crate::probe::{classify, ChecklistStep, MigrationStatus, ProbeFacts};

fn https() -> ProbeFacts {
    ProbeFacts {
        https: true,
        transport: Some(Transport::StreamableHttp),
        ..ProbeFacts::default()
    }
}

fn names(d: &[crate::probe::DeprecatedFeature]) -> Vec<&'static str> {
    d.iter().map(|d| d.as_str()).collect()
}

#[test]
fn a_modern_server_is_ready_with_nothing_to_migrate() {
    let facts = ProbeFacts {
        discover_versions: Some(vec!["2025-11-25".into(), "2026-07-28".into()]),
        capabilities: Some(json!({"tools": {}})),
        ..https()
    };
    let c = classify(&facts);
    assert_eq!(c.spec_version.as_deref(), Some("2026-07-28"));
    assert_eq!(c.status, Some(MigrationStatus::Ready));
    assert_eq!(c.checklist, [ChecklistStep::NothingToMigrate]);
}

#[test]
fn deprecated_features_keep_the_deep_probes_order() {
    let facts = ProbeFacts {
        transport: Some(Transport::Sse),
        initialize_answered: true,
        negotiated: Some("2024-11-05".into()),
        session_id_issued: true,
        server_calls: vec!["sampling/createMessage".into(), "roots/list".into()],
        capabilities: Some(json!({"logging": {}, "tools": {}})),
        auth: Some(AuthInfo {
            kind: AuthKind::OauthDcr,
            challenge: None,
            resource_metadata_url: None,
            authorization_servers: Vec::new(),
            metadata_urls: Vec::new(),
        }),
        ..https()
    };
    let c = classify(&facts);
    assert_eq!(
        names(&c.deprecated),
        [
            "sse",
            "initialize_only",
            "sessions",
            "roots",
            "sampling",
            "logging",
            "dynamic_client_registration"
        ]
    );
    assert_eq!(c.spec_version.as_deref(), Some("2024-11-05"));
    assert_eq!(c.status, Some(MigrationStatus::ToMigrate));
    assert_eq!(
        c.checklist,
        [
            ChecklistStep::MoveToStreamableHttp,
            ChecklistStep::ImplementServerDiscover,
            ChecklistStep::DropSessions,
            ChecklistStep::DropRoots,
            ChecklistStep::DropSampling,
            ChecklistStep::DropLogging,
            ChecklistStep::OfferCimd,
            ChecklistStep::RerunScan
        ]
    );
}

#[test]
fn an_http_endpoint_is_to_migrate_with_https_first() {
    let c = classify(&ProbeFacts::default());
    assert_eq!(c.status, Some(MigrationStatus::ToMigrate));
    assert_eq!(
        c.checklist,
        [ChecklistStep::ServeHttps, ChecklistStep::RerunScan]
    );
}

#[test]
fn stdio_is_not_probeable_without_a_checklist() {
    let c = classify(&ProbeFacts {
        stdio: true,
        ..ProbeFacts::default()
    });
    assert_eq!(c.transport, Transport::Stdio);
    assert_eq!(c.status, Some(MigrationStatus::NotProbeable));
    assert!(c.checklist.is_empty());
}

#[test]
fn an_authenticated_server_with_no_version_is_not_probeable_with_a_rerun() {
    let facts = ProbeFacts {
        auth: Some(AuthInfo {
            kind: AuthKind::OauthCimd,
            challenge: None,
            resource_metadata_url: None,
            authorization_servers: Vec::new(),
            metadata_urls: Vec::new(),
        }),
        ..https()
    };
    let c = classify(&facts);
    assert_eq!(c.status, Some(MigrationStatus::NotProbeable));
    assert_eq!(c.checklist, [ChecklistStep::RerunScan]);
}

#[test]
fn a_modern_error_listing_only_old_versions_is_to_migrate() {
    let facts = ProbeFacts {
        discover_versions: Some(vec!["2025-06-18".into()]),
        ..https()
    };
    let c = classify(&facts);
    assert_eq!(c.spec_version.as_deref(), Some("2025-06-18"));
    assert_eq!(c.status, Some(MigrationStatus::ToMigrate));
    assert_eq!(
        c.checklist,
        [
            ChecklistStep::ImplementServerDiscover,
            ChecklistStep::RerunScan
        ]
    );
}

#[test]
fn an_authenticated_server_whose_version_is_unseen_is_not_probeable() {
    let auth = |kind| AuthInfo {
        kind,
        challenge: Some("Bearer".into()),
        resource_metadata_url: None,
        authorization_servers: Vec::new(),
        metadata_urls: Vec::new(),
    };
    for kind in [AuthKind::OauthCimd, AuthKind::StaticKey, AuthKind::Unknown] {
        let facts = ProbeFacts {
            auth: Some(auth(kind)),
            ..https()
        };
        let c = classify(&facts);
        assert_eq!(c.spec_version, None);
        assert_eq!(c.status, Some(MigrationStatus::NotProbeable), "{kind:?}");
    }
    // Its version seen (an old one): To migrate, as before.
    let facts = ProbeFacts {
        auth: Some(auth(AuthKind::OauthCimd)),
        negotiated: Some("2025-06-18".into()),
        initialize_answered: true,
        ..https()
    };
    assert_eq!(classify(&facts).status, Some(MigrationStatus::ToMigrate));
}
