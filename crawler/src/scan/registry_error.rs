//! Why a registry name gave no scan: its own small module, so the remote pick and the
//! registry scan both name it without importing each other.

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
