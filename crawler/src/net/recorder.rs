//! One request recorder for discovery, the survey session and the deep probe: the compact log
//! every record keeps (one list of kept headers, one clip length) and, when the transcript is
//! switched on (`mcpcensus check --explain`), every request and answer in full.

use std::time::Duration;

use http::header::{ALLOW, CONTENT_TYPE, LOCATION, RETRY_AFTER, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcpcensus_store::{FailureKind, Header, RequestLog};
use tokio::time::Instant;
use url::Url;

use super::{FetchError, SiteClient};

/// Response headers worth keeping: they explain verdicts (redirects, challenges, sessions,
/// back-off). Every value of each is kept, in this order.
pub const KEPT_HEADERS: [HeaderName; 6] = [
    CONTENT_TYPE,
    LOCATION,
    ALLOW,
    WWW_AUTHENTICATE,
    HeaderName::from_static("mcp-session-id"),
    RETRY_AFTER,
];
/// A kept header value is cut to this many bytes so one odd server cannot bloat a record.
pub const HEADER_VALUE_MAX: usize = 512;
/// Bytes of each answer kept in an [`Exchange`].
pub const EXCERPT_BYTES: usize = 2 * 1024;

/// The requests of one site, as logged; the transcript when it is kept.
#[derive(Debug, Default)]
pub struct Recorder {
    /// One entry per request sent.
    pub requests: Vec<RequestLog>,
    /// Every request and answer in full, only when switched on.
    pub transcript: Option<Vec<Exchange>>,
}

/// One request being recorded: its log entry and, with a transcript, its exchange.
#[derive(Debug)]
pub struct Entry {
    pub log: RequestLog,
    pub exchange: Option<Exchange>,
    started: Instant,
    took: Option<Duration>,
}

impl Recorder {
    /// A recorder that keeps a transcript when `transcript` is set.
    pub fn new(transcript: bool) -> Self {
        Self {
            requests: Vec::new(),
            transcript: transcript.then(Vec::new),
        }
    }

    /// Starts recording a request about to be sent through `client` with `headers` and `body`.
    pub fn start(
        &self,
        client: &SiteClient,
        purpose: &str,
        method: &str,
        url: &Url,
        headers: &[(HeaderName, HeaderValue)],
        body: &str,
    ) -> Entry {
        let exchange = self.transcript.as_ref().map(|_| {
            Exchange::request(
                purpose,
                method,
                url.as_str(),
                &client.outgoing_headers(headers),
                body.to_owned(),
            )
        });
        Entry {
            log: RequestLog {
                method: method.to_owned(),
                url: url.to_string(),
                purpose: purpose.to_owned(),
                ..RequestLog::default()
            },
            exchange,
            started: Instant::now(),
            took: None,
        }
    }

    /// Keeps the entry; its time is what [`Entry::took`] said, or the time since it started.
    pub fn finish(&mut self, mut entry: Entry) {
        let took = entry.took.unwrap_or_else(|| entry.started.elapsed());
        entry.log.ms = u32::try_from(took.as_millis()).unwrap_or(u32::MAX);
        if let (Some(ex), Some(all)) = (entry.exchange, self.transcript.as_mut()) {
            all.push(ex);
        }
        self.requests.push(entry.log);
    }

    /// Adds exchanges made elsewhere to the transcript, when one is kept.
    pub fn extend_transcript(&mut self, exchanges: Vec<Exchange>) {
        if let Some(transcript) = self.transcript.as_mut() {
            transcript.extend(exchanges);
        }
    }
}

impl Entry {
    /// Notes the answer's status and headers.
    pub fn answered(&mut self, status: StatusCode, headers: &HeaderMap) {
        self.log.status = Some(status.as_u16());
        self.log.headers = kept_headers(headers);
        if let Some(ex) = self.exchange.as_mut() {
            ex.answered(status, headers);
        }
    }

    /// Notes `total` bytes of body read, of which the first are `excerpt`.
    pub fn read_body(&mut self, excerpt: &[u8], total: u64) {
        self.excerpt(excerpt);
        self.bytes(total);
    }

    /// Notes the first bytes of the body as read (kept only in a transcript).
    pub fn excerpt(&mut self, excerpt: &[u8]) {
        if let Some(ex) = self.exchange.as_mut() {
            let excerpt = &excerpt[..excerpt.len().min(EXCERPT_BYTES)];
            ex.body_excerpt = String::from_utf8_lossy(excerpt).into_owned();
            ex.body_read = true;
        }
    }

    /// Notes the bytes of body read, whether or not they were looked at.
    pub fn bytes(&mut self, total: u64) {
        self.log.bytes = total;
        if let Some(ex) = self.exchange.as_mut() {
            ex.body_bytes = total;
        }
    }

    /// Notes why there was no answer, or why reading it stopped, in the log and the exchange,
    /// with its typed kind.
    pub fn failed(&mut self, kind: FailureKind, error: String) {
        if let Some(ex) = self.exchange.as_mut() {
            ex.error = Some(error.clone());
        }
        self.log.error = Some(error);
        self.log.error_kind = Some(kind);
    }

    /// Notes something about a complete answer worth knowing when reading it (no failure:
    /// no kind is set, so nothing counts it as one).
    pub fn noted(&mut self, note: &str) {
        if let Some(ex) = self.exchange.as_mut() {
            ex.error = Some(note.to_owned());
        }
        self.log.error = Some(note.to_owned());
    }

    /// [`Entry::failed`] for a fetch's own error: its words and its kind.
    pub fn fetch_failed(&mut self, error: &FetchError) {
        self.failed(error.failure_kind(), error.to_string());
    }

    /// The time to log, when it is not the time since the entry started (a fetch's own).
    pub fn took(&mut self, took: Duration) {
        self.took = Some(took);
    }

    /// True when the request is being kept in a transcript.
    pub fn in_transcript(&self) -> bool {
        self.exchange.is_some()
    }
}

/// The kept headers of an answer, each value cut to [`HEADER_VALUE_MAX`] bytes.
pub fn kept_headers(headers: &HeaderMap) -> Vec<Header> {
    // Sized exactly: most answers keep one header, and a collected `Vec` would start at four
    // (each site in flight holds a dozen of these).
    let count = KEPT_HEADERS
        .iter()
        .map(|name| headers.get_all(name).iter().count())
        .sum();
    let mut kept = Vec::with_capacity(count);
    for name in &KEPT_HEADERS {
        kept.extend(headers.get_all(name).iter().map(|value| Header {
            name: name.to_string(),
            value: clip(&String::from_utf8_lossy(value.as_bytes()), HEADER_VALUE_MAX),
        }));
    }
    kept
}

/// At most `max` bytes of `text`, cut at a character boundary.
pub fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// One request and its answer in full, for `mcpcensus check --explain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// `initialize`, `notifications/initialized` or `tools/list`; for a discovery GET the
    /// document it asked for (`home`, `server_card`, `mcp_path`, …).
    pub purpose: String,
    /// `GET` or `POST`.
    pub method: String,
    /// The URL requested.
    pub url: String,
    /// Headers sent, in order, as the client sends them (`User-Agent` and
    /// `Accept-Encoding: identity` included; the client adds `Host` and `Content-Length`).
    pub headers_sent: Vec<(String, String)>,
    /// The body sent (the JSON-RPC message; empty for a GET).
    pub body_sent: String,
    /// The answer's status; `None` when there was no answer.
    pub status: Option<u16>,
    /// The answer's headers.
    pub headers_received: Vec<(String, String)>,
    /// The first bytes of the answer's body as read (lossy UTF-8), at most [`EXCERPT_BYTES`].
    pub body_excerpt: String,
    /// False when the body was not read (the notification's answer, by the survey's rule; a
    /// `/mcp` GET its status and headers decided).
    pub body_read: bool,
    /// Bytes of the body read.
    pub body_bytes: u64,
    /// Why there was no answer, or why reading it stopped.
    pub error: Option<String>,
}

