//! An incremental `text/event-stream` parser (WHATWG HTML "Server-sent events", §9.2.6).
//!
//! Written here rather than taken from a crate because the session needs two things the common
//! crates do not give together: a hard bound on what is buffered (a line or an event's data can
//! never grow past the answer cap) and plain byte-slice input, so the caller can stop reading the
//! moment the answer arrives and drop the stream.

/// One dispatched event. Events with empty data (the "priming" events servers send first) are
/// never dispatched, as the standard says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field, `message` when none was given.
    pub event: String,
    /// The `data` lines joined with `\n`.
    pub data: String,
    /// The last event id seen so far on the stream (`id` persists across events).
    pub id: Option<String>,
}

impl SseEvent {
    /// True for the events a JSON-RPC answer travels in (`event: message` or no `event`).
    pub fn is_message(&self) -> bool {
        self.event == "message"
    }
}

/// The parser's state between chunks.
#[derive(Debug)]
pub struct SseParser {
    /// The line being read (without its end).
    line: Vec<u8>,
    /// The event being built.
    data: Vec<u8>,
    event: Option<String>,
    last_id: Option<String>,
    retry_ms: Option<u64>,
    /// The previous chunk ended in CR: an LF starting this one belongs to the same line end.
    after_cr: bool,
    /// Still at the very start of the stream (a UTF-8 BOM is skipped there).
    at_start: bool,
    /// Most bytes held in `line` and `data` together.
    limit: usize,
    overflowed: bool,
}

impl SseParser {
    /// A parser that never holds more than `limit` bytes of line and event data.
    pub fn new(limit: usize) -> Self {
        Self {
            line: Vec::new(),
            data: Vec::new(),
            event: None,
            last_id: None,
            retry_ms: None,
            after_cr: false,
            at_start: true,
            limit,
            overflowed: false,
        }
    }

    /// Parses the next piece of the stream; returns the events it completed, in order.
    pub fn feed(&mut self, mut chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        if self.overflowed {
            return events;
        }
        // An empty chunk between "\r" and "\n" must not end the wait for the "\n".
        if self.after_cr && !chunk.is_empty() {
            self.after_cr = false;
            if let Some(rest) = chunk.strip_prefix(b"\n") {
                chunk = rest;
            }
        }
        while !chunk.is_empty() {
            match chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
                None => {
                    self.push_line(chunk);
                    break;
                }
                Some(end) => {
                    self.push_line(&chunk[..end]);
                    let cr = chunk[end] == b'\r';
                    chunk = &chunk[end + 1..];
                    if cr {
                        match chunk.first() {
                            Some(b'\n') => chunk = &chunk[1..],
                            Some(_) => {}
                            None => self.after_cr = true,
                        }
                    }
                    if let Some(event) = self.end_line() {
                        events.push(event);
                    }
                }
            }
            if self.overflowed {
                break;
            }
        }
        events
    }

    /// At the clean end of the stream: the event still being built, if it has data.
    ///
    /// The standard drops an event the stream ends inside; we keep it when the body ended
    /// cleanly (not cut at the cap), since the server did send the whole message and the
    /// survey only asks that the answer be "read as an event stream".
    pub fn finish(&mut self) -> Option<SseEvent> {
        if self.overflowed {
            return None;
        }
        if !self.line.is_empty() {
            if let Some(event) = self.end_line() {
                return Some(event);
            }
        }
        self.dispatch()
    }

    /// The last `retry` value seen, in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry_ms
    }

    /// True once a line or an event outgrew the limit; the parser then yields nothing more.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    fn push_line(&mut self, bytes: &[u8]) {
        if self.line.len() + self.data.len() + bytes.len() > self.limit {
            self.overflow();
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    fn overflow(&mut self) {
        self.overflowed = true;
        self.line = Vec::new();
        self.data = Vec::new();
    }

    /// The data of the event being read when the stream was cut: its complete `data:` lines
    /// and the one cut short (what a reader of a capped answer can still look into).
    pub fn pending(&self) -> Vec<u8> {
        let mut out = self.data.clone();
        if let Some(value) = self.line.strip_prefix(b"data:") {
            out.extend_from_slice(value.strip_prefix(b" ").unwrap_or(value));
        }
        out
    }

    /// Handles the complete line in `self.line`; a blank line dispatches the event.
    fn end_line(&mut self) -> Option<SseEvent> {
        if self.overflowed {
            return None;
        }
        let mut line = std::mem::take(&mut self.line);
        if self.at_start {
            self.at_start = false;
            if line.starts_with(b"\xEF\xBB\xBF") {
                line.drain(..3);
            }
        }
        if line.is_empty() {
            return self.dispatch();
        }
        if line[0] == b':' {
            return None; // a comment
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (&line[..], &b""[..]),
        };
        match field {
            b"event" => self.event = Some(String::from_utf8_lossy(value).into_owned()),
            b"data" => {
                if self.data.len() + value.len() + 1 > self.limit {
                    self.overflow();
                    return None;
                }
                self.data.extend_from_slice(value);
                self.data.push(b'\n');
            }
            b"id" if !value.contains(&0) => {
                self.last_id = Some(String::from_utf8_lossy(value).into_owned());
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                self.retry_ms = std::str::from_utf8(value).ok().and_then(|v| v.parse().ok());
            }
            _ => {} // unknown fields are ignored
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = self.event.take();
        let mut data = std::mem::take(&mut self.data);
        data.pop(); // the last data line's "\n"
        if data.is_empty() {
            // Empty data: a priming event (`id: 0` + `data: `), or a lone `event:`/`id:` block.
            // The standard would still fire a message with empty data; it can never be an answer.
            return None;
        }
        Some(SseEvent {
            event: event
                .filter(|e| !e.is_empty())
                .unwrap_or_else(|| "message".to_owned()),
            data: String::from_utf8_lossy(&data).into_owned(),
            id: self.last_id.clone(),
        })
    }
}
