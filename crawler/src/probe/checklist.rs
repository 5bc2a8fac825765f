//! The deep probe's migration checklist: ordered, each step only when it applies, "re-run the
//! scan" always last, and "nothing to migrate" in its place when the server is Ready ("Re-run
//! the Spellwarden scan is always last, so a server that is Ready shows Nothing to migrate in
//! its place"). A stdio server has no checklist.

pub use mcpcensus_store::ChecklistStep;

use super::facts::{DeprecatedFeature, MigrationStatus, ProbeFacts};

/// What the owner of the server does for `step`.
pub fn step_text(step: ChecklistStep) -> &'static str {
    match step {
        ChecklistStep::ServeHttps => "Serve the endpoint over HTTPS.",
        ChecklistStep::MoveToStreamableHttp => {
            "Move from the HTTP+SSE transport to Streamable HTTP (one endpoint, POST)."
        }
        ChecklistStep::ImplementServerDiscover => {
            "Implement server/discover and protocol version 2026-07-28, with the _meta \
             envelope on every request instead of the initialize handshake."
        }
        ChecklistStep::DropSessions => "Stop issuing MCP-Session-Id: 2026-07-28 has no sessions.",
        ChecklistStep::DropRoots => "Stop asking clients for roots (deprecated).",
        ChecklistStep::DropSampling => "Stop sending sampling requests to clients (deprecated).",
        ChecklistStep::DropLogging => {
            "Drop the logging capability; read the per-request log level from _meta."
        }
        ChecklistStep::OfferCimd => {
            "Support Client ID Metadata Documents in the authorization server instead of \
             dynamic client registration (deprecated)."
        }
        ChecklistStep::RerunScan => "Re-run the scan.",
        ChecklistStep::NothingToMigrate => "Nothing to migrate.",
    }
}

/// The steps that apply, in order.
pub fn checklist(
    facts: &ProbeFacts,
    deprecated: &[DeprecatedFeature],
    status: Option<MigrationStatus>,
    speaks_modern: bool,
) -> Vec<ChecklistStep> {
    match status {
        // A stdio server has nothing the scan could do; an authenticated one still gets the
        // re-run with credentials.
        Some(MigrationStatus::NotProbeable) if facts.stdio || facts.auth.is_none() => {
            return Vec::new()
        }
        Some(MigrationStatus::Ready) => return vec![ChecklistStep::NothingToMigrate],
        _ => {}
    }
    let mut steps = Vec::new();
    if !facts.https {
        steps.push(ChecklistStep::ServeHttps);
    }
    let has = |d: DeprecatedFeature| deprecated.contains(&d);
    if has(DeprecatedFeature::Sse) {
        steps.push(ChecklistStep::MoveToStreamableHttp);
    }
    let version_seen = facts.negotiated.is_some() || facts.discover_versions.is_some();
    if facts.https && version_seen && !speaks_modern {
        steps.push(ChecklistStep::ImplementServerDiscover);
    }
    for (feature, step) in [
        (DeprecatedFeature::Sessions, ChecklistStep::DropSessions),
        (DeprecatedFeature::Roots, ChecklistStep::DropRoots),
        (DeprecatedFeature::Sampling, ChecklistStep::DropSampling),
        (DeprecatedFeature::Logging, ChecklistStep::DropLogging),
        (
            DeprecatedFeature::DynamicClientRegistration,
            ChecklistStep::OfferCimd,
        ),
    ] {
        if has(feature) {
            steps.push(step);
        }
    }
    steps.push(ChecklistStep::RerunScan);
    steps
}
