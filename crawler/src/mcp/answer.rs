//! Reading the answer to one request: JSON, an event stream, or neither, up to a byte cap.
//!
//! The survey: "An answer is read as JSON, or as an event stream whose first message with the
//! request's id is the answer, up to 64 KB"; the deep probe reads the same way with its own cap.
//! Reading stops as soon as the answer is complete, so a stream the server keeps open after the
//! answer costs nothing more; nothing beyond the cap is ever held. The requests the server sent
//! on the stream before its answer (`roots/list`, ...) are kept by method.

use bytes::BytesMut;
use http::HeaderMap;
use serde_json::Value;
use tokio::time::Instant;

use super::framing::{sniff, Framing, Sniff};
use super::message::{answer_in, answering_message, server_call, Answer};
use super::sse::{SseEvent, SseParser};
use crate::net::content::{is_html_type, media_type};
use crate::net::json::{parse_json, JsonEnd, JsonEndFinder, JsonError};
use crate::net::{BodyReader, FetchError};

/// What an answer's body held.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A JSON-RPC answer to our request.
    Answer(Answer),
    /// An HTML page.
    Html,
    /// No JSON-RPC answer to our request.
    NoAnswer(NoAnswer),
}

/// Why a body holds no JSON-RPC answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoAnswer {
    /// The body was empty.
    Empty,
    /// Neither JSON nor an event stream.
    NotJson,
    /// JSON, but no JSON-RPC response to our request in it.
    NotAnswer,
    /// An event stream that ended without a message answering our request.
    StreamEnded,
    /// The server sent more than the cap and the part read holds no complete answer.
    OverCap,
    /// JSON nested deeper than the stated limit.
    TooDeep,
}

impl NoAnswer {
    /// Words for a site owner (the cap named is the survey's).
    pub fn describe(self) -> &'static str {
        match self {
            Self::Empty => "an empty body",
            Self::NotJson => "a body that is neither JSON nor an event stream",
            Self::NotAnswer => "JSON that holds no JSON-RPC answer to the request",
            Self::StreamEnded => "an event stream that ended without an answer to the request",
            Self::OverCap => "more than 64 KB, and the first 64 KB hold no complete answer",
            Self::TooDeep => "JSON nested deeper than 64 levels",
        }
    }
}

/// An answer as read.
#[derive(Debug)]
pub struct ReadAnswer {
    /// What the body held.
    pub body: Body,
    /// How the body was framed.
    pub framing: Framing,
    /// The JSON-RPC message answering the request, whole (an error's `data` included).
    pub message: Option<Value>,
    /// Methods of the requests the server sent before its answer.
    pub server_calls: Vec<String>,
    /// The first bytes read, up to the excerpt size asked for.
    pub excerpt: Vec<u8>,
    /// When the answer was over the cap: the JSON text read of it (an event stream's cut
    /// event's data), for what can still be read there (the tool names of a cut list).
    pub cut: Option<Vec<u8>>,
}

/// How long a complete answer's body is given to end, so its connection can be reused.
const DRAIN_WAIT: std::time::Duration = std::time::Duration::from_millis(50);
/// Most bytes read after a complete answer while waiting for the body's end.
const DRAIN_BYTES: usize = 4 * 1024;

/// How the body is being read, once its first bytes have been seen.
enum Mode {
    Undecided,
    Json(JsonEndFinder),
    Sse(SseParser),
}

/// What decided the read.
enum Decided {
    Message(Value),
    Html,
    NoAnswer(NoAnswer),
}

/// The reading state of one answer.
struct Reader {
    id: u64,
    cap: usize,
    labelled_sse: bool,
    labelled_html: bool,
    /// Raw bytes, kept only while the mode is undecided or the body is JSON (never past `cap`).
    raw: BytesMut,
    mode: Mode,
    calls: Vec<String>,
}

