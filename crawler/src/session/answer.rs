//! Reading the answer to one request: JSON, an event stream, or neither, up to the 64 KB cap.
//!
//! Seed 000: "An answer is read as JSON, or as an event stream whose first message with the
//! request's id is the answer, up to 64 KB." The body decides how it is read, the Content-Type
//! only breaks ties: a JSON body counts whatever its label (the seed names no Content-Type), an
//! event stream is read as one when labelled `text/event-stream` or when it plainly starts with
//! an SSE field. Reading stops as soon as the answer is complete, so a stream the server keeps
//! open after the answer costs nothing more; nothing beyond the cap is ever held.

use bytes::BytesMut;
use http::header::CONTENT_TYPE;
use http::HeaderMap;
use serde_json::Value;
use tokio::time::Instant;

use super::jsonrpc::{answer_in_body, Answer};
use super::sse::{SseEvent, SseParser};
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
}

impl NoAnswer {
    /// Words for a site owner.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Empty => "an empty body",
            Self::NotJson => "a body that is neither JSON nor an event stream",
            Self::NotAnswer => "JSON that holds no JSON-RPC answer to the request",
            Self::StreamEnded => "an event stream that ended without an answer to the request",
            Self::OverCap => "more than 64 KB, and the first 64 KB hold no complete answer",
        }
    }
}

/// An answer as read.
#[derive(Debug)]
pub struct ReadAnswer {
    /// What the body held.
    pub body: Body,
    /// The first bytes read, up to the excerpt size asked for.
    pub excerpt: Vec<u8>,
}

/// How long a complete answer's body is given to end, so its connection can be reused.
const DRAIN_WAIT: std::time::Duration = std::time::Duration::from_millis(50);
/// Most bytes read after a complete answer while waiting for the body's end.
const DRAIN_BYTES: usize = 4 * 1024;
/// Bytes looked at before a body starting with `<` is judged HTML or not.
const SNIFF_BYTES: usize = 64;

/// How the body is being read, once its first bytes have been seen.
enum Mode {
    Undecided,
    Json,
    Sse(SseParser),
}

/// Reads the answer to request `id` from `body` (whose cap is the answer cap) until it is
/// complete, the body ends, or the cap is reached. Errors are the body's own: the deadline
/// passed (`Timeout`) or the connection broke before the answer was complete.
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
    let media = media_type(headers);
    let labelled_html = matches!(media.as_str(), "text/html" | "application/xhtml+xml");
    let labelled_sse = media == "text/event-stream";
    let mut excerpt = Vec::new();
    // Raw bytes, kept only while the mode is undecided or the body is JSON (never past `cap`).
    let mut raw = BytesMut::new();
    let mut mode = Mode::Undecided;

    let decided = loop {
        let chunk = body.chunk().await?;
        let Some(chunk) = chunk else {
            break None;
        };
        if excerpt.len() < excerpt_cap {
            let take = chunk.len().min(excerpt_cap - excerpt.len());
            excerpt.extend_from_slice(&chunk[..take]);
        }
        match &mut mode {
            Mode::Undecided => {
                raw.extend_from_slice(&chunk);
                match sniff(&raw, labelled_sse, labelled_html, false) {
                    Sniff::Wait => continue,
                    Sniff::Json => {
                        mode = Mode::Json;
                        if let Some(found) = try_json(&raw, id) {
                            break Some(found);
                        }
                    }
                    Sniff::Sse => {
                        let mut parser = SseParser::new(cap);
                        let events = parser.feed(&raw);
                        raw = BytesMut::new();
                        if let Some(found) = first_answer(events, id) {
                            break Some(found);
                        }
                        mode = Mode::Sse(parser);
                    }
                    Sniff::Html => break Some(Body::Html),
                    Sniff::Other => break Some(Body::NoAnswer(NoAnswer::NotJson)),
                }
            }
            Mode::Json => {
                raw.extend_from_slice(&chunk);
                if let Some(found) = try_json(&raw, id) {
                    break Some(found);
                }
            }
            Mode::Sse(parser) => {
                let events = parser.feed(&chunk);
                if let Some(found) = first_answer(events, id) {
                    break Some(found);
                }
            }
        }
    };
    if let Some(body_kind) = decided {
        finish_early(body).await;
        return Ok(ReadAnswer {
            body: body_kind,
            excerpt,
        });
    }

    // The body ended (or reached the cap) before anything decided.
    let over_cap = body.truncated();
    let body_kind = match mode {
        Mode::Undecided => match sniff(&raw, labelled_sse, labelled_html, true) {
            _ if over_cap => Body::NoAnswer(NoAnswer::OverCap),
            Sniff::Html => Body::Html,
            Sniff::Wait if raw.iter().all(u8::is_ascii_whitespace) => {
                Body::NoAnswer(NoAnswer::Empty)
            }
            _ => Body::NoAnswer(NoAnswer::NotJson),
        },
        Mode::Json if over_cap => Body::NoAnswer(NoAnswer::OverCap),
        Mode::Json => match serde_json::from_slice::<Value>(strip_bom(&raw)) {
            Ok(_) => Body::NoAnswer(NoAnswer::NotAnswer),
            Err(_) => Body::NoAnswer(NoAnswer::NotJson),
        },
        Mode::Sse(_) if over_cap => Body::NoAnswer(NoAnswer::OverCap),
        Mode::Sse(mut parser) => {
            let last = parser.finish().into_iter().collect();
            first_answer(last, id).unwrap_or(Body::NoAnswer(NoAnswer::StreamEnded))
        }
    };
    Ok(ReadAnswer {
        body: body_kind,
        excerpt,
    })
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
/// (used only for `--explain`, on answers whose status alone decided the verdict).
pub async fn read_excerpt(body: &mut BodyReader, cap: usize, deadline: Instant) -> Vec<u8> {
    if body.deadline() > deadline {
        body.set_deadline(deadline);
    }
    let mut excerpt = Vec::new();
    while excerpt.len() < cap {
        match body.chunk().await {
            Ok(Some(chunk)) => {
                let take = chunk.len().min(cap - excerpt.len());
                excerpt.extend_from_slice(&chunk[..take]);
            }
            Ok(None) | Err(_) => break,
        }
    }
    body.abort();
    excerpt
}

