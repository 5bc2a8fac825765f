//! What a fetch asks for and what comes back: requests, responses and the ways a fetch fails.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Version};
use url::Url;

use super::body::BodyReader;
use super::guard::Refusal;
use super::resolver::ResolveError;

/// Default cap on a response body (discovery documents are read up to 256 KB).
pub const DEFAULT_BODY_CAP: usize = 256 * 1024;
/// Default time allowed for a whole request, from the connection to the body's end.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// One HTTP request. Credentials, cookies, `Origin` and `Accept-Encoding` headers given here
/// are dropped; `User-Agent` is always the configured one.
#[derive(Debug, Clone)]
pub struct FetchRequest {
    /// The method.
    pub method: Method,
    /// The URL (`http` or `https`; user info and fragment are never sent).
    pub url: Url,
    /// Extra headers.
    pub headers: Vec<(HeaderName, HeaderValue)>,
    /// The request body, if any.
    pub body: Option<Bytes>,
    /// Bytes of response body kept; reading stops (and the connection is dropped) past it.
    pub body_cap: usize,
    /// Time allowed for the whole request including the body.
    pub timeout: Duration,
}

impl FetchRequest {
    /// A request with the default cap and timeout, no headers and no body.
    pub fn new(method: Method, url: Url) -> Self {
        Self {
            method,
            url,
            headers: Vec::new(),
            body: None,
            body_cap: DEFAULT_BODY_CAP,
            timeout: DEFAULT_REQUEST_TIMEOUT,
        }
    }

    /// A GET request with the defaults.
    pub fn get(url: Url) -> Self {
        Self::new(Method::GET, url)
    }

    /// A POST request with a body.
    pub fn post(url: Url, body: impl Into<Bytes>) -> Self {
        Self::new(Method::POST, url).body(body)
    }

    /// Adds a header.
    pub fn header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.push((name, value));
        self
    }

    /// Sets the body.
    pub fn body(mut self, body: impl Into<Bytes>) -> Self {
        self.body = Some(body.into());
        self
    }

    /// Sets the body cap.
    pub fn body_cap(mut self, cap: usize) -> Self {
        self.body_cap = cap;
        self
    }

    /// Sets the whole-request timeout.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// A complete response, its body read up to the cap.
#[derive(Debug, Clone)]
pub struct FetchResponse {
    /// The status (a 3xx is returned as is: redirects are never followed).
    pub status: StatusCode,
    /// The response headers.
    pub headers: HeaderMap,
    /// The body, at most `body_cap` bytes.
    pub body: Bytes,
    /// True when the server sent more than `body_cap` bytes.
    pub truncated: bool,
    /// From the start of the request (after politeness waits) to the body's end.
    pub elapsed: Duration,
    /// The peer the connection went to.
    pub address: SocketAddr,
    /// HTTP/1.1 or HTTP/2.
    pub http_version: Version,
}

/// A response whose head has arrived; its body is still on the wire.
#[derive(Debug)]
pub struct FetchHead {
    /// The status.
    pub status: StatusCode,
    /// The response headers.
    pub headers: HeaderMap,
    /// From the start of the request (after politeness waits) to the head's arrival.
    pub elapsed: Duration,
    /// The peer the connection went to.
    pub address: SocketAddr,
    /// HTTP/1.1 or HTTP/2.
    pub http_version: Version,
    /// The body, read on demand under the cap and the request's deadline. Dropping it drops
    /// the stream (and, for HTTP/1.1 with unread body, the connection).
    pub body: BodyReader,
}

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

impl fmt::Display for TimeoutPhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
    /// Any other I/O failure.
    Other,
}

impl ConnectFailure {
    pub(crate) fn from_io(err: &std::io::Error) -> Self {
        use std::io::ErrorKind as K;
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
    #[error("{url}: timed out ({phase})")]
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
        /// What hyper said.
        detail: String,
    },
    /// The peer broke HTTP (unparsable head, bad framing, HTTP/2 protocol error).
    #[error("{url}: HTTP protocol error: {detail}")]
    Protocol {
        /// The URL.
        url: String,
        /// What hyper said.
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
            Self::Resolve { .. } => "resolve",
            Self::Connect { .. } => "connect",
            Self::Tls { .. } => "tls",
            Self::Timeout { .. } => "timeout",
            Self::Reset { .. } => "reset",
            Self::Protocol { .. } => "protocol",
        }
    }
}
