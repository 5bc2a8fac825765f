//! Reading a response body under a byte cap and a deadline, chunk by chunk.

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::{Body, Incoming};
use tokio::time::Instant;

use super::conn::{ExchangeError, H1Body};
use super::fetch_error::{FetchError, TimeoutPhase};

/// Unused room a read body may keep before it is trimmed to its length.
const SLACK: usize = 1024;

/// The stream a body comes from.
#[derive(Debug)]
pub(crate) enum Source {
    /// An HTTP/1.1 answer on the site's own connection (`conn.rs`).
    H1(H1Body),
    /// An HTTP/2 stream (hyper).
    H2(Incoming),
}

/// A response body being read. Never yields more than the cap in total; once the cap is reached
/// or the deadline passes the underlying stream is dropped, which closes an HTTP/1.1 connection
/// (one with unread body is never reused) or resets an HTTP/2 stream.
#[derive(Debug)]
pub struct BodyReader {
    body: Option<Source>,
    cap: usize,
    read: usize,
    truncated: bool,
    /// The body ended at a TLS close without close_notify (see [`BodyReader::closed_without_notify`]).
    unclean_end: bool,
    deadline: Instant,
    url: String,
}

impl BodyReader {
    pub(crate) fn new(body: Source, cap: usize, deadline: Instant, url: String) -> Self {
        Self {
            body: Some(body),
            cap,
            read: 0,
            truncated: false,
            unclean_end: false,
            deadline,
            url,
        }
    }

    /// The body is done with: read to its end, capped, or timed out.
    fn end(&mut self) {
        self.body = None;
    }

    /// The next piece of body, `None` at the end of the body or once the cap is reached.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, FetchError> {
        loop {
            let Some(body) = self.body.as_mut() else {
                return Ok(None);
            };
            // `timeout_at` polls the body first, so frames that are always ready (buffered
            // HTTP/2 data, a fast trickle) would never let it fire: check the clock here too.
            let next = if Instant::now() < self.deadline {
                tokio::time::timeout_at(self.deadline, next_data(body))
                    .await
                    .ok()
            } else {
                None
            };
            let mut data = match next {
                None => {
                    self.end();
                    return Err(FetchError::Timeout {
                        url: self.url.clone(),
                        phase: TimeoutPhase::Body,
                    });
                }
                Some(Ok(None)) => {
                    if let Source::H1(h1) = body {
                        self.unclean_end = h1.closed_without_notify();
                    }
                    self.end();
                    return Ok(None);
                }
                Some(Err(err)) => {
                    self.end();
                    return Err(err.into_fetch_error(&self.url));
                }
                Some(Ok(Some(data))) => data,
            };
            if data.is_empty() {
                continue;
            }
            let room = self.cap - self.read;
            if data.len() > room {
                self.truncated = true;
                self.end();
                if room == 0 {
                    return Ok(None);
                }
                data.truncate(room);
            }
            self.read += data.len();
            return Ok(Some(data));
        }
    }

    /// Reads the rest of the body: the bytes (at most the cap, counting chunks already taken)
    /// and whether the server had more.
    ///
    /// The bytes are a buffer of their own, never a slice of a read buffer: a kept slice (the
    /// homepage lives as long as the scan) would pin that whole buffer. Sized from
    /// `Content-Length` when the server sent one (up to the cap), and trimmed when growth left
    /// much room unused.
    pub async fn read_to_end(&mut self) -> Result<(Bytes, bool), FetchError> {
        let room = self.cap.saturating_sub(self.read) as u64;
        let expected = self
            .body
            .as_ref()
            .and_then(|body| match body {
                Source::H1(h1) => h1.exact_len(),
                Source::H2(h2) => h2.size_hint().exact(),
            })
            .map_or(0, |n| n.min(room) as usize);
        let mut buf = Vec::with_capacity(expected);
        while let Some(chunk) = self.chunk().await? {
            buf.extend_from_slice(&chunk);
        }
        if buf.capacity() - buf.len() > SLACK {
            buf.shrink_to_fit();
        }
        Ok((Bytes::from(buf), self.truncated))
    }

    /// True once the server sent more than the cap.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// True when the body ended where the server closed a TLS connection without its
    /// close_notify: read as the end, as browsers do, though it may have been cut short.
    pub fn closed_without_notify(&self) -> bool {
        self.unclean_end
    }

    /// Body bytes handed out so far.
    pub fn bytes_read(&self) -> usize {
        self.read
    }

    /// The deadline for the rest of the body.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Moves the deadline (e.g. a session allows less than the request's whole timeout).
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = deadline;
    }

    /// Stops reading and drops the stream now.
    pub fn abort(&mut self) {
        self.end();
    }
}

/// Why a body stopped before its end.
enum BodyError {
    H1(ExchangeError),
    H2(hyper::Error),
}

impl BodyError {
    fn into_fetch_error(self, url: &str) -> FetchError {
        let url = url.to_owned();
        match self {
            Self::H1(ExchangeError::Wire(wire)) => FetchError::Protocol {
                url,
                detail: wire.to_string(),
            },
            Self::H1(other) => FetchError::Reset {
                url,
                detail: other.to_string(),
            },
            Self::H2(err) if err.is_parse() || err.is_user() => FetchError::Protocol {
                url,
                detail: err.to_string(),
            },
            Self::H2(err) => FetchError::Reset {
                url,
                detail: err.to_string(),
            },
        }
    }
}

/// The next data of the body (HTTP/2 trailers are passed over); `None` at its end.
async fn next_data(body: &mut Source) -> Result<Option<Bytes>, BodyError> {
    match body {
        Source::H1(h1) => h1.chunk().await.map_err(BodyError::H1),
        Source::H2(h2) => loop {
            match h2.frame().await {
                None => return Ok(None),
                Some(Err(err)) => return Err(BodyError::H2(err)),
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        return Ok(Some(data));
                    }
                }
            }
        },
    }
}
