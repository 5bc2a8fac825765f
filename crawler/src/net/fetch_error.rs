//! Why a fetch got no (complete) answer: plain, cloneable data, below both the request types
//! and the body reader that report it.

use std::fmt;
use std::net::{IpAddr, SocketAddr};

use mcpcensus_store::FailureKind;

use super::guard::Refusal;
use super::local::LocalResource;
use super::resolver::ResolveError;

/// Which wait ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeoutPhase {
    /// Opening the TCP connection.
    Connect,
    /// The TLS handshake.
    Tls,
    /// Waiting for the response head.
    Headers,
    /// Reading the body.
    Body,
}

impl TimeoutPhase {
    /// A short stable name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Connect => "connect",
            Self::Tls => "tls",
            Self::Headers => "headers",
            Self::Body => "body",
        }
    }
}

/// How a TCP connection attempt failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConnectFailure {
    /// Connection refused (RST to our SYN).
    Refused,
    /// No route to the host or network.
    Unreachable,
    /// Reset or aborted while connecting.
    Reset,
    /// This machine ran out of something (never the site's doing).
    Local(LocalResource),
    /// Any other I/O failure.
    Other,
}

impl ConnectFailure {
    pub(crate) fn from_io(err: &std::io::Error) -> Self {
        use std::io::ErrorKind as K;
        if let Some(resource) = LocalResource::from_io(err) {
            return Self::Local(resource);
        }
        match err.kind() {
            K::ConnectionRefused => Self::Refused,
            K::HostUnreachable | K::NetworkUnreachable | K::AddrNotAvailable => Self::Unreachable,
            K::ConnectionReset | K::ConnectionAborted => Self::Reset,
            _ => Self::Other,
        }
    }
}

impl fmt::Display for ConnectFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Local(resource) => return resource.fmt(f),
            Self::Refused => "connection refused",
            Self::Unreachable => "unreachable",
            Self::Reset => "reset while connecting",
            Self::Other => "connection failed",
        })
    }
}

/// Why a fetch produced no response. Plain data: cloneable and comparable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The URL cannot be fetched (not http/https, no host).
    #[error("cannot fetch {url}: {reason}")]
    InvalidUrl {
        /// The URL.
        url: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The site client already pins its limit of distinct hosts.
    #[error("{host}: site client already pins {limit} hosts")]
    TooManyHosts {
        /// The host refused.
        host: String,
        /// The limit.
        limit: usize,
    },
    /// The host is on the opt-out list: no request is made to it.
    #[error("{host} is covered by the opt-out list entry {listed}: not requested")]
    OptedOut {
        /// The host.
        host: String,
        /// The listed domain that covers it.
        listed: String,
    },
    /// The site's robots.txt disallows this GET: not requested.
    #[error("{url}: disallowed by the site's robots.txt: not requested")]
    Disallowed {
        /// The URL.
        url: String,
    },
    /// Every address of the host was refused by the guard (the first refusal is reported).
    #[error("{host} resolves to {address}, refused: {refusal}")]
    Guard {
        /// The host.
        host: String,
        /// A refused address.
        address: IpAddr,
        /// Why.
        refusal: Refusal,
    },
    /// The host did not resolve.
    #[error("{host}: {error}")]
    Resolve {
        /// The host.
        host: String,
        /// Why.
        error: ResolveError,
    },
    /// No TCP connection could be opened (the last attempt's failure is reported).
    #[error("{host} at {address}: {failure}")]
    Connect {
        /// The host.
        host: String,
        /// The address of the last attempt.
        address: SocketAddr,
        /// Why.
        failure: ConnectFailure,
    },
    /// The TLS handshake failed.
    #[error("{host} at {address}: TLS handshake failed: {reason}")]
    Tls {
        /// The host.
        host: String,
        /// The peer.
        address: SocketAddr,
        /// What rustls said.
        reason: String,
    },
    /// A deadline passed.
    #[error("{url}: timed out ({})", phase.name())]
    Timeout {
        /// The URL (origin only for connect and TLS timeouts).
        url: String,
        /// Which wait.
        phase: TimeoutPhase,
    },
    /// The connection was closed or reset mid-exchange.
    #[error("{url}: connection reset: {detail}")]
    Reset {
        /// The URL.
        url: String,
        /// What went wrong, in the client's words.
        detail: String,
    },
    /// The peer broke HTTP (unparsable head, bad framing, HTTP/2 protocol error).
    #[error("{url}: HTTP protocol error: {detail}")]
    Protocol {
        /// The URL.
        url: String,
        /// What went wrong, in the client's words.
        detail: String,
    },
}

impl FetchError {
    /// A short stable name, fit for a metric label.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::InvalidUrl { .. } => "invalid_url",
            Self::TooManyHosts { .. } => "too_many_hosts",
            Self::Guard { .. } => "guard",
            Self::OptedOut { .. } => "opted_out",
            Self::Disallowed { .. } => "robots_disallowed",
            Self::Resolve { .. } => "resolve",
            Self::Connect { .. } => "connect",
            Self::Tls { .. } => "tls",
            Self::Timeout { .. } => "timeout",
            Self::Reset { .. } => "reset",
            Self::Protocol { .. } => "protocol",
        }
    }

    /// The record's typed kind of this failure: what reports, metrics and the run decide on.
    /// A local resource is its own kind, whatever step it failed in.
    pub fn failure_kind(&self) -> FailureKind {
        if self.local_resource().is_some() {
            return FailureKind::LocalResource;
        }
        match self {
            Self::InvalidUrl { .. } => FailureKind::InvalidUrl,
            Self::TooManyHosts { .. } => FailureKind::Refused,
            Self::Guard { .. } => FailureKind::Guard,
            Self::OptedOut { .. } => FailureKind::OptedOut,
            Self::Disallowed { .. } => FailureKind::Robots,
            Self::Resolve { .. } => FailureKind::Dns,
            Self::Connect { .. } => FailureKind::Connect,
            Self::Tls { .. } => FailureKind::Tls,
            Self::Timeout { .. } => FailureKind::Timeout,
            Self::Reset { .. } => FailureKind::Reset,
            Self::Protocol { .. } => FailureKind::Protocol,
        }
    }

    /// A failure that may pass (no connection, a wait that ran out, a reset, a name server's
    /// failure), worth a second look later in the run. Refusals of ours, TLS and protocol
    /// errors are the site's steady answer. A local resource is never the site's: the run
    /// retries those itself.
    pub fn is_transient(&self) -> bool {
        if self.local_resource().is_some() {
            return false;
        }
        match self {
            Self::Resolve { error, .. } => error.is_transient(),
            Self::Connect { .. } | Self::Timeout { .. } | Self::Reset { .. } => true,
            _ => false,
        }
    }

    /// The resource of this machine that ran out, when that is why the fetch failed.
    pub fn local_resource(&self) -> Option<LocalResource> {
        match self {
            Self::Connect {
                failure: ConnectFailure::Local(resource),
                ..
            }
            | Self::Resolve {
                error: ResolveError::Local(resource),
                ..
            } => Some(*resource),
            _ => None,
        }
    }
}
