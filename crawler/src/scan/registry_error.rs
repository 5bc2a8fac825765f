//! Why a registry name gave no scan: its own small module, so the remote pick, the registry
//! scan and the crawl's intake all name it without importing each other.

use std::time::Duration;

use mcpcensus_store::FailureKind;

use crate::probe::RegistryError;

/// Why a registry name gave no scan.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryScanError {
    #[error(transparent)]
    Lookup(#[from] RegistryError),
    #[error("the registry entry's remote {0} is not a usable address")]
    NotUsable(String),
    #[error("the registry entry's remote {0} is refused: {1}; not requested")]
    Refused(String, &'static str),
    /// The crawl would not let the remote's scan wait its turn on this address: nothing was
    /// requested, and the crawl scans the entry again later (never a record's reason).
    #[error("held back: {0} had its share of the sites waiting their turn")]
    Held(std::net::IpAddr),
}

impl RegistryScanError {
    /// The record's typed kind of a lookup that gave no scan.
    pub fn failure_kind(&self) -> FailureKind {
        match self {
            Self::Lookup(e) => e.failure_kind(),
            Self::NotUsable(_) => FailureKind::InvalidUrl,
            Self::Refused(..) => FailureKind::Refused,
            Self::Held(_) => FailureKind::Interrupted,
        }
    }
}

/// A lookup the site deadline (`budget` long) ended before its answer.
pub fn lookup_timed_out(registry: &str, budget: Duration) -> RegistryError {
    RegistryError::Fetch {
        url: registry.to_owned(),
        error: format!(
            "no answer within the site deadline ({} s)",
            budget.as_secs()
        ),
        kind: FailureKind::Deadline,
    }
}
