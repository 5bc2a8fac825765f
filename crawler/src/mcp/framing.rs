//! How an answer's body is framed, decided from its first significant bytes. The body decides,
//! the Content-Type only breaks ties: a JSON body counts whatever its label, an event stream is
//! read as one when labelled `text/event-stream` or when it plainly starts with an SSE field.

use crate::net::content::{looks_like_html, strip_bom};

/// Bytes looked at before a body starting with `<` is judged HTML or not.
const SNIFF_BYTES: usize = 64;

/// What the first bytes of a body say about how to read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sniff {
    /// Not enough bytes yet.
    Wait,
    Json,
    Sse,
    Html,
    Other,
}

/// How an answer's body was framed, as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    Json,
    EventStream,
    Html,
    /// Neither JSON, an event stream nor HTML (plain text, a cut-off body, ...).
    Other,
    /// No body, or only white space.
    Empty,
}

/// Decides how to read a body from its first significant bytes.
pub(super) fn sniff(raw: &[u8], labelled_sse: bool, labelled_html: bool, at_end: bool) -> Sniff {
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