/// Reads the answer to request `id` from `body` (whose cap is `cap`) until it is complete, the
/// body ends, or the cap is reached. Errors are the body's own: the deadline passed (`Timeout`)
/// or the connection broke before the answer was complete.
pub async fn read_answer(
    body: &mut BodyReader,
    headers: &HeaderMap,
    id: u64,
    cap: usize,
    excerpt_cap: usize,
    deadline: Instant,
) -> Result<ReadAnswer, FetchError> {
    if body.deadline() > deadline {
        body.set_deadline(deadline);
    }
    let media = media_type(headers).unwrap_or_default();
    let mut reader = Reader {
        id,
        cap,
        labelled_sse: media == "text/event-stream",
        labelled_html: is_html_type(&media),
        raw: BytesMut::new(),
        mode: Mode::Undecided,
        calls: Vec::new(),
    };
    let mut excerpt = Vec::new();
    while let Some(chunk) = body.chunk().await? {
        keep_excerpt(&mut excerpt, &chunk, excerpt_cap);
        if let Some(decided) = reader.feed(&chunk) {
            finish_early(body).await;
            return Ok(reader.into_answer(decided, excerpt));
        }
    }
    // The body ended (or reached the cap) before anything decided.
    let decided = reader.end(body.truncated());
    Ok(reader.into_answer(decided, excerpt))
}

impl Reader {
    fn feed(&mut self, chunk: &[u8]) -> Option<Decided> {
        match &mut self.mode {
            Mode::Undecided => {
                self.raw.extend_from_slice(chunk);
                match sniff(&self.raw, self.labelled_sse, self.labelled_html, false) {
                    Sniff::Wait => None,
                    Sniff::Json => {
                        let mut finder = JsonEndFinder::new();
                        let decided = try_json(&mut finder, &self.raw, self.id);
                        self.mode = Mode::Json(finder);
                        decided
                    }
                    Sniff::Sse => {
                        let mut parser = SseParser::new(self.cap);
                        let events = parser.feed(&self.raw);
                        self.raw = BytesMut::new();
                        self.mode = Mode::Sse(parser);
                        in_events(events, self.id, &mut self.calls)
                    }
                    Sniff::Html => Some(Decided::Html),
                    Sniff::Other => Some(Decided::NoAnswer(NoAnswer::NotJson)),
                }
            }
            Mode::Json(finder) => {
                self.raw.extend_from_slice(chunk);
                try_json(finder, &self.raw, self.id)
            }
            Mode::Sse(parser) => in_events(parser.feed(chunk), self.id, &mut self.calls),
        }
    }

    fn end(&mut self, over_cap: bool) -> Decided {
        match &mut self.mode {
            Mode::Undecided => {
                match sniff(&self.raw, self.labelled_sse, self.labelled_html, true) {
                    _ if over_cap => Decided::NoAnswer(NoAnswer::OverCap),
                    Sniff::Html => Decided::Html,
                    Sniff::Wait if self.raw.iter().all(u8::is_ascii_whitespace) => {
                        Decided::NoAnswer(NoAnswer::Empty)
                    }
                    _ => Decided::NoAnswer(NoAnswer::NotJson),
                }
            }
            Mode::Json(_) if over_cap => Decided::NoAnswer(NoAnswer::OverCap),
            // A complete value decided as it arrived: what is left never completed.
            Mode::Json(_) => Decided::NoAnswer(NoAnswer::NotJson),
            Mode::Sse(_) if over_cap => Decided::NoAnswer(NoAnswer::OverCap),
            Mode::Sse(parser) => {
                let last = parser.finish().into_iter().collect();
                in_events(last, self.id, &mut self.calls)
                    .unwrap_or(Decided::NoAnswer(NoAnswer::StreamEnded))
            }
        }
    }

