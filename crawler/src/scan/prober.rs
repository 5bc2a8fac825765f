//! The probers' reading of a registry entry's remote: when the survey's session did not list
//! the tools but the server answered (a legacy-SSE-only remote whose `initialize` POST gets
//! 405, a 2026-07-28-only server, one that refuses `notifications/initialized` with 400), the
//! deep probe's requests follow, as the registry's nightly probers try streamable HTTP and
//! legacy SSE with every released revision before counting a server "not MCP". Not asked when
//! the session was refused (401/403), redirected, or got no answer: those decide the class.

use mcpcensus_store::{FailureKind, Outcome, RequestLog};

use crate::session::SessionReport;

/// True when the survey's session on a given endpoint leaves the probers' reading to do.
pub(super) fn wants_reading(session: &SessionReport, requests: &[RequestLog]) -> bool {
    let refused = requests.iter().any(|q| matches!(q.status, Some(401 | 403)));
    let answered_not_mcp = match session.verdict.outcome {
        Outcome::Fail => true,
        Outcome::NotMeasured => matches!(
            session.verdict.kind,
            Some(FailureKind::Answer | FailureKind::NewerRevisionOnly)
        ),
        _ => false,
    };
    answered_not_mcp && !refused && !session.verdict.transient && session.tool_count.is_none()
}
