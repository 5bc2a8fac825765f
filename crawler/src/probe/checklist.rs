//! The migration checklist of seed 003: ordered, each step only when it applies, "re-run the
//! scan" always last, and "nothing to migrate" in its place when the server is Ready ("Re-run
//! the Spellwarden scan is always last, so a server that is Ready shows Nothing to migrate in
//! its place"). A stdio server has no checklist.

use super::classify::{Deprecated, MigrationStatus, ProbeFacts};

/// One checklist step; `as_str` is the stable id kept in the record's `checklist`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
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

impl Step {
    pub fn as_str(self) -> &'static str {
        match self {
            Step::ServeHttps => "serve_https",
            Step::MoveToStreamableHttp => "move_to_streamable_http",
            Step::ImplementServerDiscover => "implement_server_discover",
            Step::DropSessions => "drop_sessions",
            Step::DropRoots => "drop_roots",
            Step::DropSampling => "drop_sampling",
            Step::DropLogging => "drop_logging",
            Step::OfferCimd => "offer_cimd",
            Step::RerunScan => "rerun_scan",
            Step::NothingToMigrate => "nothing_to_migrate",
        }
    }

    /// What the owner of the server does.
    pub fn text(self) -> &'static str {
        match self {
            Step::ServeHttps => "Serve the endpoint over HTTPS.",
            Step::MoveToStreamableHttp => {
                "Move from the HTTP+SSE transport to Streamable HTTP (one endpoint, POST)."
            }
            Step::ImplementServerDiscover => {
                "Implement server/discover and protocol version 2026-07-28, with the _meta \
                 envelope on every request instead of the initialize handshake."
            }
            Step::DropSessions => "Stop issuing MCP-Session-Id: 2026-07-28 has no sessions.",
            Step::DropRoots => "Stop asking clients for roots (deprecated).",
            Step::DropSampling => "Stop sending sampling requests to clients (deprecated).",
            Step::DropLogging => {
                "Drop the logging capability; read the per-request log level from _meta."
            }
            Step::OfferCimd => {
                "Support Client ID Metadata Documents in the authorization server instead of \
                 dynamic client registration (deprecated)."
            }
            Step::RerunScan => "Re-run the scan.",
            Step::NothingToMigrate => "Nothing to migrate.",
        }
    }
}

/// The steps that apply, in order.
pub fn checklist(
    facts: &ProbeFacts,
    deprecated: &[Deprecated],
    status: Option<MigrationStatus>,
    speaks_modern: bool,
) -> Vec<Step> {
    match status {
        Some(MigrationStatus::NotProbeable) => return Vec::new(),
        Some(MigrationStatus::Ready) => return vec![Step::NothingToMigrate],
        _ => {}
    }
    let mut steps = Vec::new();
    if !facts.https {
        steps.push(Step::ServeHttps);
    }
    let has = |d: Deprecated| deprecated.contains(&d);
    if has(Deprecated::Sse) {
        steps.push(Step::MoveToStreamableHttp);
    }
    let version_seen = facts.negotiated.is_some() || facts.discover_versions.is_some();
    if facts.https && version_seen && !speaks_modern {
        steps.push(Step::ImplementServerDiscover);
    }
    for (feature, step) in [
        (Deprecated::Sessions, Step::DropSessions),
        (Deprecated::Roots, Step::DropRoots),
        (Deprecated::Sampling, Step::DropSampling),
        (Deprecated::Logging, Step::DropLogging),
        (Deprecated::DynamicClientRegistration, Step::OfferCimd),
    ] {
        if has(feature) {
            steps.push(step);
        }
    }
    steps.push(Step::RerunScan);
    steps
}
