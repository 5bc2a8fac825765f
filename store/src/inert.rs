//! Text a server wrote, made inert for each kind of output a reader opens. Servers choose tool
//! names, server names and versions, card and catalog text, error messages and URLs; every
//! writer of an output kind passes such text through that kind's one function here, so a
//! formula, a tag or an escape sequence is shown and never run:
//!
//! - [`csv_cell`]: a CSV field (a spreadsheet opens it);
//! - [`markdown_cell`]: inline Markdown (table cells, headings, paragraphs);
//! - [`html_text`]: HTML element content and attribute values;
//! - [`terminal_text`]: terminal output and log lines.

use std::borrow::Cow;

/// A cell starting with one of these is read as a formula by a spreadsheet (OWASP, "CSV
/// Injection"); tab and carriage return because some spreadsheets strip them and read on.
pub const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Put before a cell that would start a formula: spreadsheets show a leading `'` as text. A
/// cell that starts with it already gets one more, so a reader strips one leading `'` from
/// every cell that has one and gets the text as sent.
pub const FORMULA_GUARD: char = '\'';

/// Unicode bidirectional controls: they reorder the text after them, so a name can show
/// as something else than it is (the "Trojan Source" trick).
const BIDI_CONTROLS: [char; 12] = [
    '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
];

/// True for the characters a terminal or a renderer acts on instead of showing: C0 controls,
/// DEL and C1 controls (Unicode's `Cc`), and the bidirectional controls.
pub fn is_active_char(c: char) -> bool {
    c.is_control() || BIDI_CONTROLS.contains(&c)
}

/// `text` as one RFC 4180 field: quoted when it holds a comma, quote or line break, or is
/// empty (so readers tell it from a null, which is an empty field), quotes doubled. A cell
/// starting with a [`FORMULA_STARTS`] character (or with the guard itself) gets
/// [`FORMULA_GUARD`] in front and is quoted, as OWASP's CSV-injection guidance says; the
/// analyst strips that `'` (docs/records.md).
pub fn csv_cell(text: &str) -> Cow<'_, str> {
    let formula = text.starts_with(FORMULA_STARTS) || text.starts_with(FORMULA_GUARD);
    if !formula && !text.is_empty() && !text.contains([',', '"', '\n', '\r']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 4);
    out.push('"');
    if formula {
        out.push(FORMULA_GUARD);
    }
    out.push_str(&text.replace('"', "\"\""));
    out.push('"');
    Cow::Owned(out)
}

/// `text` with every [`is_active_char`] written as its `\u{..}` escape, so what a server sent
/// cannot move the cursor, clear the screen, set the window title or reorder the line.
pub fn terminal_text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_active_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_active_char(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` as inline Markdown that renders as the same characters: HTML's `<`, `>` and `&` as
/// entities (no tag or entity of the server's survives), table and emphasis syntax (`|`,
/// backtick, `*`, `_`, `[`, `]`, and `\` itself) backslash-escaped, line breaks as spaces (a
/// table row is one line), and active characters as in [`terminal_text`].
pub fn markdown_cell(text: &str) -> String {
    let flat = text.replace(['\n', '\r'], " ");
    let shown = terminal_text(&flat);
    let mut out = String::with_capacity(shown.len() + 8);
    for c in shown.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '|' | '`' | '*' | '_' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` for HTML element content and attribute values: `&`, `<`, `>`, `"` and `'` as
/// entities, active characters as in [`terminal_text`] (a bidi control reorders a page too).
pub fn html_text(text: &str) -> String {
    let shown = terminal_text(text);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
