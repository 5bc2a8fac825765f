//! Reading a fetched JSON document leniently: what it was (JSON, an HTML page, nothing) and,
//! field by field, what it held, so the audit can tell "missing" from "wrong type".

use serde_json::{Map, Value};

use crate::net::json::{parse_json, JsonError};

pub use crate::net::content::media_type;
pub(super) use crate::net::content::{is_html_type, looks_like_html, trimmed};

/// Raw values kept as evidence are cut to this many characters.
const RAW_EVIDENCE_CHARS: usize = 200;

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

    /// Checks a parsed document: `Err` with the reason makes it the wrong shape.
    pub(super) fn and_then<U>(
        self,
        check: impl FnOnce(T) -> Result<U, String>,
    ) -> DocumentParse<U> {
        match self {
            DocumentParse::Parsed(value) => match check(value) {
                Ok(out) => DocumentParse::Parsed(out),
                Err(reason) => DocumentParse::WrongShape { reason },
            },
            DocumentParse::NotJson { reason } => DocumentParse::NotJson { reason },
            DocumentParse::Html => DocumentParse::Html,
            DocumentParse::Empty => DocumentParse::Empty,
            DocumentParse::WrongShape { reason } => DocumentParse::WrongShape { reason },
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

    /// The same, reading at most `cap` items (the caller counts the rest).
    pub(super) fn array_capped(
        object: &Map<String, Value>,
        key: &str,
        cap: usize,
        item: impl FnMut(&Value) -> T,
    ) -> Field<Vec<T>> {
        match object.get(key) {
            None => Field::Absent,
            Some(Value::Array(items)) => Field::Present(items.iter().take(cap).map(item).collect()),
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
    match parse_json(body) {
        Ok(value) => DocumentParse::Parsed(value),
        Err(JsonError::Invalid(_)) if content_type.is_some_and(is_html_type) => DocumentParse::Html,
        Err(JsonError::Invalid(reason)) => DocumentParse::NotJson { reason },
        Err(too_deep) => DocumentParse::NotJson {
            reason: too_deep.to_string(),
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
