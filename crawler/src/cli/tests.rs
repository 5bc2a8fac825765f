//! Unit tests of the `check` output.

use crate::net::{Exchange, EXCERPT_BYTES};

use super::explain::*;

fn exchange() -> Exchange {
    Exchange {
        purpose: "initialize".into(),
        method: "POST".into(),
        url: "https://a.test/mcp".into(),
        headers_sent: vec![
            (
                "accept".into(),
                "application/json, text/event-stream".into(),
            ),
            ("mcp-protocol-version".into(), "2025-11-25".into()),
            ("mcp-session-id".into(), "abc".into()),
        ],
        body_sent: "{\"jsonrpc\":\"2.0\"}".into(),
        status: Some(307),
        headers_received: vec![("location".into(), "https://b.test/\u{1b}[2J".into())],
        body_excerpt: String::new(),
        body_read: false,
        body_bytes: 0,
        error: None,
    }
}

fn render(ex: &Exchange) -> String {
    let mut out = Vec::new();
    write_exchange(&mut out, ex).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_request_block_reads_like_curl() {
    let text = render(&exchange());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "POST https://a.test/mcp  (initialize)");
    assert_eq!(lines[1], "  > Accept: application/json, text/event-stream");
    assert_eq!(lines[2], "  > MCP-Protocol-Version: 2025-11-25");
    assert_eq!(lines[3], "  > Mcp-Session-Id: abc");
    assert_eq!(lines[4], "  >");
    assert_eq!(lines[5], "  > {\"jsonrpc\":\"2.0\"}");
    assert_eq!(lines[6], "  < 307 Temporary Redirect");
    assert!(text.contains("not followed"), "{text}");
}

#[test]
fn what_a_site_sent_cannot_drive_the_terminal() {
    let mut ex = exchange();
    ex.status = Some(200);
    ex.body_read = true;
    ex.body_excerpt = "line one\r\nline \u{7}two\n".into();
    ex.body_bytes = ex.body_excerpt.len() as u64;
    let text = render(&ex);
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    assert!(
        text.contains("  < line one\n  < line \\u{7}two\n"),
        "{text}"
    );
    assert!(text.contains("\\u{1b}[2J"), "{text}");
}

#[test]
fn a_long_body_says_how_much_is_shown() {
    let mut ex = exchange();
    ex.status = Some(200);
    ex.body_read = true;
    ex.body_excerpt = "x".repeat(EXCERPT_BYTES);
    ex.body_bytes = 70_000;
    let text = render(&ex);
    assert!(
        text.contains("(body: 70000 bytes read, the first 2048 shown)"),
        "{text}"
    );
}

#[test]
fn no_answer_shows_the_error() {
    let mut ex = exchange();
    ex.status = None;
    ex.error = Some("connection refused".into());
    let text = render(&ex);
    assert!(
        text.ends_with("  ! no answer: connection refused\n"),
        "{text}"
    );
}

#[test]
fn the_verdict_shows_hostile_names_inert() {
    let mut r = mcpcensus_store::Record::new(
        "check",
        0,
        "a.test",
        1,
        mcpcensus_store::Outcome::Pass,
        "answered",
    );
    r.server_name = Some("srv\u{1b}]0;pwned\u{7}".into());
    r.server_version = Some("1\u{202e}0".into());
    r.tool_names = vec!["\u{1b}[2J".into(), "a\u{9b}b\u{2066}".into()];
    r.tool_count = Some(2);
    let mut out = Vec::new();
    write_verdict(&mut out, &r).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        !text
            .chars()
            .any(|c| c != '\n' && mcpcensus_store::inert::is_active_char(c)),
        "{text:?}"
    );
    assert!(
        text.contains("srv\\u{1b}]0;pwned\\u{7} 1\\u{202e}0"),
        "{text}"
    );
    assert!(text.contains("\\u{1b}[2J, a\\u{9b}b\\u{2066}"), "{text}");
}

#[test]
fn a_redirect_the_scan_followed_says_so() {
    let mut hop = exchange();
    hop.method = "GET".into();
    hop.purpose = "homepage".into();
    hop.url = "https://a.test/".into();
    hop.headers_received = vec![("location".into(), "/home".into())];
    let mut target = hop.clone();
    target.url = "https://a.test/home".into();
    target.status = Some(200);
    target.headers_received.clear();
    let mut elsewhere = hop.clone();
    elsewhere.headers_received = vec![("location".into(), "https://b.test/".into())];
    let record = mcpcensus_store::Record::new(
        "r",
        0,
        "a.test",
        1,
        mcpcensus_store::Outcome::OutOfScope,
        "no endpoint",
    );
    let mut out = Vec::new();
    write_transcript(&mut out, &record, &[hop, target, elsewhere]).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("(redirect to /home: followed)"), "{text}");
    assert!(
        text.contains("(redirect to https://b.test/: not followed)"),
        "{text}"
    );
}
