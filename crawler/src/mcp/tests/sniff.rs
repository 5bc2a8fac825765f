//! How a body is framed: one sniffer for the discovery documents and the MCP answers.

use crate::mcp::framing::{sniff, Sniff};
use crate::net::content::looks_like_html;

#[test]
fn html_openings_are_one_list() {
    for page in [
        &b"<!DOCTYPE html><p>x"[..],
        b"<!doctype HTML>",
        b"<html lang=en>",
        b"<HEAD>",
        b"<body>",
        b"<title>Home</title>",
        b"<meta charset=utf-8>",
    ] {
        assert!(looks_like_html(page), "{}", String::from_utf8_lossy(page));
        assert_eq!(sniff(page, false, false, false), Sniff::Html);
    }
    assert!(!looks_like_html(b"<?xml version=\"1.0\"?>"));
    assert!(!looks_like_html(b"{\"jsonrpc\":\"2.0\"}"));
}

#[test]
fn the_body_decides_and_the_label_breaks_ties() {
    // JSON whatever its label; an event stream by label or by its first field.
    assert_eq!(
        sniff(b"\xEF\xBB\xBF {\"id\":1}", true, true, false),
        Sniff::Json
    );
    assert_eq!(sniff(b"data: {}", false, false, false), Sniff::Sse);
    assert_eq!(sniff(b"hello there", true, false, false), Sniff::Sse);
    assert_eq!(sniff(b"dat", false, false, false), Sniff::Wait);
    assert_eq!(sniff(b"dat", false, false, true), Sniff::Other);
    assert_eq!(
        sniff(b"plain text, no fields", false, true, false),
        Sniff::Html
    );
    assert_eq!(sniff(b"   ", false, false, true), Sniff::Wait);
}
