//! Declarative WebMCP in the homepage's HTML: a `<form>` carrying a `toolname` attribute (with
//! `tooldescription`) is a tool the browser offers an agent. Static markers only: no script is
//! run, so tools a page registers from JavaScript are not seen (docs/readiness.md).

use crate::discovery::HTML_SCAN_LIMIT;

/// The attribute names that mark a form as a WebMCP tool (the draft's, and the dashed spelling
/// early demos used).
const TOOL_ATTRIBUTES: [&str; 2] = ["toolname", "tool-name"];

/// The number of `<form>` elements in the first [`HTML_SCAN_LIMIT`] bytes that carry a WebMCP
/// tool name.
pub fn web_mcp_forms(html: &[u8]) -> usize {
    let html = &html[..html.len().min(HTML_SCAN_LIMIT)];
    let text = String::from_utf8_lossy(html).to_ascii_lowercase();
    let mut count = 0;
    let mut rest = text.as_str();
    while let Some(at) = rest.find("<form") {
        rest = &rest[at + 5..];
        // `<formula>` is not a form.
        if !rest.starts_with(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/') {
            continue;
        }
        let (names, after) = attribute_names(rest);
        if names.iter().any(|n| TOOL_ATTRIBUTES.contains(n)) {
            count += 1;
        }
        rest = after;
    }
    count
}

/// The attribute names of a start tag whose name was just read, and the text after its `>`.
fn attribute_names(tag: &str) -> (Vec<&str>, &str) {
    let bytes = tag.as_bytes();
    let mut names = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'>' => return (names, &tag[at + 1..]),
            b if b.is_ascii_whitespace() || b == b'/' => at += 1,
            b'=' => {
                at += 1;
                while at < bytes.len() && bytes[at].is_ascii_whitespace() {
                    at += 1;
                }
                match bytes.get(at) {
                    Some(&quote @ (b'"' | b'\'')) => {
                        at += 1;
                        while at < bytes.len() && bytes[at] != quote {
                            at += 1;
                        }
                        at += 1;
                    }
                    _ => {
                        while at < bytes.len()
                            && !bytes[at].is_ascii_whitespace()
                            && bytes[at] != b'>'
                        {
                            at += 1;
                        }
                    }
                }
            }
            _ => {
                let start = at;
                while at < bytes.len()
                    && !bytes[at].is_ascii_whitespace()
                    && !matches!(bytes[at], b'=' | b'>' | b'/')
                {
                    at += 1;
                }
                names.push(&tag[start..at]);
            }
        }
    }
    (names, "")
}
