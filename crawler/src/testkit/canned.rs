//! A scripted answer: status, headers, and a body that is sent whole or streamed in parts.

use std::time::Duration;

use bytes::Bytes;

/// A piece of a scripted body.
#[derive(Debug, Clone)]
pub enum Part {
    Text(String),
    Pause(Duration),
    /// `times` copies of `chunk`, `every` apart: a big or trickling body, made as it is read.
    Repeat {
        chunk: Bytes,
        times: usize,
        every: Duration,
    },
    /// Keep the body open and send nothing more.
    Hold,
}

/// A scripted answer. A body of text parts only goes out whole, with a Content-Length (as SDK
/// servers send them); one with pauses, repeats or a hold is streamed.
#[derive(Debug, Clone)]
pub struct Canned {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<Part>,
    /// Wait before sending the head.
    pub head_delay: Duration,
}

impl Canned {
    pub fn new(status: u16) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: Vec::new(),
            head_delay: Duration::ZERO,
        }
    }

    /// `status` with `Content-Type: application/json` and `body`.
    pub fn json(status: u16, body: impl Into<String>) -> Self {
        Self::new(status)
            .header("content-type", "application/json")
            .text(body)
    }

    /// 200 with `Content-Type: text/event-stream` and `body`.
    pub fn sse(body: impl Into<String>) -> Self {
        Self::new(200)
            .header("content-type", "text/event-stream")
            .text(body)
    }

    /// 202 with no body, as the SDKs answer a notification.
    pub fn accepted() -> Self {
        Self::new(202)
    }

    /// `status` with a `Location` header.
    pub fn redirect(status: u16, location: &str) -> Self {
        Self::new(status).header("location", location)
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.body.push(Part::Text(text.into()));
        self
    }

    pub fn pause(mut self, pause: Duration) -> Self {
        self.body.push(Part::Pause(pause));
        self
    }

    pub fn repeat(mut self, chunk: Bytes, times: usize, every: Duration) -> Self {
        self.body.push(Part::Repeat {
            chunk,
            times,
            every,
        });
        self
    }

    pub fn hold(mut self) -> Self {
        self.body.push(Part::Hold);
        self
    }

    pub fn head_delay(mut self, delay: Duration) -> Self {
        self.head_delay = delay;
        self
    }

    /// The whole body, when it is text only.
    pub(super) fn whole_text(&self) -> Option<String> {
        let mut out = String::new();
        for part in &self.body {
            match part {
                Part::Text(text) => out.push_str(text),
                _ => return None,
            }
        }
        Some(out)
    }
}
