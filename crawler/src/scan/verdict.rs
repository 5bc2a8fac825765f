//! A verdict a phase reaches before the session can give one (the site does not resolve, is
//! refused, redirects away, has no endpoint...), with its reason in words a site owner
//! understands and the reason's typed kind.

use mcpcensus_store::{FailureKind, Outcome, Record};

use crate::net::{FetchError, ResolveError};

/// How a scan ended early: the phase that ended it returns this as its error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    pub kind: FailureKind,
    pub reason: String,
    /// The failure may pass (see [`FetchError::is_transient`]): the site is worth a second look.
    pub transient: bool,
}

impl Verdict {
    pub fn new(outcome: Outcome, kind: FailureKind, reason: impl Into<String>) -> Verdict {
        Verdict {
            outcome,
            kind,
            reason: reason.into(),
            transient: false,
        }
    }

    /// Not measured, for `kind`.
    pub fn not_measured(kind: FailureKind, reason: impl Into<String>) -> Verdict {
        Verdict::new(Outcome::NotMeasured, kind, reason)
    }

    /// The host does not resolve.
    pub fn resolve(error: &ResolveError) -> Verdict {
        Verdict {
            transient: error.is_transient(),
            ..Verdict::new(Outcome::Unreachable, error.failure_kind(), resolve(error))
        }
    }

    /// Nothing answers at the site.
    pub fn no_answer(error: &FetchError) -> Verdict {
        Verdict {
            transient: error.is_transient(),
            ..Verdict::new(Outcome::Unreachable, error.failure_kind(), no_answer(error))
        }
    }

    /// The seat would not let the site wait its turn on `ip` (the crawl scans it again
    /// later; this verdict is never its record's).
    pub fn held(ip: std::net::IpAddr) -> Verdict {
        Verdict::new(
            Outcome::NotStarted,
            FailureKind::Interrupted,
            format!("held back: {ip} had its share of the sites waiting their turn"),
        )
    }

    pub fn apply_to(self, record: &mut Record) {
        record.set_verdict(self.outcome, Some(self.kind), self.reason);
    }
}

fn resolve(error: &ResolveError) -> String {
    match error {
        ResolveError::NxDomain => "DNS: the domain does not exist (NXDOMAIN)".into(),
        ResolveError::ServFail => "DNS: the name server failed (SERVFAIL)".into(),
        ResolveError::Timeout => "DNS: no answer in time".into(),
        ResolveError::NoAddresses => "DNS: the name has no A or AAAA records".into(),
        ResolveError::Local(resource) => format!("DNS: {resource}"),
        ResolveError::Other(detail) => format!("DNS: {detail}"),
    }
}

/// Why a request got no answer, for the verdict text.
fn no_answer(error: &FetchError) -> String {
    match error {
        FetchError::Guard {
            address, refusal, ..
        } => {
            format!("refused by the address guard: {address} is {refusal}")
        }
        FetchError::Resolve { error, .. } => resolve(error),
        FetchError::Timeout { phase, .. } => format!("no answer: timed out ({})", phase.name()),
        other => format!("the site did not answer: {other}"),
    }
}
