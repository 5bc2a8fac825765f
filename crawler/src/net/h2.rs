//! HTTP/2 by hyper, on a connection whose TLS chose it: the handshake, a request on the
//! connection's handle, and hyper's errors mapped to a fetch's.
//!
//! The windows are HTTP/2's own defaults, not hyper's (2 MiB a stream, 5 MiB a connection): a
//! server may send no more than the window before the client reads, so the window is what
//! bounds the bytes buffered for an answer the client stops reading at its cap (64 KiB for an
//! MCP answer). The header list has the HTTP/1.1 head's limit.

use bytes::Bytes;
use http::{HeaderName, HeaderValue, Uri};
use http_body_util::Full;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};

use super::answer::{header_map, Answer};
use super::body::Source;
use super::connector::NetStream;
use super::fetch::{FetchError, TimeoutPhase};
use super::h1::MAX_HEAD;
use super::pool::H2;

/// A stream's receive window: HTTP/2's initial 65,535 bytes, no more than the smallest answer
/// cap (an MCP answer's 64 KiB).
pub const STREAM_WINDOW: u32 = 65_535;
/// The connection's receive window: four streams' worth (a site's requests go in turn; a few
/// at once at most).
pub(crate) const CONNECTION_WINDOW: u32 = 4 * STREAM_WINDOW;
/// The most bytes of a header list: the HTTP/1.1 head's limit.
const HEADER_LIST_MAX: u32 = MAX_HEAD as u32;

/// Starts HTTP/2 on a connection whose TLS chose it; hyper drives the connection in a task of
/// its own.
pub(super) async fn handshake_h2(io: NetStream, url: &str) -> Result<H2, FetchError> {
    let peer = io.peer().addr;
    let (sender, connection) = hyper::client::conn::http2::Builder::new(TokioExecutor::new())
        .timer(TokioTimer::new())
        .initial_stream_window_size(STREAM_WINDOW)
        .initial_connection_window_size(CONNECTION_WINDOW)
        .adaptive_window(false)
        .max_header_list_size(HEADER_LIST_MAX)
        .handshake::<_, Full<Bytes>>(TokioIo::new(io))
        .await
        .map_err(|err| classify(&err, url))?;
    tokio::spawn(async move {
        // Its end (the server's GOAWAY, a reset) shows in the requests that used it.
        let _ = connection.await;
    });
    Ok(H2 { sender, peer })
}

pub(super) async fn send_h2(
    mut h2: H2,
    url: &str,
    method: http::Method,
    headers: Vec<(HeaderName, HeaderValue)>,
    body: Bytes,
) -> Result<Answer, FetchError> {
    let uri: Uri = url.parse().map_err(|_| FetchError::InvalidUrl {
        url: url.to_owned(),
        reason: "not a valid request URI",
    })?;
    let mut request = http::Request::new(Full::new(body));
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    *request.headers_mut() = header_map(headers);
    h2.sender.ready().await.map_err(|err| classify(&err, url))?;
    let response = h2
        .sender
        .send_request(request)
        .await
        .map_err(|err| classify(&err, url))?;
    let (parts, body) = response.into_parts();
    Ok(Answer {
        status: parts.status,
        headers: parts.headers,
        version: parts.version,
        address: h2.peer,
        body: Source::H2(body),
    })
}

/// Maps an HTTP/2 error of hyper's to a fetch error; the detail names the causes (h2's name
/// for a stream's reset code, the I/O error), never text the server sent.
fn classify(err: &hyper::Error, url: &str) -> FetchError {
    let url = url.to_owned();
    let mut detail = err.to_string();
    let mut io_err = false;
    let mut next = std::error::Error::source(err);
    while let Some(cause) = next {
        detail.push_str(": ");
        detail.push_str(&cause.to_string());
        io_err |= cause.is::<std::io::Error>();
        next = cause.source();
    }
    if err.is_timeout() {
        FetchError::Timeout {
            url,
            phase: TimeoutPhase::Headers,
        }
    } else if err.is_parse() || err.is_parse_status() || err.is_user() {
        FetchError::Protocol { url, detail }
    } else if err.is_incomplete_message() || err.is_closed() || err.is_canceled() || io_err {
        FetchError::Reset { url, detail }
    } else {
        // An HTTP/2 stream or connection error (a reset code, a GOAWAY's reason).
        FetchError::Protocol { url, detail }
    }
}
