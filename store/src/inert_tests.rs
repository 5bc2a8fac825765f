//! Each output kind's escaping fed the hostile strings a server can send.

use std::borrow::Cow;

use super::inert::*;

/// What a server can name a tool: a spreadsheet formula, a tag with a script, terminal
/// escape sequences (window title, clear screen) and a bidi override.
const HOSTILE: [&str; 5] = [
    "=HYPERLINK(\"https://evil.example/\",\"click\")",
    "<img src=x onerror=alert(1)>",
    "title\u{1b}]0;pwned\u{7}clear\u{1b}[2J",
    "abc\u{202e}txt.exe",
    "pipe | back`tick` *bold* _em_ [link](x) a\\|b\nline",
];

/// The field's text as a CSV reader sees it.
fn unquote(field: &str) -> String {
    match field.strip_prefix('"').and_then(|f| f.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => field.to_owned(),
    }
}

#[test]
fn csv_cells_never_start_a_formula() {
    for start in FORMULA_STARTS {
        let text = format!("{start}1+1");
        let field = csv_cell(&text);
        assert_eq!(field, format!("\"'{text}\""), "{text:?}");
        assert_eq!(unquote(&field), format!("'{text}"));
    }
    assert_eq!(
        csv_cell(HOSTILE[0]),
        "\"'=HYPERLINK(\"\"https://evil.example/\"\",\"\"click\"\")\""
    );
    assert_eq!(csv_cell("-"), "\"'-\"");
}

#[test]
fn stripping_one_leading_quote_gives_the_cell_back() {
    for text in ["=1", "'=1", "'plain", "''", "plain", "it's", "", "@a,b"] {
        let read = unquote(&csv_cell(text));
        assert!(!read.starts_with(FORMULA_STARTS), "{text:?}: {read:?}");
        assert_eq!(read.strip_prefix(FORMULA_GUARD).unwrap_or(&read), text);
    }
}

#[test]
fn csv_cells_keep_rfc_4180_quoting() {
    assert_eq!(csv_cell("plain"), "plain");
    assert_eq!(
        csv_cell("a=b"),
        "a=b",
        "only a leading formula character counts"
    );
    assert_eq!(csv_cell(""), "\"\"", "an empty string is told from a null");
    assert_eq!(csv_cell("a,b"), "\"a,b\"");
    assert_eq!(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
    assert_eq!(csv_cell("two\nlines"), "\"two\nlines\"");
    assert_eq!(csv_cell("cr\rinside"), "\"cr\rinside\"");
}

#[test]
fn terminal_text_escapes_controls_and_bidi() {
    assert_eq!(
        terminal_text(HOSTILE[2]),
        "title\\u{1b}]0;pwned\\u{7}clear\\u{1b}[2J"
    );
    assert_eq!(terminal_text(HOSTILE[3]), "abc\\u{202e}txt.exe");
    for c in [
        '\0', '\t', '\n', '\r', '\u{7f}', '\u{80}', '\u{9b}', '\u{9f}', '\u{200e}', '\u{200f}',
        '\u{61c}', '\u{202a}', '\u{2066}', '\u{2069}',
    ] {
        let text = format!("a{c}b");
        let shown = terminal_text(&text);
        assert!(!shown.chars().any(is_active_char), "{c:?}: {shown:?}");
        assert_eq!(shown, format!("a{}b", c.escape_unicode()));
    }
    assert!(matches!(terminal_text("plain é ü 名"), Cow::Borrowed(_)));
}

#[test]
fn markdown_cells_escape_html_and_table_syntax() {
    assert_eq!(
        markdown_cell(HOSTILE[1]),
        "&lt;img src=x onerror=alert(1)&gt;"
    );
    assert_eq!(
        markdown_cell(HOSTILE[4]),
        "pipe \\| back\\`tick\\` \\*bold\\* \\_em\\_ \\[link\\](x) a\\\\\\|b line"
    );
    assert_eq!(markdown_cell("a & b"), "a &amp; b");
    assert_eq!(
        markdown_cell("\u{1b}[2J\u{202e}"),
        "\\\\u{1b}\\[2J\\\\u{202e}"
    );
    for text in HOSTILE {
        let md = markdown_cell(text);
        assert!(!md.contains(['<', '>', '\n']), "{md}");
        assert!(!md.chars().any(is_active_char), "{md:?}");
    }
}

#[test]
fn html_text_escapes_tags_quotes_and_active_characters() {
    assert_eq!(html_text(HOSTILE[1]), "&lt;img src=x onerror=alert(1)&gt;");
    assert_eq!(html_text("\"a\" & 'b'"), "&quot;a&quot; &amp; &#39;b&#39;");
    assert_eq!(html_text(HOSTILE[3]), "abc\\u{202e}txt.exe");
    for text in HOSTILE {
        let html = html_text(text);
        assert!(!html.contains(['<', '>', '"', '\'']), "{html}");
        assert!(!html.chars().any(is_active_char), "{html:?}");
    }
}
