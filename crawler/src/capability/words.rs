//! The words a signal is matched against: a name split at its separators and case changes, a
//! description's words, the schema's property names; and the phrase search over them.

use serde_json::Value;

/// The longest first sentence read (a description with no full stop is one long sentence).
const SUMMARY_MAX_CHARS: usize = 400;

/// A name's words, lowercased: split at anything not a letter or digit and where a lowercase
/// letter meets an uppercase one (`getFileContents`, `atlas-list-db-users`, `browser_click`).
pub fn name_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            push(&mut out, &mut word);
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            push(&mut out, &mut word);
        }
        prev_lower = c.is_lowercase();
        word.extend(c.to_lowercase());
    }
    push(&mut out, &mut word);
    out
}

fn push(out: &mut Vec<String>, word: &mut String) {
    if !word.is_empty() {
        out.push(std::mem::take(word));
    }
}

/// A text's words: its runs of ASCII letters and digits, lowercased.
pub fn text_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The description's first sentence: up to the first `.`, `!` or `?` followed by a space or
/// the end, or the first line break, at most 400 characters.
pub fn summary(description: &str) -> &str {
    let text = description.trim();
    let mut end = text.len();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next_is_space = chars.peek().is_none_or(|(_, n)| n.is_whitespace());
        if c == '\n' || (matches!(c, '.' | '!' | '?') && next_is_space) {
            end = at;
            break;
        }
    }
    let cut = text[..end]
        .char_indices()
        .nth(SUMMARY_MAX_CHARS)
        .map_or(end, |(at, _)| at);
    &text[..cut]
}

/// The input schema's top-level property names, each as its name words joined by `_`
/// (`filePath` and `file-path` read as `file_path`).
pub fn property_names(schema: Option<&Value>) -> Vec<String> {
    let props = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object);
    props.map_or_else(Vec::new, |p| {
        p.keys().map(|k| name_words(k).join("_")).collect()
    })
}

/// Where `entry` (a word, or a phrase of words separated by single spaces) starts in `words`:
/// the plain search the index replaced, kept as the tests' reference.
#[cfg(test)]
pub fn positions<'a>(words: &'a [String], entry: &'a str) -> impl Iterator<Item = usize> + 'a {
    let len = entry.split(' ').count();
    let first = entry.split(' ').next().unwrap_or_default();
    // The first word decides almost every position: compare it before the rest.
    (0..words.len().saturating_sub(len - 1)).filter(move |&at| {
        words[at] == first
            && words[at..at + len]
                .iter()
                .zip(entry.split(' '))
                .all(|(w, e)| w == e)
    })
}