/// The media type of `Content-Type`, lowercased, without parameters.
pub fn media_type(headers: &HeaderMap) -> String {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sniff {
    /// Not enough bytes yet.
    Wait,
    Json,
    Sse,
    Html,
    Other,
}

/// Decides how to read a body from its first significant bytes.
fn sniff(raw: &[u8], labelled_sse: bool, labelled_html: bool, at_end: bool) -> Sniff {
    let start = strip_bom(raw);
    let significant = start.trim_ascii_start();
    let Some(&first) = significant.first() else {
        return Sniff::Wait;
    };
    match first {
        b'{' | b'[' => Sniff::Json,
        _ if labelled_sse => Sniff::Sse,
        b'<' => {
            if looks_like_html(significant) || labelled_html {
                Sniff::Html
            } else if significant.len() < SNIFF_BYTES && !at_end {
                Sniff::Wait
            } else {
                Sniff::Other
            }
        }
        _ if starts_like_sse(start) => Sniff::Sse,
        _ if labelled_html => Sniff::Html,
        // An SSE field name may still be arriving ("dat" of "data:").
        _ if start.len() < 8 && !at_end => Sniff::Wait,
        _ => Sniff::Other,
    }
}

/// An event stream's first line: a comment or one of the standard fields.
fn starts_like_sse(start: &[u8]) -> bool {
    [&b":"[..], b"data:", b"event:", b"id:", b"retry:"]
        .iter()
        .any(|field| start.starts_with(field))
}

/// The usual openings of an HTML document (after leading whitespace).
fn looks_like_html(significant: &[u8]) -> bool {
    const OPENINGS: [&[u8]; 6] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<body",
        b"<title",
        b"<meta",
    ];
    OPENINGS.iter().any(|opening| {
        significant.len() >= opening.len()
            && significant[..opening.len()].eq_ignore_ascii_case(opening)
    })
}

fn strip_bom(raw: &[u8]) -> &[u8] {
    raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw)
}

/// The answer in a JSON body, once the bytes so far parse as one complete value.
fn try_json(raw: &[u8], id: u64) -> Option<Body> {
    // Only a body ending in a closing bracket can be a complete value: skip hopeless parses.
    let last = raw.trim_ascii_end().last()?;
    if !matches!(last, b'}' | b']') {
        return None;
    }
    let value: Value = serde_json::from_slice(strip_bom(raw)).ok()?;
    Some(match answer_in_body(&value, id) {
        Some(answer) => Body::Answer(answer),
        None => Body::NoAnswer(NoAnswer::NotAnswer),
    })
}

/// The first `message` event whose JSON answers `id`; other events and messages are skipped.
fn first_answer(events: Vec<SseEvent>, id: u64) -> Option<Body> {
    events
        .into_iter()
        .filter(|event| event.is_message())
        .find_map(|event| {
            let value: Value = serde_json::from_str(&event.data).ok()?;
            answer_in_body(&value, id).map(Body::Answer)
        })
}
