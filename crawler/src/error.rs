//! Errors of the crawler library, with the input that failed.

use std::io;

/// Reading domain lists and opt-out lists.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("cannot open input {path}: {source}")]
    Open { path: String, source: io::Error },
    #[error("cannot read input {path} near line {line}: {source}")]
    Read {
        path: String,
        line: u64,
        source: io::Error,
    },
    #[error("exclusion list {path}, line {line}: {reason}")]
    Exclusion {
        path: String,
        line: u64,
        reason: String,
    },
}

/// Loading and checking the configuration.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("config file {path}: {source}")]
    Parse {
        path: String,
        source: Box<toml::de::Error>,
    },
    #[error("invalid setting {key}: {reason}")]
    Invalid { key: &'static str, reason: String },
}

/// Everything a run can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Store(#[from] mcpcensus_store::StoreError),
    #[error("{0} is not available yet: {1}")]
    NotYet(&'static str, &'static str),
    #[error("the record writer stopped: {0}")]
    Writer(String),
}
