//! Reading a response body under a byte cap and a deadline, chunk by chunk.

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::{Body, Incoming};
use tokio::time::Instant;

use super::fetch_error::{FetchError, TimeoutPhase};
use super::reuse::InFlight;

/// Unused room a read body may keep before it is trimmed to its length.
const SLACK: usize = 1024;

/// A response body being read. Never yields more than the cap in total; once the cap is reached
/// or the deadline passes the underlying stream is dropped, which closes an HTTP/1.1 connection
/// (hyper does not reuse one with unread body) or resets an HTTP/2 stream.
#[derive(Debug)]
pub struct BodyReader {
    body: Option<Incoming>,
    cap: usize,
    read: usize,
    truncated: bool,
    deadline: Instant,
    url: String,
    /// The request counts as in flight until its body ends (`reuse.rs`).
    in_flight: Option<InFlight>,
}

impl BodyReader {
    pub(crate) fn new(
        body: Incoming,
        cap: usize,
        deadline: Instant,
        url: String,
        in_flight: InFlight,
    ) -> Self {
        Self {
            body: Some(body),
            cap,
            read: 0,
            truncated: false,
            deadline,
            url,
            in_flight: Some(in_flight),
        }
    }

    /// The body is done with: read to its end, capped, or timed out.
    fn end(&mut self) {
        self.body = None;
        self.in_flight = None;
    }

    /// The next piece of body, `None` at the end of the body or once the cap is reached.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, FetchError> {
        loop {
            let Some(body) = self.body.as_mut() else {
                return Ok(None);
            };
            // `timeout_at` polls the body first, so frames that are always ready (buffered
            // HTTP/2 data, a fast trickle) would never let it fire: check the clock here too.
            let frame = if Instant::now() < self.deadline {
                tokio::time::timeout_at(self.deadline, body.frame())
                    .await
                    .ok()
            } else {
                None
            };
            let frame = match frame {
                None => {
                    self.end();
                    return Err(FetchError::Timeout {
                        url: self.url.clone(),
                        phase: TimeoutPhase::Body,
                    });
                }
                Some(None) => {
                    self.end();
                    return Ok(None);
                }
                Some(Some(Err(err))) => {
                    self.end();
                    return Err(body_error(&self.url, &err));
                }
                Some(Some(Ok(frame))) => frame,
            };
            let Ok(mut data) = frame.into_data() else {
                continue; // trailers
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
    /// The bytes are a buffer of their own, never a slice of hyper's read buffer: a kept slice
    /// (the homepage lives as long as the scan) pins that whole buffer (8–32 KiB) and makes the
    /// connection allocate another for the next answer. Sized from `Content-Length` when the
    /// server sent one (up to the cap), and trimmed when growth left much room unused.
    pub async fn read_to_end(&mut self) -> Result<(Bytes, bool), FetchError> {
        let room = self.cap.saturating_sub(self.read) as u64;
        let expected = self
            .body
            .as_ref()
            .and_then(|body| body.size_hint().exact())
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

fn body_error(url: &str, err: &hyper::Error) -> FetchError {
    let detail = err.to_string();
    if err.is_parse() || err.is_user() {
        FetchError::Protocol {
            url: url.to_owned(),
            detail,
        }
    } else {
        FetchError::Reset {
            url: url.to_owned(),
            detail,
        }
    }
}
