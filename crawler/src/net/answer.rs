//! What either HTTP version hands the client: an answer's head and its body's source; and the
//! request's headers as a map, as HTTP/2 (and `check --explain`) take them.

use http::{HeaderMap, HeaderName, HeaderValue};

use super::body::Source;

/// An answer's head and its body's source.
pub(super) struct Answer {
    pub(super) status: http::StatusCode,
    pub(super) headers: HeaderMap,
    pub(super) version: http::Version,
    pub(super) address: std::net::SocketAddr,
    pub(super) body: Source,
}

/// The request's headers as HTTP/2 (and `check --explain`) take them.
pub(super) fn header_map(headers: Vec<(HeaderName, HeaderValue)>) -> HeaderMap {
    let mut map = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        map.append(name, value);
    }
    map
}
