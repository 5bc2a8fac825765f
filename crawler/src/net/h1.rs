//! HTTP/1.1 on the wire (RFC 9112), the client's side: a request's bytes, a response head and
//! how its body is framed (the chunked coding is `chunked.rs`). Pure functions over bytes:
//! `conn.rs` reads and writes them. The head is parsed by `httparse` (hyper's own parser).
//!
//! Held to hyper's client (1.x) strictness, and checked against it by the differential test
//! (`net/tests/differential.rs`). Where this exchange departs from hyper, on purpose:
//! - **obs-fold is unfolded** (a folded field line becomes one value, its folds one space each),
//!   as RFC 9112 §5.2 asks of a user agent; hyper refuses it unless told otherwise. Browsers read
//!   such heads, and a robots.txt sent with one must not remove a site.
//! - **Up to [`MAX_HEADERS`] fields** where hyper's default is 100: real heads (CDNs, cookies,
//!   CSPs) pass 100, and browsers set no count. The head's length cap is hyper's.
//! - **A transfer coding other than one `chunked`** (`gzip, chunked`, `chunked, chunked`,
//!   `gzip`) is refused ([`WireError::UnrequestedCoding`], [`WireError::ChunkedTwice`]): the
//!   crawler asks for no coding (no `TE`, `Accept-Encoding: identity`), and hyper would hand
//!   the still-encoded bytes on as content, to be judged as if the server had sent them plain.
//!   `identity` tokens are passed over (an old, harmless spelling of "no coding").
//! - **An unasked-for `101 Switching Protocols` is refused** ([`WireError::UnsolicitedSwitch`]):
//!   the crawler never asks for an upgrade, so what follows is not an answer to read.

use http::header::{CONNECTION, CONTENT_LENGTH, TRANSFER_ENCODING};
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Version};

/// The longest response head read: hyper's default read buffer (8 KiB + 100 × 4 KiB), so
/// every head hyper reads is read here.
pub(crate) const MAX_HEAD: usize = 8192 + 4096 * 100;
/// The most header fields a response head may carry (hyper's default is 100; see the module
/// doc). Heads of up to [`FAST_HEADERS`] are parsed without an allocation.
pub(crate) const MAX_HEADERS: usize = 1024;
/// Header fields parsed on the stack; a head with more is parsed again with room for
/// [`MAX_HEADERS`].
const FAST_HEADERS: usize = 128;

/// Why a response could not be read as HTTP/1.1: our words, never the server's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WireError {
    /// The head is not an HTTP/1.x response head.
    MalformedHead,
    /// More header fields than [`MAX_HEADERS`].
    TooManyHeaders,
    /// A head longer than [`MAX_HEAD`].
    HeadTooLong,
    /// `Content-Length` values that disagree or are not numbers.
    BadContentLength,
    /// A chunk size line or chunk end that is not the chunked coding.
    BadChunk,
    /// Chunk extensions past their budget for one body.
    ChunkExtensionsTooLong,
    /// Trailers longer (or more) than the client reads.
    TrailersTooLong,
    /// A transfer coding the client did not ask for (anything but `chunked`).
    UnrequestedCoding,
    /// `chunked` applied more than once.
    ChunkedTwice,
    /// `Transfer-Encoding` on an HTTP/1.0 answer (RFC 9112 §6.1: the framing is faulty).
    TransferEncodingOnHttp10,
    /// A `101 Switching Protocols` the client never asked for.
    UnsolicitedSwitch,
}

impl WireError {
    /// A short stable name, for logs and tests.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::MalformedHead => "malformed_head",
            Self::TooManyHeaders => "too_many_headers",
            Self::HeadTooLong => "head_too_long",
            Self::BadContentLength => "bad_content_length",
            Self::BadChunk => "bad_chunk",
            Self::ChunkExtensionsTooLong => "chunk_extensions_too_long",
            Self::TrailersTooLong => "trailers_too_long",
            Self::UnrequestedCoding => "unrequested_coding",
            Self::ChunkedTwice => "chunked_twice",
            Self::TransferEncodingOnHttp10 => "transfer_encoding_on_http10",
            Self::UnsolicitedSwitch => "unsolicited_switch",
        }
    }
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::MalformedHead => "malformed HTTP/1.x response head",
            Self::TooManyHeaders => "more header fields than the client reads",
            Self::HeadTooLong => "response head longer than the client reads",
            Self::BadContentLength => "invalid or conflicting Content-Length",
            Self::BadChunk => "invalid chunked body",
            Self::ChunkExtensionsTooLong => "chunk extensions longer than the client reads",
            Self::TrailersTooLong => "chunked body trailers longer than the client reads",
            Self::UnrequestedCoding => "a transfer coding the client did not ask for",
            Self::ChunkedTwice => "the chunked coding applied more than once",
            Self::TransferEncodingOnHttp10 => "Transfer-Encoding on an HTTP/1.0 answer",
            Self::UnsolicitedSwitch => "101 Switching Protocols the client did not ask for",
        })
    }
}

