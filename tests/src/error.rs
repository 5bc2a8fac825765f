//! The one error type of the simulated web.

use std::net::{IpAddr, SocketAddr};

/// What went wrong while starting or changing a [`crate::SimWeb`].
///
/// Client misbehaviour is never an error here: it is recorded or answered.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A listener could not be bound.
    #[error("cannot bind {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    /// No port number was free on every loopback address at once.
    #[error("no port free on all of {ips:?} after {attempts} attempts")]
    NoCommonPort { ips: Vec<IpAddr>, attempts: u32 },
    /// An address outside loopback was asked for: the simulated web only listens on loopback.
    #[error("{ip} is not a loopback address")]
    NotLoopback { ip: IpAddr },
    /// A certificate could not be generated.
    #[error("certificate for {name:?} could not be generated: {source}")]
    Cert {
        name: String,
        #[source]
        source: rcgen::Error,
    },
    /// A generated key could not be loaded into rustls, or the TLS configuration failed.
    #[error("TLS setup failed: {0}")]
    Tls(#[from] rustls::Error),
    /// A site name that no HTTP client could send.
    #[error("invalid site name {name:?}: {reason}")]
    InvalidSite { name: String, reason: &'static str },
    /// A socket operation other than bind failed while starting.
    #[error("socket setup for {what} failed: {source}")]
    Io {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    /// The call needs a running tokio runtime (start it with `#[tokio::test]` or a runtime).
    #[error("no tokio runtime: call from inside a runtime")]
    NoRuntime,
    /// The simulated web has been shut down.
    #[error("the simulated web has shut down")]
    Stopped,
}
