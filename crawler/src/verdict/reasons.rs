//! The sentences a site owner reads when nothing answered: the host did not resolve, or a
//! request got no answer. The survey's own sentences for each answer are the session's
//! (`session/judge.rs`); these are the scan's, before any answer.

use crate::net::{FetchError, ResolveError};

pub(super) fn resolve(error: &ResolveError) -> String {
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
pub(super) fn no_answer(error: &FetchError) -> String {
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
