//! An open event stream read event by event (the legacy HTTP+SSE transport's GET).

use serde_json::Value;
use tokio::time::Instant;

use super::answer::answer_event;
use super::sse::{SseEvent, SseParser};
use crate::net::BodyReader;

/// An open event stream.
#[derive(Debug)]
pub struct EventStream {
    body: BodyReader,
    parser: SseParser,
    pending: std::collections::VecDeque<SseEvent>,
}

impl EventStream {
    /// Reads `body` as an event stream holding at most `cap` bytes of one line or event.
    pub fn new(body: BodyReader, cap: usize) -> Self {
        Self {
            body,
            parser: SseParser::new(cap),
            pending: std::collections::VecDeque::new(),
        }
    }

    /// The next event, waiting at most until `deadline`.
    pub async fn next_event(&mut self, deadline: Instant) -> Option<SseEvent> {
        if self.body.deadline() > deadline {
            self.body.set_deadline(deadline);
        }
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Some(event);
            }
            match tokio::time::timeout_at(deadline, self.body.chunk()).await {
                Ok(Ok(Some(chunk))) => self.pending.extend(self.parser.feed(&chunk)),
                _ => return self.parser.finish(),
            }
        }
    }

    /// The JSON-RPC message answering `id` on the stream, and the server's requests before it.
    pub async fn answer(&mut self, id: u64, deadline: Instant) -> (Option<Value>, Vec<String>) {
        let mut calls = Vec::new();
        while let Some(event) = self.next_event(deadline).await {
            if let Some(message) = answer_event(&event, id, &mut calls) {
                return (Some(message), calls);
            }
        }
        (None, calls)
    }

    /// Drops the stream and its connection.
    pub fn close(mut self) {
        self.body.abort();
    }
}
