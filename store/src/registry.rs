//! A registry entry's class in the vocabulary of the independent MCP probers (MCP Vitals,
//! AliveMCP), read from the record's typed fields only, and the two facts counted apart
//! (`initialized_400`, `signin_redirect`). The SQL report computes the same in
//! `configs/clickhouse/queries/registry_classes.sql`; the two must change together.

use crate::derived::scanned;
use crate::record::{AuthKind, Outcome, Record, RequestLog, Transport};
use crate::FailureKind as K;

/// A registry entry's class, best first: an endpoint URL named by several entries has the
/// best class any of them got (`min`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RegistryClass {
    /// `tools/list` answered without a credential (streamable HTTP or legacy SSE, any
    /// released revision), or an anonymous handshake answered (`partial`, a newer revision).
    Live,
    /// 401 or 403 on the endpoint, whatever the deep probe made of it.
    AuthGated,
    /// Answered HTTP, but not MCP: HTML, an unrelated answer, a redirect (a sign-in page,
    /// counted apart as `signin_redirect`).
    HttpNotMcp,
    /// No answer (no DNS, refused, TLS, timeout, reset), or a 5xx on both looks.
    Dead,
    /// Nothing decided: a 429 on the last look, or a 5xx not confirmed by a second one.
    NoVerdict,
    /// The remote URL holds unexpanded `{...}` placeholders: never requested.
    Template,
    /// Nothing to probe: a stdio server (no remote), or a remote the rules refuse.
    NotProbeable,
}

impl RegistryClass {
    pub const ALL: [RegistryClass; 7] = [
        RegistryClass::Live,
        RegistryClass::AuthGated,
        RegistryClass::HttpNotMcp,
        RegistryClass::Dead,
        RegistryClass::NoVerdict,
        RegistryClass::Template,
        RegistryClass::NotProbeable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RegistryClass::Live => "live",
            RegistryClass::AuthGated => "auth_gated",
            RegistryClass::HttpNotMcp => "http_not_mcp",
            RegistryClass::Dead => "dead",
            RegistryClass::NoVerdict => "no_verdict",
            RegistryClass::Template => "template",
            RegistryClass::NotProbeable => "not_probeable",
        }
    }
}

/// The registry name of a record made for one (input `registry:NAME`, not invalid input):
/// a server the registry lists. `None` for a site of the web.
pub fn registry_server(r: &Record) -> Option<&str> {
    let prefix = r.input.get(..9)?;
    if !prefix.eq_ignore_ascii_case("registry:") || r.outcome == Outcome::InvalidInput {
        return None;
    }
    Some(&r.input[9..])
}

/// Kinds that say the remote was never requested by our own rules (the SQL gets this list
/// written into it).
pub const REFUSED_KINDS: [K; 6] = [
    K::NoEndpoint,
    K::Refused,
    K::InvalidUrl,
    K::Guard,
    K::Robots,
    K::OptedOut,
];

/// Kinds that say nothing answered: an entry with one of them is `dead` (the SQL gets this
/// list written into it too).
pub const NO_ANSWER_KINDS: [K; 6] = [
    K::Dns,
    K::Connect,
    K::Tls,
    K::Timeout,
    K::Deadline,
    K::Reset,
];

fn refused(kind: Option<K>) -> bool {
    kind.is_some_and(|k| REFUSED_KINDS.contains(&k))
}

/// The class of a registry entry's record; `None` for a site of the web and for an entry not
/// measured for reasons of its own run (not started, the registry lookup failed).
pub fn registry_class(r: &Record) -> Option<RegistryClass> {
    use RegistryClass as C;
    registry_server(r)?;
    let kind = r.reason_kind;
    if kind == Some(K::Template) {
        return Some(C::Template);
    }
    if r.endpoint.is_none() {
        // A stdio server, a remote the rules refuse; or the lookup itself failed.
        let stdio = r.transport == Some(Transport::Stdio);
        return (stdio || refused(kind)).then_some(C::NotProbeable);
    }
    if !scanned(r.outcome) {
        return None;
    }
    let listed = r.auth.as_ref().is_some_and(|a| a.kind == AuthKind::None);
    let gated = logged(r).any(|q| matches!(q.status, Some(401 | 403)));
    let first_kind = r.first_look.as_ref().and_then(|f| f.reason_kind);
    Some(match (r.outcome, kind) {
        (Outcome::Pass, _) => C::Live,
        _ if listed => C::Live,
        _ if gated => C::AuthGated,
        (Outcome::Partial, _) | (_, Some(K::NewerRevisionOnly)) => C::Live,
        (_, Some(K::Redirect)) => C::HttpNotMcp,
        (Outcome::Unreachable, _) => C::Dead,
        (_, Some(k)) if NO_ANSWER_KINDS.contains(&k) => C::Dead,
        (_, Some(K::ServerError)) if first_kind == Some(K::ServerError) => C::Dead,
        (_, Some(K::ServerError | K::RateLimited)) => C::NoVerdict,
        _ if refused(kind) => C::NotProbeable,
        (Outcome::Fail | Outcome::OutOfScope, _)
        | (_, Some(K::Answer | K::BodyCap | K::Protocol)) => C::HttpNotMcp,
        _ => return None,
    })
}

/// Every request the record logs, the first look's included (the SQL report reads them in
/// the record's JSON, where both are).
fn logged(r: &Record) -> impl Iterator<Item = &RequestLog> {
    let first = r.first_look.as_ref().map(|f| f.requests.as_slice());
    r.requests.iter().chain(first.unwrap_or_default())
}

/// The request log's purposes of the `notifications/initialized` notification (the survey's
/// session, the deep probe's).
const INITIALIZED_PURPOSES: [&str; 2] = [
    "notifications/initialized",
    "probe:notifications/initialized",
];

/// The entry's server answered `notifications/initialized` with a 400 (the reading went on).
pub fn initialized_400(r: &Record) -> bool {
    registry_server(r).is_some()
        && logged(r)
            .any(|q| q.status == Some(400) && INITIALIZED_PURPOSES.contains(&q.purpose.as_str()))
}

/// The entry's endpoint answered a redirect the rules do not follow (a sign-in page): counted
/// apart inside `http_not_mcp`.
pub fn signin_redirect(r: &Record) -> bool {
    registry_class(r) == Some(RegistryClass::HttpNotMcp) && r.reason_kind == Some(K::Redirect)
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
