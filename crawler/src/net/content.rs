//! Content sniffing shared by every reader of a body: the media type a response declares, and
//! whether a body opens like an HTML page whatever it declares.

use http::header::CONTENT_TYPE;
use http::HeaderMap;

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
/// Body openings that mark an HTML page (compared case-insensitively, after white space).
/// `<!doctype` alone is enough: no JSON document or event stream opens with it.
const HTML_OPENINGS: [&[u8]; 6] = [
    b"<!doctype",
    b"<html",
    b"<head",
    b"<body",
    b"<title",
    b"<meta",
];

/// The media type of a response, lower-case, without parameters (`text/html`); `None` when
/// there is no readable `Content-Type`.
pub fn media_type(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    let essence = value.split(';').next().unwrap_or_default().trim();
    (!essence.is_empty()).then(|| essence.to_ascii_lowercase())
}

/// `text/html` or `application/xhtml+xml`.
pub fn is_html_type(media_type: &str) -> bool {
    matches!(media_type, "text/html" | "application/xhtml+xml")
}

/// The body without a leading UTF-8 byte order mark.
pub fn strip_bom(body: &[u8]) -> &[u8] {
    body.strip_prefix(UTF8_BOM).unwrap_or(body)
}

/// The body without a UTF-8 byte order mark and surrounding white space.
pub fn trimmed(body: &[u8]) -> &[u8] {
    strip_bom(body).trim_ascii()
}

/// Whether a body (its leading white space already skipped) opens like an HTML page.
pub fn looks_like_html(body: &[u8]) -> bool {
    HTML_OPENINGS.iter().any(|opening| {
        body.get(..opening.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(opening))
    })
}
