//! What a fetch asks for and what comes back: requests, responses and the ways a fetch fails.

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Version};
use url::Url;

use super::body::BodyReader;
pub use super::fetch_error::{ConnectFailure, FetchError, TimeoutPhase};

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
    /// Whether a 503 without Retry-After pauses the host (see [`FetchRequest::bare_503_is_answer`]).
    pub pause_on_bare_503: bool,
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
            pause_on_bare_503: true,
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

    /// A 503 without Retry-After is this URL's answer, not the host asking for a pause: a
    /// path routed to a missing backend says nothing about the host's load. 429s, and 503s
    /// naming a Retry-After, still pause the host.
    pub fn bare_503_is_answer(mut self) -> Self {
        self.pause_on_bare_503 = false;
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
    /// True when the body ended at a TLS close without close_notify: taken as its end (as
    /// browsers do), though it may have been cut short.
    pub closed_without_notify: bool,
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
