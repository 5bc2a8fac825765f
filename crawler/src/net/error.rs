//! The network core's error type for setting things up.
//!
//! Outcomes of individual fetches are [`crate::net::FetchError`] values (plain data, cloneable);
//! this enum is for building the core: bad options, unreadable CA files, resolver setup.

use std::path::PathBuf;

/// Why the network core could not be built.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// A setting is out of range.
    #[error("invalid network option {field}: {reason}")]
    InvalidOption {
        /// The option's name.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A CA file could not be read or parsed as PEM certificates.
    #[error("cannot read CA file {path}: {source}")]
    CaFile {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: rustls_pki_types::pem::Error,
    },
    /// A certificate in a CA file was not accepted as a trust anchor.
    #[error("cannot trust a certificate from {path}: {source}")]
    CaCertificate {
        /// The file.
        path: PathBuf,
        /// What rustls said.
        source: rustls::Error,
    },
    /// The TLS client configuration could not be built.
    #[error("cannot build the TLS configuration: {source}")]
    Tls {
        /// What rustls said.
        source: rustls::Error,
    },
    /// The system DNS configuration could not be read.
    #[error("cannot read the system DNS configuration: {source}")]
    SystemDns {
        /// What hickory said.
        source: hickory_resolver::net::NetError,
    },
    /// The DNS resolver could not be built.
    #[error("cannot build the DNS resolver: {source}")]
    Resolver {
        /// What hickory said.
        source: hickory_resolver::net::NetError,
    },
}
