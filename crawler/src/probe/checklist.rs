//! The migration checklist of seed 003: ordered, each step only when it applies, "re-run the
//! scan" always last, and "nothing to migrate" in its place when the server is Ready ("Re-run
//! the Spellwarden scan is always last, so a server that is Ready shows Nothing to migrate in
//! its place"). A stdio server has no checklist.

use super::facts::{Deprecated, MigrationStatus, ProbeFacts};

/// One checklist step; `as_str` is the stable id kept in the record's `checklist`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChecklistStep {
    ServeHttps,
    MoveToStreamableHttp,
    ImplementServerDiscover,
    DropSessions,
    DropRoots,
    DropSampling,
    DropLogging,
    OfferCimd,
    RerunScan,
    NothingToMigrate,
}

impl ChecklistStep {
    pub fn as_str(self) -> &'static str {
        match self {
            ChecklistStep::ServeHttps => "serve_https",
            ChecklistStep::MoveToStreamableHttp => "move_to_streamable_http",
            ChecklistStep::ImplementServerDiscover => "implement_server_discover",
            ChecklistStep::DropSessions => "drop_sessions",
            ChecklistStep::DropRoots => "drop_roots",
            ChecklistStep::DropSampling => "drop_sampling",
            ChecklistStep::DropLogging => "drop_logging",
            ChecklistStep::OfferCimd => "offer_cimd",
            ChecklistStep::RerunScan => "rerun_scan",
            ChecklistStep::NothingToMigrate => "nothing_to_migrate",
        }
    }

    /// What the owner of the server does.
    pub fn text(self) -> &'static str {
        match self {
            ChecklistStep::ServeHttps => "Serve the endpoint over HTTPS.",
            ChecklistStep::MoveToStreamableHttp => {
                "Move from the HTTP+SSE transport to Streamable HTTP (one endpoint, POST)."
            }
            ChecklistStep::ImplementServerDiscover => {
                "Implement server/discover and protocol version 2026-07-28, with the _meta \
                 envelope on every request instead of the initialize handshake."
            }
            ChecklistStep::DropSessions => {
                "Stop issuing MCP-Session-Id: 2026-07-28 has no sessions."
            }
            ChecklistStep::DropRoots => "Stop asking clients for roots (deprecated).",
            ChecklistStep::DropSampling => {
                "Stop sending sampling requests to clients (deprecated)."
            }
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
}

/// The steps that apply, in order.
pub fn checklist(
    facts: &ProbeFacts,
    deprecated: &[Deprecated],
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
    let has = |d: Deprecated| deprecated.contains(&d);
    if has(Deprecated::Sse) {
        steps.push(ChecklistStep::MoveToStreamableHttp);
    }
    let version_seen = facts.negotiated.is_some() || facts.discover_versions.is_some();
    if facts.https && version_seen && !speaks_modern {
        steps.push(ChecklistStep::ImplementServerDiscover);
    }
    for (feature, step) in [
        (Deprecated::Sessions, ChecklistStep::DropSessions),
        (Deprecated::Roots, ChecklistStep::DropRoots),
        (Deprecated::Sampling, ChecklistStep::DropSampling),
        (Deprecated::Logging, ChecklistStep::DropLogging),
        (
            Deprecated::DynamicClientRegistration,
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