/// The bytes of a request: origin-form target, `Host`, the given headers, and
/// `Content-Length` when there is a body (or the method sends one).
pub(crate) fn encode_request(
    method: &Method,
    url: &url::Url,
    headers: &[(HeaderName, HeaderValue)],
    body: &[u8],
) -> Vec<u8> {
    use std::io::Write;
    // Sized for the whole request at once (the User-Agent alone is ~150 bytes).
    let fields: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    let mut out = Vec::with_capacity(96 + url.as_str().len() + fields + body.len());
    out.extend_from_slice(method.as_str().as_bytes());
    out.push(b' ');
    out.extend_from_slice(url.path().as_bytes());
    if let Some(query) = url.query() {
        out.push(b'?');
        out.extend_from_slice(query.as_bytes());
    }
    out.extend_from_slice(b" HTTP/1.1\r\nhost: ");
    out.extend_from_slice(url.host_str().unwrap_or_default().as_bytes());
    if let Some(port) = url.port() {
        let _ = write!(out, ":{port}"); // writing to a Vec cannot fail
    }
    out.extend_from_slice(b"\r\n");
    for (name, value) in headers {
        if name == CONTENT_LENGTH || name == TRANSFER_ENCODING || name == http::header::HOST {
            continue; // the framing and the host are ours to write
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if !body.is_empty() || matches!(*method, Method::POST | Method::PUT | Method::PATCH) {
        let _ = write!(out, "content-length: {}\r\n", body.len());
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out
}

/// A response head.
#[derive(Debug)]
pub(crate) struct Head {
    pub(crate) status: StatusCode,
    pub(crate) version: Version,
    pub(crate) headers: HeaderMap,
}

/// Parses a response head from the start of `buf`: `Ok(None)` while it is incomplete, else the
/// head and its length in bytes.
pub(crate) fn parse_head(buf: &[u8]) -> Result<Option<(Head, usize)>, WireError> {
    let mut fields = [httparse::EMPTY_HEADER; FAST_HEADERS];
    match parse_with(buf, &mut fields) {
        Err(WireError::TooManyHeaders) => {
            // Rare: a head past the stack's room gets a parse with room for the cap.
            let mut fields = vec![httparse::EMPTY_HEADER; MAX_HEADERS];
            parse_with(buf, &mut fields)
        }
        other => other,
    }
}

fn parse_with<'b>(
    buf: &'b [u8],
    fields: &mut [httparse::Header<'b>],
) -> Result<Option<(Head, usize)>, WireError> {
    let mut response = httparse::Response::new(fields);
    let parsed = httparse::ParserConfig::default()
        .allow_obsolete_multiline_headers_in_responses(true)
        .parse_response(&mut response, buf);
    let len = match parsed {
        Ok(httparse::Status::Complete(len)) if len > MAX_HEAD => {
            return Err(WireError::HeadTooLong)
        }
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) if buf.len() >= MAX_HEAD => {
            return Err(WireError::HeadTooLong)
        }
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => return Err(WireError::TooManyHeaders),
        Err(_) => return Err(WireError::MalformedHead),
    };
    let version = match response.version {
        Some(0) => Version::HTTP_10,
        _ => Version::HTTP_11,
    };
    let status = response
        .code
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or(WireError::MalformedHead)?;
    // The values share one copy of the head rather than each being copied on its own.
    let shared = bytes::Bytes::copy_from_slice(&buf[..len]);
    let start = buf.as_ptr() as usize;
    let mut headers = HeaderMap::with_capacity(response.headers.len());
    for field in response.headers.iter() {
        let name =
            HeaderName::from_bytes(field.name.as_bytes()).map_err(|_| WireError::MalformedHead)?;
        // httparse's values are slices of `buf`: the same bytes in the copy (an empty value
        // may point anywhere, so it is checked, not assumed).
        let within = (field.value.as_ptr() as usize)
            .checked_sub(start)
            .map(|at| at..at + field.value.len())
            .filter(|range| range.end <= shared.len());
        let value = if field.value.contains(&b'\n') {
            HeaderValue::from_bytes(&unfold(field.value))
        } else {
            match within {
                Some(range) => HeaderValue::from_maybe_shared(shared.slice(range)),
                None => HeaderValue::from_bytes(field.value),
            }
        }
        .map_err(|_| WireError::MalformedHead)?;
        headers.append(name, value);
    }
    Ok(Some((
        Head {
            status,
            version,
            headers,
        },
        len,
    )))
}

/// A folded field value as one line: each fold (a line end and the spaces around it) becomes
/// one space (RFC 9112 §5.2), as hyper does when told to read folds.
fn unfold(value: &[u8]) -> Vec<u8> {
    let mut lines = value.split(|b| *b == b'\n');
    let mut out = lines.next().unwrap_or_default().trim_ascii_end().to_vec();
    for line in lines {
        out.push(b' ');
        out.extend_from_slice(line.trim_ascii());
    }
    out
}

/// How a response's body ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    /// No body (HEAD, 1xx, 204, 304).
    Empty,
    /// Exactly this many bytes.
    Length(u64),
    /// The chunked coding.
    Chunked,
    /// Until the server closes the connection.
    UntilClose,
}

/// The body's framing (RFC 9112 §6.3) and whether the connection may carry another request
/// after it.
pub(crate) fn framing(method: &Method, head: &Head) -> Result<(Framing, bool), WireError> {
    let status = head.status.as_u16();
    if status == 101 {
        return Err(WireError::UnsolicitedSwitch);
    }
    let keep_alive =
        head.version == Version::HTTP_11 && !has_token(&head.headers, CONNECTION, "close");
    if *method == Method::HEAD || (100..200).contains(&status) || status == 204 || status == 304 {
        return Ok((Framing::Empty, keep_alive));
    }
    let has_length = head.headers.contains_key(CONTENT_LENGTH);
    if head.headers.contains_key(TRANSFER_ENCODING) {
        if head.version == Version::HTTP_10 {
            return Err(WireError::TransferEncodingOnHttp10);
        }
        return Ok(if transfer_coding(&head.headers)? {
            // Both framings: the coding wins, and the connection is not trusted again.
            (Framing::Chunked, keep_alive && !has_length)
        } else {
            (Framing::UntilClose, false)
        });
    }
    if has_length {
        let mut length = None;
        for value in head.headers.get_all(CONTENT_LENGTH) {
            for part in value.as_bytes().split(|b| *b == b',') {
                let part = part.trim_ascii();
                if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
                    return Err(WireError::BadContentLength);
                }
                // Digits only, so the parse fails only past u64 (leading zeros are fine).
                let n: u64 = std::str::from_utf8(part)
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .ok_or(WireError::BadContentLength)?;
                if length.is_some_and(|l| l != n) {
                    return Err(WireError::BadContentLength);
                }
                length = Some(n);
            }
        }
        let n = length.ok_or(WireError::BadContentLength)?;
        return Ok((Framing::Length(n), keep_alive));
    }
    Ok((Framing::UntilClose, false))
}

/// Whether the transfer codings are exactly one `chunked` (true) or none (false, `identity`
/// passed over); any other coding, or `chunked` twice, is refused (see the module doc).
fn transfer_coding(headers: &HeaderMap) -> Result<bool, WireError> {
    let mut chunked = 0;
    let mut other = false;
    for value in headers.get_all(TRANSFER_ENCODING) {
        for token in value.as_bytes().split(|b| *b == b',') {
            let token = token.trim_ascii();
            if token.is_empty() || token.eq_ignore_ascii_case(b"identity") {
                continue;
            }
            if token.eq_ignore_ascii_case(b"chunked") {
                chunked += 1;
            } else {
                other = true;
            }
        }
    }
    if chunked > 1 {
        return Err(WireError::ChunkedTwice);
    }
    if other {
        return Err(WireError::UnrequestedCoding);
    }
    Ok(chunked == 1)
}

fn has_token(headers: &HeaderMap, name: HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|v| {
        v.as_bytes()
            .split(|b| *b == b',')
            .any(|t| t.trim_ascii().eq_ignore_ascii_case(token.as_bytes()))
    })
}