    fn into_answer(self, decided: Decided, excerpt: Vec<u8>) -> ReadAnswer {
        let framing = match (&self.mode, &decided) {
            (Mode::Json(_), _) => Framing::Json,
            (Mode::Sse(_), _) => Framing::EventStream,
            (Mode::Undecided, Decided::Html) => Framing::Html,
            (Mode::Undecided, Decided::NoAnswer(NoAnswer::Empty)) => Framing::Empty,
            (Mode::Undecided, _) => Framing::Other,
        };
        let cut =
            matches!(decided, Decided::NoAnswer(NoAnswer::OverCap)).then(|| match &self.mode {
                Mode::Sse(parser) => parser.pending(),
                _ => self.raw.to_vec(),
            });
        let (body, message) = match decided {
            Decided::Message(message) => match answer_in(&message, self.id) {
                Some(answer) => (Body::Answer(answer), Some(message)),
                None => (Body::NoAnswer(NoAnswer::NotAnswer), None),
            },
            Decided::Html => (Body::Html, None),
            Decided::NoAnswer(why) => (Body::NoAnswer(why), None),
        };
        ReadAnswer {
            body,
            framing,
            message,
            server_calls: self.calls,
            excerpt,
            cut,
        }
    }
}

fn keep_excerpt(excerpt: &mut Vec<u8>, chunk: &[u8], cap: usize) {
    if excerpt.len() < cap {
        let take = chunk.len().min(cap - excerpt.len());
        excerpt.extend_from_slice(&chunk[..take]);
    }
}

/// Once the answer is complete: waits a moment for the body's end, which usually follows at
/// once (a JSON body's last bytes, the SDKs closing the stream after the response), so the
/// connection goes back to the site's pool; a body that goes on is dropped instead.
async fn finish_early(body: &mut BodyReader) {
    let mut budget = DRAIN_BYTES;
    let until = Instant::now() + DRAIN_WAIT;
    while let Ok(Ok(Some(chunk))) = tokio::time::timeout_at(until, body.chunk()).await {
        budget = budget.saturating_sub(chunk.len());
        if budget == 0 {
            break;
        }
    }
    body.abort();
}

/// Reads up to `cap` bytes for an excerpt, giving up quietly at `deadline` or on any error
/// (used only for transcripts, on answers whose status alone decided the verdict).
pub async fn read_excerpt(body: &mut BodyReader, cap: usize, deadline: Instant) -> Vec<u8> {
    if body.deadline() > deadline {
        body.set_deadline(deadline);
    }
    let mut excerpt = Vec::new();
    while excerpt.len() < cap {
        match body.chunk().await {
            Ok(Some(chunk)) => keep_excerpt(&mut excerpt, &chunk, cap),
            Ok(None) | Err(_) => break,
        }
    }
    body.abort();
    excerpt
}

/// The answer in a JSON body, once the bytes so far hold one complete value (found as the
/// bytes arrive, so the value is parsed once); trailing bytes already read must be white space.
fn try_json(finder: &mut JsonEndFinder, raw: &[u8], id: u64) -> Option<Decided> {
    let why = match finder.feed(raw) {
        JsonEnd::Incomplete => return None,
        JsonEnd::TooDeep => NoAnswer::TooDeep,
        JsonEnd::Invalid => NoAnswer::NotJson,
        JsonEnd::Complete(end) if !raw[end..].iter().all(u8::is_ascii_whitespace) => {
            NoAnswer::NotJson
        }
        JsonEnd::Complete(end) => match parse_json(&raw[..end]) {
            Ok(value) => {
                return Some(match answering_message(value, id) {
                    Some(message) => Decided::Message(message),
                    None => Decided::NoAnswer(NoAnswer::NotAnswer),
                })
            }
            Err(JsonError::TooDeep) => NoAnswer::TooDeep,
            Err(JsonError::Invalid(_)) => NoAnswer::NotJson,
        },
    };
    Some(Decided::NoAnswer(why))
}

fn in_events(events: Vec<SseEvent>, id: u64, calls: &mut Vec<String>) -> Option<Decided> {
    events
        .iter()
        .find_map(|event| answer_event(event, id, calls))
        .map(Decided::Message)
}

/// The message answering `id` in one event, whole; a request the server sent instead is noted
/// in `calls`. Events other than `message` and data that is not JSON are skipped.
pub fn answer_event(event: &SseEvent, id: u64, calls: &mut Vec<String>) -> Option<Value> {
    if !event.is_message() {
        return None;
    }
    let value = parse_json(event.data.as_bytes()).ok()?;
    if let Some(method) = server_call(&value) {
        calls.push(method);
        return None;
    }
    answering_message(value, id)
}
