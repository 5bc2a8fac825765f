//! HTTP/1.1 on the wire (RFC 9112), the client's side: a request's bytes, a response head, how
//! its body is framed and the chunked coding. Pure functions over bytes: `conn.rs` reads and
//! writes them. The head is parsed by `httparse` (hyper's own parser).

use http::header::{CONNECTION, CONTENT_LENGTH, TRANSFER_ENCODING};
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Version};

/// The longest response head read (hyper's default allows ~400 KB; real heads with large CSP
/// and cookie headers stay far below this).
pub(crate) const MAX_HEAD: usize = 256 * 1024;
/// The most header fields a response head may carry (hyper's default is 100).
pub(crate) const MAX_HEADERS: usize = 128;
/// The most bytes of trailers after a chunked body.
const MAX_TRAILERS: usize = 16 * 1024;

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
    /// Trailers longer than we read.
    TrailersTooLong,
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::MalformedHead => "malformed HTTP/1.x response head",
            Self::TooManyHeaders => "more header fields than the client reads",
            Self::HeadTooLong => "response head longer than the client reads",
            Self::BadContentLength => "invalid or conflicting Content-Length",
            Self::BadChunk => "invalid chunked body",
            Self::TrailersTooLong => "chunked body trailers longer than the client reads",
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
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut fields);
    let len = match response.parse(buf) {
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
        let value = match within {
            Some(range) => HeaderValue::from_maybe_shared(shared.slice(range)),
            None => HeaderValue::from_bytes(field.value),
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
    let keep_alive =
        head.version == Version::HTTP_11 && !has_token(&head.headers, CONNECTION, "close");
    if *method == Method::HEAD || (100..200).contains(&status) || status == 204 || status == 304 {
        // A 101 switched protocols: the connection is no longer HTTP/1.1.
        return Ok((Framing::Empty, keep_alive && status != 101));
    }
    let has_length = head.headers.contains_key(CONTENT_LENGTH);
    if head.headers.contains_key(TRANSFER_ENCODING) {
        let chunked_last = head
            .headers
            .get_all(TRANSFER_ENCODING)
            .iter()
            .flat_map(|v| v.as_bytes().split(|b| *b == b','))
            .rfind(|t| !t.trim_ascii().is_empty())
            .is_some_and(|t| t.trim_ascii().eq_ignore_ascii_case(b"chunked"));
        return Ok(if chunked_last {
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
                if part.is_empty() || part.len() > 19 || !part.iter().all(u8::is_ascii_digit) {
                    return Err(WireError::BadContentLength);
                }
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

fn has_token(headers: &HeaderMap, name: HeaderName, token: &str) -> bool {
    headers.get_all(name).iter().any(|v| {
        v.as_bytes()
            .split(|b| *b == b',')
            .any(|t| t.trim_ascii().eq_ignore_ascii_case(token.as_bytes()))
    })
}

/// Where the chunked decoder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChunkState {
    /// Before a chunk-size line.
    Size,
    /// Inside a chunk's data, this much left.
    Data(u64),
    /// After a chunk's data: its CRLF.
    DataEnd,
    /// After the last chunk: trailer lines, this many bytes read so far.
    Trailers(usize),
    /// The body is complete.
    Done,
}

/// One step of the chunked decoder over buffered bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChunkStep {
    /// More bytes are needed.
    NeedMore,
    /// `consumed` bytes were framing; go on.
    Skip(usize),
    /// `len` bytes of data start at `start`; `start + len` bytes are consumed.
    Data { start: usize, len: usize },
    /// The body ended after `consumed` bytes.
    Done(usize),
}

/// The chunked coding's decoder (RFC 9112 §7.1); extensions and trailers are read and dropped.
#[derive(Debug)]
pub(crate) struct Chunked {
    state: ChunkState,
}

impl Chunked {
    pub(crate) fn new() -> Self {
        Self {
            state: ChunkState::Size,
        }
    }

    /// True inside a chunk's data (the next step hands data out).
    pub(crate) fn in_data(&self) -> bool {
        matches!(self.state, ChunkState::Data(_))
    }

    /// Decodes from the start of `buf`.
    pub(crate) fn step(&mut self, buf: &[u8]) -> Result<ChunkStep, WireError> {
        match self.state {
            ChunkState::Done => Ok(ChunkStep::Done(0)),
            ChunkState::Size => match httparse::parse_chunk_size(buf) {
                Ok(httparse::Status::Complete((used, 0))) => {
                    self.state = ChunkState::Trailers(0);
                    Ok(ChunkStep::Skip(used))
                }
                Ok(httparse::Status::Complete((used, size))) => {
                    self.state = ChunkState::Data(size);
                    Ok(ChunkStep::Skip(used))
                }
                Ok(httparse::Status::Partial) if buf.len() > 1024 => Err(WireError::BadChunk),
                Ok(httparse::Status::Partial) => Ok(ChunkStep::NeedMore),
                Err(_) => Err(WireError::BadChunk),
            },
            ChunkState::Data(left) => {
                if buf.is_empty() {
                    return Ok(ChunkStep::NeedMore);
                }
                let len = usize::try_from(left).unwrap_or(usize::MAX).min(buf.len());
                let left = left - len as u64;
                self.state = if left == 0 {
                    ChunkState::DataEnd
                } else {
                    ChunkState::Data(left)
                };
                Ok(ChunkStep::Data { start: 0, len })
            }
            ChunkState::DataEnd => match buf {
                [b'\r', b'\n', ..] | [b'\n', ..] => {
                    self.state = ChunkState::Size;
                    Ok(ChunkStep::Skip(if buf[0] == b'\r' { 2 } else { 1 }))
                }
                [] | [b'\r'] => Ok(ChunkStep::NeedMore),
                _ => Err(WireError::BadChunk),
            },
            ChunkState::Trailers(read) => {
                let Some(end) = buf.iter().position(|b| *b == b'\n') else {
                    if read + buf.len() > MAX_TRAILERS {
                        return Err(WireError::TrailersTooLong);
                    }
                    return Ok(ChunkStep::NeedMore);
                };
                let line = &buf[..end];
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                if line.is_empty() {
                    self.state = ChunkState::Done;
                    return Ok(ChunkStep::Done(end + 1));
                }
                if read + end + 1 > MAX_TRAILERS {
                    return Err(WireError::TrailersTooLong);
                }
                self.state = ChunkState::Trailers(read + end + 1);
                Ok(ChunkStep::Skip(end + 1))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Head {
        parse_head(text.as_bytes())
            .expect("parses")
            .expect("complete")
            .0
    }

    #[test]
    fn a_request_is_origin_form_with_host_and_length() {
        let url = url::Url::parse("https://a.test:8443/p/q?x=1#frag").expect("url");
        let headers = [
            (http::header::ACCEPT, HeaderValue::from_static("text/html")),
            (CONTENT_LENGTH, HeaderValue::from_static("99")),
        ];
        let bytes = encode_request(&Method::POST, &url, &headers, b"{}");
        assert_eq!(
            String::from_utf8(bytes).expect("text"),
            "POST /p/q?x=1 HTTP/1.1\r\nhost: a.test:8443\r\naccept: text/html\r\n\
             content-length: 2\r\n\r\n{}"
        );
        let get = encode_request(
            &Method::GET,
            &url::Url::parse("http://[::1]/").expect("url"),
            &[],
            b"",
        );
        assert_eq!(get, b"GET / HTTP/1.1\r\nhost: [::1]\r\n\r\n");
    }

    #[test]
    fn heads_parse_whole_or_ask_for_more() {
        let text = "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\nX-A: 1\r\nx-a: 2\r\n\r\nabc";
        let (parsed, len) = parse_head(text.as_bytes()).expect("ok").expect("complete");
        assert_eq!(parsed.status, StatusCode::NOT_FOUND);
        assert_eq!(parsed.headers.get_all("x-a").iter().count(), 2);
        assert_eq!(&text[len..], "abc");
        assert!(parse_head(&text.as_bytes()[..20]).expect("ok").is_none());
        assert_eq!(
            parse_head(b"SSH-2.0-OpenSSH\r\n\r\n").err(),
            Some(WireError::MalformedHead)
        );
        let many: String = (0..=MAX_HEADERS).map(|i| format!("h{i}: v\r\n")).collect();
        let many = format!("HTTP/1.1 200 OK\r\n{many}\r\n");
        assert_eq!(
            parse_head(many.as_bytes()).err(),
            Some(WireError::TooManyHeaders)
        );
        let long = format!("HTTP/1.1 200 OK\r\nx: {}", "a".repeat(MAX_HEAD));
        assert_eq!(
            parse_head(long.as_bytes()).err(),
            Some(WireError::HeadTooLong)
        );
    }

    #[test]
    fn framing_follows_the_rules_of_rfc_9112() {
        let get = Method::GET;
        let f = |text: &str| framing(&get, &head(text));
        assert_eq!(
            f("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"),
            Ok((Framing::Length(5), true))
        );
        assert_eq!(
            f("HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n"),
            Ok((Framing::Length(5), true))
        );
        assert_eq!(
            f("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"),
            Err(WireError::BadContentLength)
        );
        assert_eq!(
            f("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"),
            Err(WireError::BadContentLength)
        );
        assert_eq!(
            f("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"),
            Ok((Framing::Chunked, true))
        );
        assert_eq!(
            f("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"),
            Ok((Framing::Chunked, false))
        );
        assert_eq!(
            f("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n"),
            Ok((Framing::UntilClose, false))
        );
        assert_eq!(
            f("HTTP/1.1 200 OK\r\n\r\n"),
            Ok((Framing::UntilClose, false))
        );
        assert_eq!(
            f("HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n"),
            Ok((Framing::Empty, true))
        );
        assert_eq!(
            f("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 0\r\n\r\n"),
            Ok((Framing::Length(0), false))
        );
        assert_eq!(
            f("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"),
            Ok((Framing::Length(0), false))
        );
        let head_req = framing(
            &Method::HEAD,
            &head("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"),
        );
        assert_eq!(head_req, Ok((Framing::Empty, true)));
    }

    /// Decodes `wire` fed in pieces of `step` bytes.
    fn decode(wire: &[u8], step: usize) -> Result<(Vec<u8>, usize), WireError> {
        let mut decoder = Chunked::new();
        let mut out = Vec::new();
        let mut buf: Vec<u8> = Vec::new();
        let mut fed = 0;
        loop {
            match decoder.step(&buf)? {
                ChunkStep::NeedMore => {
                    if fed == wire.len() {
                        return Err(WireError::BadChunk);
                    }
                    let next = (fed + step).min(wire.len());
                    buf.extend_from_slice(&wire[fed..next]);
                    fed = next;
                }
                ChunkStep::Skip(n) => {
                    buf.drain(..n);
                }
                ChunkStep::Data { start, len } => {
                    out.extend_from_slice(&buf[start..start + len]);
                    buf.drain(..start + len);
                }
                ChunkStep::Done(n) => {
                    buf.drain(..n);
                    return Ok((out, buf.len() + wire.len() - fed));
                }
            }
        }
    }

    #[test]
    fn the_chunked_coding_decodes_in_any_pieces() {
        let wire =
            b"5;ext=1\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-T: 1\r\n\r\nNEXT";
        for step in [1, 2, 3, 7, 100] {
            let (body, left) = decode(wire, step).expect("decodes");
            assert_eq!(body, b"helloabcdefghijklmnopqrstuvwxyz", "step {step}");
            assert_eq!(left, 4, "what follows the body is left, step {step}");
        }
        assert_eq!(decode(b"zz\r\n", 10).err(), Some(WireError::BadChunk));
        assert_eq!(
            decode(b"3\r\nabcX\r\n", 10).err(),
            Some(WireError::BadChunk)
        );
        let endless_trailers = format!("0\r\n{}", "t: v\r\n".repeat(4000));
        assert_eq!(
            decode(endless_trailers.as_bytes(), 512).err(),
            Some(WireError::TrailersTooLong)
        );
    }
}