impl Exchange {
    /// A request as it goes out; its answer is filled in by the other methods.
    pub fn request(
        purpose: &str,
        method: &str,
        url: &str,
        headers_sent: &HeaderMap,
        body_sent: String,
    ) -> Exchange {
        Exchange {
            purpose: purpose.to_owned(),
            method: method.to_owned(),
            url: url.to_owned(),
            headers_sent: header_pairs(headers_sent),
            body_sent,
            status: None,
            headers_received: Vec::new(),
            body_excerpt: String::new(),
            body_read: false,
            body_bytes: 0,
            error: None,
        }
    }

    /// Notes the answer's status and headers.
    pub fn answered(&mut self, status: StatusCode, headers: &HeaderMap) {
        self.status = Some(status.as_u16());
        self.headers_received = header_pairs(headers);
    }

    /// Notes the body as read: `body` (its first [`EXCERPT_BYTES`] are kept) of `total` bytes.
    pub fn read_body(&mut self, body: &[u8], total: u64) {
        let excerpt = &body[..body.len().min(EXCERPT_BYTES)];
        self.body_excerpt = String::from_utf8_lossy(excerpt).into_owned();
        self.body_read = true;
        self.body_bytes = total;
    }
}

/// Every header as a name and a (lossy UTF-8) value, in order.
pub fn header_pairs(headers: &HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            (
                name.to_string(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect()
}
