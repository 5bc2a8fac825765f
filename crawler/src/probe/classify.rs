//! What the deep probe saw, and how it is classified: transport, spec version, deprecated
//! features (in the deep probe's fixed order) and migration status. Pure.

use mcpcensus_store::{AuthKind, Transport};
use serde_json::Value;

use super::checklist::{checklist, ChecklistStep};
use super::facts::{DeprecatedFeature, MigrationStatus, ProbeFacts, MODERN_VERSION};

/// The classification of one server.
#[derive(Debug, Clone, PartialEq)]
pub struct Classification {
    pub transport: Transport,
    pub spec_version: Option<String>,
    pub deprecated: Vec<DeprecatedFeature>,
    /// `None` when the probe could not tell (no version seen and nothing deprecated).
    pub status: Option<MigrationStatus>,
    pub checklist: Vec<ChecklistStep>,
}

/// The spec version: the highest `server/discover` lists, else the negotiated one. Versions
/// are dates, so the highest is the greatest string of the `YYYY-MM-DD` shape.
pub fn spec_version(facts: &ProbeFacts) -> Option<String> {
    let listed = facts.discover_versions.as_ref().and_then(|versions| {
        versions
            .iter()
            .filter(|v| is_date(v))
            .max()
            .or_else(|| versions.iter().max())
            .cloned()
    });
    listed.or_else(|| facts.negotiated.clone())
}

fn is_date(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

/// The deprecated features the probe saw, in the deep probe's order.
pub fn deprecated_features(facts: &ProbeFacts) -> Vec<DeprecatedFeature> {
    let capability = |key: &str| {
        facts
            .capabilities
            .as_ref()
            .and_then(|c| c.get(key))
            .is_some_and(|v| !matches!(v, Value::Null | Value::Bool(false)))
    };
    let called = |prefix: &str| facts.server_calls.iter().any(|m| m.starts_with(prefix));
    let mut out = Vec::new();
    for &feature in DeprecatedFeature::ALL {
        let seen = match feature {
            DeprecatedFeature::Sse => facts.transport == Some(Transport::Sse),
            DeprecatedFeature::InitializeOnly => {
                facts.initialize_answered && facts.discover_versions.is_none()
            }
            DeprecatedFeature::Sessions => facts.session_id_issued,
            DeprecatedFeature::Roots => called("roots/"),
            DeprecatedFeature::Sampling => called("sampling/"),
            DeprecatedFeature::Logging => capability("logging"),
            DeprecatedFeature::DynamicClientRegistration => {
                facts.auth.as_ref().map(|a| a.kind) == Some(AuthKind::OauthDcr)
            }
        };
        if seen {
            out.push(feature);
        }
    }
    out
}

/// Classifies what the probe saw.
pub fn classify(facts: &ProbeFacts) -> Classification {
    if facts.stdio {
        return Classification {
            transport: Transport::Stdio,
            spec_version: None,
            deprecated: Vec::new(),
            status: Some(MigrationStatus::NotProbeable),
            checklist: Vec::new(),
        };
    }
    let spec_version = spec_version(facts);
    let deprecated = deprecated_features(facts);
    let speaks_modern = facts
        .discover_versions
        .as_ref()
        .is_some_and(|v| v.iter().any(|v| v.as_str() >= MODERN_VERSION));
    let status = if !facts.https || !deprecated.is_empty() {
        Some(MigrationStatus::ToMigrate)
    } else if speaks_modern {
        Some(MigrationStatus::Ready)
    } else if spec_version.is_some() {
        // A version was seen and it is older than 2026-07-28.
        Some(MigrationStatus::ToMigrate)
    } else if facts
        .auth
        .as_ref()
        .is_some_and(|a| a.kind != AuthKind::None)
    {
        // Credentials stand between the probe and the version: like a stdio server, the
        // probe cannot read it, and calling it To migrate would claim what was not seen.
        Some(MigrationStatus::NotProbeable)
    } else {
        None
    };
    let steps = checklist(facts, &deprecated, status, speaks_modern);
    Classification {
        transport: facts.transport.unwrap_or(Transport::Unknown),
        spec_version,
        deprecated,
        status,
        checklist: steps,
    }
}
