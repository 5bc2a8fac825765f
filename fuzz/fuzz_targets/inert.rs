//! The output escapes (store's `inert`): whatever a server sends, nothing that acts in a
//! spreadsheet, Markdown, a page or a terminal survives, and each reads back as what was sent.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpcensus_store::inert::{
    csv_cell, html_text, is_active_char, markdown_cell, terminal_text, FORMULA_GUARD,
    FORMULA_STARTS,
};

/// The text a CSV reader gets from one field; panics on a field RFC 4180 does not allow.
fn read_csv_field(field: &str) -> String {
    let Some(inner) = field.strip_prefix('"') else {
        assert!(
            !field.contains([',', '"', '\n', '\r']),
            "unquoted {field:?}"
        );
        return field.to_owned();
    };
    let inner = inner.strip_suffix('"').expect("closing quote");
    assert!(
        !inner.replace("\"\"", "").contains('"'),
        "lone quote in {field:?}"
    );
    inner.replace("\"\"", "\"")
}

/// Markdown text with its backslash escapes and entities undone; panics on an unescaped
/// character that Markdown or HTML would act on.
fn read_markdown(md: &str) -> String {
    let mut out = String::new();
    let mut chars = md.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().expect("a backslash escapes something")),
            '|' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '\n' | '\r' => {
                panic!("unescaped {c:?} in {md:?}")
            }
            c => out.push(c),
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);

    let read = read_csv_field(&csv_cell(&text));
    assert!(!read.starts_with(FORMULA_STARTS), "{read:?}");
    // The analyst's rule (docs/records.md): strip one leading `'`.
    assert_eq!(read.strip_prefix(FORMULA_GUARD).unwrap_or(&read), text);

    let shown = terminal_text(&text);
    assert!(!shown.chars().any(is_active_char), "{shown:?}");

    let md = markdown_cell(&text);
    assert!(!md.chars().any(is_active_char), "{md:?}");
    let flat = text.replace(['\n', '\r'], " ");
    assert_eq!(read_markdown(&md), terminal_text(&flat));

    let html = html_text(&text);
    assert!(!html.contains(['<', '>', '"', '\'']), "{html:?}");
    assert!(!html.chars().any(is_active_char), "{html:?}");
});
