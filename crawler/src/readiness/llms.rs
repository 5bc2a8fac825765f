//! `/llms.txt` and `/llms-full.txt` (llmstxt.org): a markdown file whose first line is an H1
//! (`# Title`). A body that is HTML is never the file, whatever its status: a site that answers
//! every path with its homepage would otherwise count (the soft 404s that inflate naive counts).

use crate::net::content::{looks_like_html, strip_bom};

/// What a body at a text file's path turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextShape {
    /// Markdown whose first non-blank line is an H1.
    Markdown,
    Html,
    Empty,
    /// Text, but its first line is no H1.
    NotMarkdown,
}

impl TextShape {
    pub const fn note(self) -> &'static str {
        match self {
            TextShape::Markdown => "markdown, opening with an H1",
            TextShape::Html => "an HTML page, not a file",
            TextShape::Empty => "empty body",
            TextShape::NotMarkdown => "text whose first line is not an H1 (`# `)",
        }
    }
}

/// The body without leading white space.
pub(super) fn trim_start(body: &[u8]) -> &[u8] {
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    &body[start..]
}

/// Reads a body at an llms.txt path.
pub fn read_llms(body: &[u8]) -> TextShape {
    let body = trim_start(strip_bom(body));
    if body.is_empty() {
        TextShape::Empty
    } else if looks_like_html(body) {
        TextShape::Html
    } else if body.starts_with(b"# ") {
        TextShape::Markdown
    } else {
        TextShape::NotMarkdown
    }
}
