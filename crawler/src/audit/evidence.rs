//! How evidence is worded: the offending value as found, quoted and cut, so a site owner can
//! search their file for it.

use crate::discovery::{Field, JsonKind};

/// A quoted value is cut to this many characters.
const VALUE_CHARS: usize = 120;
/// Names listed in one piece of evidence before "and N more".
const LISTED_NAMES: usize = 10;

/// `text` as JSON writes a string, cut to the evidence length.
pub(super) fn quoted(text: &str) -> String {
    let cut = match text.char_indices().nth(VALUE_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    };
    serde_json::Value::String(cut).to_string()
}

/// `` `key` is a number (42) ``.
pub(super) fn wrong_kind(key: &str, kind: JsonKind, raw: &str) -> String {
    format!("`{key}` is a {} ({raw})", kind.as_str())
}

/// Why a string field holds no usable text, or `None` when it does.
pub(super) fn unusable_text(key: &str, field: &Field<String>) -> Option<String> {
    match field {
        Field::Absent => Some(format!("`{key}` is absent")),
        Field::WrongType { kind, raw } => Some(wrong_kind(key, *kind, raw)),
        Field::Present(text) if text.trim().is_empty() => {
            Some(format!("`{key}` is {}", quoted(text)))
        }
        Field::Present(_) => None,
    }
}

/// Why a field is not an array, or `None` when it is one.
pub(super) fn not_an_array<T>(key: &str, field: &Field<Vec<T>>) -> Option<String> {
    match field {
        Field::Absent => Some(format!("`{key}` is absent")),
        Field::WrongType { kind, raw } => Some(wrong_kind(key, *kind, raw)),
        Field::Present(_) => None,
    }
}

/// `"a", "b" and 3 more`.
pub(super) fn name_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    let mut listed: Vec<String> = names.iter().take(LISTED_NAMES).map(|n| quoted(n)).collect();
    if names.len() > LISTED_NAMES {
        listed.push(format!("{} more", names.len() - LISTED_NAMES));
    }
    listed.join(", ")
}
