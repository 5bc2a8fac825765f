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
}

impl RegistryScanError {
    /// The record's typed kind of a lookup that gave no scan.
    pub fn failure_kind(&self) -> FailureKind {
        match self {
            Self::Lookup(e) => e.failure_kind(),
            Self::NotUsable(_) => FailureKind::InvalidUrl,
            Self::Refused(..) => FailureKind::Refused,
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
