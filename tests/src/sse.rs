//! Server-sent events as a [`crate::Reply::sse`] sends them.

use std::time::Duration;

use bytes::Bytes;
use serde_json::Value;

/// One event of an event stream, sent after its own delay.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    event: Option<String>,
    id: Option<String>,
    retry_ms: Option<u64>,
    data: Option<String>,
    comment: Option<String>,
    raw: Option<String>,
    delay: Duration,
}

impl SseEvent {
    /// An event with `data` (split into one `data:` line per line) and no name.
    pub fn data(data: impl Into<String>) -> Self {
        Self {
            data: Some(data.into()),
            ..Self::default()
        }
    }

    /// `event: message` with a JSON value as one-line data: how MCP servers send JSON-RPC.
    pub fn message(value: &Value) -> Self {
        Self::data(value.to_string()).event("message")
    }

    /// The legacy (2024-11-05) transport's first event: `event: endpoint`, data the POST URI.
    pub fn endpoint(uri: impl Into<String>) -> Self {
        Self::data(uri).event("endpoint")
    }

    /// A priming event: an id and empty data.
    pub fn priming(id: impl Into<String>) -> Self {
        Self::data("").id(id)
    }

    /// A comment line (`: text`), which parsers must skip.
    pub fn comment(text: impl Into<String>) -> Self {
        Self {
            comment: Some(text.into()),
            ..Self::default()
        }
    }

    /// Bytes sent exactly as given (for malformed streams).
    pub fn raw(text: impl Into<String>) -> Self {
        Self {
            raw: Some(text.into()),
            ..Self::default()
        }
    }

    /// Sets the event name.
    pub fn event(mut self, name: impl Into<String>) -> Self {
        self.event = Some(name.into());
        self
    }

    /// Sets the event id.
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Sets the `retry:` field.
    pub fn retry(mut self, ms: u64) -> Self {
        self.retry_ms = Some(ms);
        self
    }

    /// Waits this long before sending the event.
    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// The wait before this event.
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// The event in wire form.
    pub fn encode(&self) -> Bytes {
        if let Some(raw) = &self.raw {
            return Bytes::from(raw.clone());
        }
        let mut out = String::new();
        if let Some(comment) = &self.comment {
            for line in comment.split('\n') {
                out.push_str(": ");
                out.push_str(line);
                out.push('\n');
            }
        }
        if let Some(event) = &self.event {
            out.push_str("event: ");
            out.push_str(event);
            out.push('\n');
        }
        if let Some(id) = &self.id {
            out.push_str("id: ");
            out.push_str(id);
            out.push('\n');
        }
        if let Some(retry) = self.retry_ms {
            out.push_str(&format!("retry: {retry}\n"));
        }
        if let Some(data) = &self.data {
            for line in data.split('\n') {
                out.push_str("data: ");
                out.push_str(line);
                out.push('\n');
            }
        }
        out.push('\n');
        Bytes::from(out)
    }
}
