//! Reading a fetched JSON document leniently: what it was (JSON, an HTML page, nothing) and,
//! field by field, what it held, so the audit can tell "missing" from "wrong type".

use http::header::CONTENT_TYPE;
use http::HeaderMap;
use serde_json::{Map, Value};

/// Raw values kept as evidence are cut to this many characters.
const RAW_EVIDENCE_CHARS: usize = 200;
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
/// Body openings that mark an HTML page (compared case-insensitively).
const HTML_OPENINGS: [&[u8]; 4] = [b"<!doctype", b"<html", b"<head", b"<body"];

/// What a fetched document turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub enum DocumentParse<T> {
    Parsed(T),
    /// Not JSON (or cut off mid-value); the parser's message.
    NotJson {
        reason: String,
    },
    /// An HTML page where JSON was expected: a soft 404 when the status was 200.
    Html,
    /// No body, or only white space.
    Empty,
    /// JSON, but not the object the document must be.
    WrongShape {
        reason: String,
    },
}

impl<T> DocumentParse<T> {
    pub fn parsed(&self) -> Option<&T> {
        match self {
            DocumentParse::Parsed(value) => Some(value),
            _ => None,
        }
    }

    pub fn into_parsed(self) -> Option<T> {
        match self {
            DocumentParse::Parsed(value) => Some(value),
            _ => None,
        }
    }

    /// A stable label for records and counters.
    pub fn label(&self) -> &'static str {
        match self {
            DocumentParse::Parsed(_) => "parsed",
            DocumentParse::NotJson { .. } => "not_json",
            DocumentParse::Html => "html",
            DocumentParse::Empty => "empty",
            DocumentParse::WrongShape { .. } => "wrong_shape",
        }
    }

    /// Why the document was not read, in words, or `None` when it was.
    pub fn why_not(&self) -> Option<String> {
        match self {
            DocumentParse::Parsed(_) => None,
            DocumentParse::NotJson { reason } => Some(format!("not valid JSON: {reason}")),
            DocumentParse::Html => Some("an HTML page, not JSON".to_owned()),
            DocumentParse::Empty => Some("empty body".to_owned()),
            DocumentParse::WrongShape { reason } => Some(reason.clone()),
        }
    }

    pub(super) fn map<U>(self, f: impl FnOnce(T) -> U) -> DocumentParse<U> {
        match self {
            DocumentParse::Parsed(value) => DocumentParse::Parsed(f(value)),
            DocumentParse::NotJson { reason } => DocumentParse::NotJson { reason },
            DocumentParse::Html => DocumentParse::Html,
            DocumentParse::Empty => DocumentParse::Empty,
            DocumentParse::WrongShape { reason } => DocumentParse::WrongShape { reason },
        }
    }
}

/// The JSON type of a value, for evidence ("name is a number").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl JsonKind {
    pub fn of(value: &Value) -> JsonKind {
        match value {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Bool,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Bool => "boolean",
            JsonKind::Number => "number",
            JsonKind::String => "string",
            JsonKind::Array => "array",
            JsonKind::Object => "object",
        }
    }
}

/// One field of a document as found.
#[derive(Debug, Clone, PartialEq)]
pub enum Field<T> {
    Absent,
    /// Present with a type the shape does not allow (`null` included); `raw` is the value as
    /// compact JSON, cut to 200 characters.
    WrongType {
        kind: JsonKind,
        raw: String,
    },
    Present(T),
}

impl<T> Field<T> {
    pub fn get(&self) -> Option<&T> {
        match self {
            Field::Present(value) => Some(value),
            _ => None,
        }
    }

    pub fn is_absent(&self) -> bool {
        matches!(self, Field::Absent)
    }

    /// Present in the document, whatever its type.
    pub fn is_present(&self) -> bool {
        !self.is_absent()
    }

    fn wrong(value: &Value) -> Field<T> {
        Field::WrongType {
            kind: JsonKind::of(value),
            raw: raw_json(value),
        }
    }
}

impl Field<String> {
    pub fn text(&self) -> Option<&str> {
        self.get().map(String::as_str)
    }

    pub(super) fn string(object: &Map<String, Value>, key: &str) -> Field<String> {
        match object.get(key) {
            None => Field::Absent,
            Some(Value::String(text)) => Field::Present(text.clone()),
            Some(other) => Field::wrong(other),
        }
    }
}

impl<T> Field<Vec<T>> {
    /// Reads an array field, building each item with `item`.
    pub(super) fn array(
        object: &Map<String, Value>,
        key: &str,
        item: impl FnMut(&Value) -> T,
    ) -> Field<Vec<T>> {
        match object.get(key) {
            None => Field::Absent,
            Some(Value::Array(items)) => Field::Present(items.iter().map(item).collect()),
            Some(other) => Field::wrong(other),
        }
    }
}

impl Field<Map<String, Value>> {
    pub(super) fn object(object: &Map<String, Value>, key: &str) -> Field<Map<String, Value>> {
        match object.get(key) {
            None => Field::Absent,
            Some(Value::Object(inner)) => Field::Present(inner.clone()),
            Some(other) => Field::wrong(other),
        }
    }
}

/// A value as compact JSON, cut to the evidence length.
pub(super) fn raw_json(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(RAW_EVIDENCE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// The media type of a response, lower-case, without parameters (`text/html`).
pub fn media_type(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    let essence = value.split(';').next().unwrap_or_default().trim();
    (!essence.is_empty()).then(|| essence.to_ascii_lowercase())
}

pub(super) fn is_html_type(media_type: &str) -> bool {
    matches!(media_type, "text/html" | "application/xhtml+xml")
}

/// The body without a UTF-8 byte order mark and surrounding white space.
pub(super) fn trimmed(body: &[u8]) -> &[u8] {
    body.strip_prefix(UTF8_BOM).unwrap_or(body).trim_ascii()
}

/// Whether a (trimmed) body opens like an HTML page.
pub(super) fn looks_like_html(body: &[u8]) -> bool {
    HTML_OPENINGS.iter().any(|opening| {
        body.get(..opening.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(opening))
    })
}

/// Reads a body as a JSON value. The content type alone never condemns a body that parses:
/// static cards are often served as `text/plain` or even `text/html`. It only decides that an
/// unparseable body under an HTML type is an HTML page rather than broken JSON.
pub(super) fn read_json(content_type: Option<&str>, body: &[u8]) -> DocumentParse<Value> {
    let body = trimmed(body);
    if body.is_empty() {
        return DocumentParse::Empty;
    }
    if looks_like_html(body) {
        return DocumentParse::Html;
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(value) => DocumentParse::Parsed(value),
        Err(_) if content_type.is_some_and(is_html_type) => DocumentParse::Html,
        Err(error) => DocumentParse::NotJson {
            reason: error.to_string(),
        },
    }
}

/// Reads a body that must be a JSON object.
pub(super) fn read_object(
    content_type: Option<&str>,
    body: &[u8],
) -> DocumentParse<Map<String, Value>> {
    match read_json(content_type, body) {
        DocumentParse::Parsed(value) => object_of(value),
        other => other.map(|_| Map::new()),
    }
}

fn object_of(value: Value) -> DocumentParse<Map<String, Value>> {
    match value {
        Value::Object(object) => DocumentParse::Parsed(object),
        other => not_an_object(&other),
    }
}

pub(super) fn not_an_object<T>(value: &Value) -> DocumentParse<T> {
    DocumentParse::WrongShape {
        reason: format!("a JSON {}, not an object", JsonKind::of(value).as_str()),
    }
}
