//! Link relations on the homepage: the `Link` header (RFC 8288) and `<link>` elements. `mcp`
//! and `mcp-server` name an endpoint (the survey); `ai-catalog` names a catalog; `api-catalog`
//! (RFC 9727), `service-desc` and `service-doc` (RFC 8631) are API surface evidence, and a
//! `service-desc` on the measured site names the OpenAPI document the scan asks for. No spec
//! defines the first two, so every relation is matched the way RFC 8288 and HTML match any:
//! case-insensitive, one of several space-separated types.

use html5gum::{DefaultEmitter, StartTag, Token, Tokenizer};
use http::header::LINK;
use http::HeaderMap;
use mcpcensus_store::DiscoveredVia;
use url::Url;

/// Bytes of the homepage given to the tokenizer; links further down are not looked for.
pub const HTML_SCAN_LIMIT: usize = 1024 * 1024;

/// The relations looked for, by kind, in the order a link's kinds are listed.
const RELATIONS: [(LinkKind, &[&str]); 5] = [
    (LinkKind::Mcp, &["mcp", "mcp-server"]),
    (LinkKind::AiCatalog, &["ai-catalog"]),
    (LinkKind::ApiCatalog, &["api-catalog"]),
    (LinkKind::ServiceDesc, &["service-desc"]),
    (LinkKind::ServiceDoc, &["service-doc"]),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `rel` names `mcp` or `mcp-server`.
    Mcp,
    /// `rel` names `ai-catalog`.
    AiCatalog,
    /// `rel` names `api-catalog` (RFC 9727).
    ApiCatalog,
    /// `rel` names `service-desc` (RFC 8631): a machine-readable API description.
    ServiceDesc,
    /// `rel` names `service-doc` (RFC 8631): API documentation for people.
    ServiceDoc,
}

/// A homepage link with a relation discovery cares about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundLink {
    /// The target as written.
    pub href: String,
    /// What `href` resolves against: the page, or the page's `<base href>`.
    pub base: Url,
    pub kind: LinkKind,
    /// The matching relation, lower-case (`mcp`, `mcp-server`, `ai-catalog`, ...).
    pub rel: String,
    /// Found in the `Link` header (else in the HTML).
    pub in_header: bool,
}

impl FoundLink {
    pub fn url(&self) -> Option<Url> {
        self.base.join(self.href.trim()).ok()
    }

    pub fn via(&self) -> DiscoveredVia {
        if self.in_header {
            DiscoveredVia::LinkHeader
        } else {
            DiscoveredVia::LinkHtml
        }
    }
}

/// One link of a `Link` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkValue {
    pub target: String,
    /// The relation types of the first `rel` parameter, lower-case.
    pub rels: Vec<String>,
    /// Every parameter, names lower-case, values unquoted.
    pub params: Vec<(String, String)>,
}

/// The homepage's links: the header's first, then the HTML's, each in document order (the
/// survey names "a homepage Link header or <link>", header first).
pub fn home_links(headers: &HeaderMap, body: &[u8], page: &Url) -> Vec<FoundLink> {
    let mut links = links_from_headers(headers, page);
    links.extend(links_from_html(body, page));
    links
}

pub fn links_from_headers(headers: &HeaderMap, page: &Url) -> Vec<FoundLink> {
    let mut found = Vec::new();
    for value in headers.get_all(LINK) {
        let text = String::from_utf8_lossy(value.as_bytes());
        for link in parse_link_header(&text) {
            push_matches(&mut found, &link.target, &link.rels, page, true);
        }
    }
    found
}

/// `<link>` elements anywhere in the document, head or body: the survey says "<link>" without
/// a place, and a browser keeps a body `<link>` in the DOM too. A real tokenizer keeps
/// comments, `<script>`, `<style>` and other raw-text content from counting; `<template>`
/// content is inert and skipped as well.
pub fn links_from_html(body: &[u8], page: &Url) -> Vec<FoundLink> {
    let body = &body[..body.len().min(HTML_SCAN_LIMIT)];
    // Only `<link` and `<base` tags matter, and each such tag starts at a literal `<link` or
    // `<base` (ASCII case-insensitive): once the tokenizer has seen as many of those tags as
    // the bytes hold, nothing further can matter, so tokenizing stops there (at once for a
    // page without any).
    let mut pending = openings(body);
    if pending == 0 {
        return Vec::new();
    }
    let mut emitter = DefaultEmitter::default();
    emitter.naively_switch_states(true);
    let mut base: Option<Url> = None;
    let mut template_depth = 0usize;
    let mut links: Vec<(String, Vec<String>)> = Vec::new();
    for Ok(token) in Tokenizer::new_with_emitter(body, emitter) {
        if let Token::StartTag(tag) = &token {
            let name = tag.name.as_slice();
            if name.starts_with(b"link") || name.starts_with(b"base") {
                pending -= 1;
            }
        }
        match token {
            Token::StartTag(tag) => match tag.name.as_slice() {
                b"template" => template_depth += 1,
                _ if template_depth > 0 => {}
                // The first `<base href>` sets the document's base URL.
                b"base" if base.is_none() => {
                    base = attribute(&tag, b"href").and_then(|href| page.join(href.trim()).ok());
                }
                b"link" => {
                    let href = attribute(&tag, b"href").filter(|href| !href.trim().is_empty());
                    if let (Some(href), Some(rel)) = (href, attribute(&tag, b"rel")) {
                        links.push((href, relation_types(&rel)));
                    }
                }
                _ => {}
            },
            Token::EndTag(tag) if tag.name.as_slice() == b"template" => {
                template_depth = template_depth.saturating_sub(1);
            }
            _ => {}
        }
        if pending == 0 {
            break;
        }
    }
    let base = base.unwrap_or_else(|| page.clone());
    let mut found = Vec::new();
    for (href, rels) in links {
        push_matches(&mut found, &href, &rels, &base, false);
    }
    found
}

/// How many `<link` and `<base` (ASCII case ignored) `haystack` holds. Found from each `<`
/// (memchr's vector search): comparing a window at every byte cost a few percent of a crawl.
fn openings(haystack: &[u8]) -> usize {
    memchr::memchr_iter(b'<', haystack)
        .filter(|&at| {
            haystack.get(at + 1..at + 5).is_some_and(|name| {
                name.eq_ignore_ascii_case(b"link") || name.eq_ignore_ascii_case(b"base")
            })
        })
        .count()
}

fn attribute(tag: &StartTag<()>, name: &[u8]) -> Option<String> {
    tag.attributes
        .get(name)
        .map(|value| String::from_utf8_lossy(value.as_slice()).into_owned())
}

fn relation_types(rel: &str) -> Vec<String> {
    rel.split_ascii_whitespace()
        .map(str::to_ascii_lowercase)
        .collect()
}

/// One found link per kind: `rel="mcp mcp-server"` is one endpoint, not two.
fn push_matches(found: &mut Vec<FoundLink>, href: &str, rels: &[String], base: &Url, header: bool) {
    for (kind, names) in RELATIONS {
        if let Some(rel) = rels.iter().find(|rel| names.contains(&rel.as_str())) {
            found.push(FoundLink {
                href: href.to_owned(),
                base: base.clone(),
                kind,
                rel: rel.clone(),
                in_header: header,
            });
        }
    }
}

/// Parses one `Link` field value (RFC 8288 §3): comma-separated `<target>; param=value`
/// links, quoted values with backslash escapes (a comma inside quotes does not split), and
/// only the first `rel` counted. A malformed link is skipped up to the next comma.
pub fn parse_link_header(value: &str) -> Vec<LinkValue> {
    let mut cursor = Cursor {
        text: value,
        pos: 0,
    };
    let mut links = Vec::new();
    loop {
        cursor.skip(|c| c == ',' || c.is_ascii_whitespace());
        let Some(next) = cursor.peek() else {
            break;
        };
        if next != '<' {
            cursor.skip_link();
            continue;
        }
        cursor.pos += 1;
        let Some(close) = cursor.rest().find('>') else {
            break;
        };
        let target = cursor.rest()[..close].trim().to_owned();
        cursor.pos += close + 1;
        let params = cursor.params();
        let rels = params
            .iter()
            .find(|(name, _)| name == "rel")
            .map(|(_, rel)| relation_types(rel))
            .unwrap_or_default();
        links.push(LinkValue {
            target,
            rels,
            params,
        });
    }
    links
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn skip(&mut self, mut skip: impl FnMut(char) -> bool) {
        while self.peek().is_some_and(&mut skip) {
            self.bump();
        }
    }

    /// Reads `; name[=value]` parameters up to the comma that ends the link.
    fn params(&mut self) -> Vec<(String, String)> {
        let mut params = Vec::new();
        loop {
            self.skip(|c| c.is_ascii_whitespace());
            match self.peek() {
                None | Some(',') => return params,
                Some(';') => {
                    self.bump();
                }
                Some(_) => {
                    self.skip_link();
                    return params;
                }
            }
            self.skip(|c| c.is_ascii_whitespace());
            let start = self.pos;
            self.skip(|c| !matches!(c, '=' | ';' | ',') && !c.is_ascii_whitespace());
            let name = self.text[start..self.pos].to_ascii_lowercase();
            self.skip(|c| c.is_ascii_whitespace());
            let mut value = String::new();
            if self.peek() == Some('=') {
                self.bump();
                self.skip(|c| c.is_ascii_whitespace());
                value = if self.peek() == Some('"') {
                    self.quoted()
                } else {
                    let start = self.pos;
                    self.skip(|c| !matches!(c, ';' | ','));
                    self.text[start..self.pos].trim().to_owned()
                };
            }
            if !name.is_empty() {
                params.push((name, value));
            }
        }
    }

    /// A quoted string, the cursor on its opening quote; an unclosed one runs to the end.
    fn quoted(&mut self) -> String {
        self.bump();
        let mut value = String::new();
        while let Some(c) = self.bump() {
            match c {
                '"' => break,
                '\\' => value.extend(self.bump()),
                c => value.push(c),
            }
        }
        value
    }

    /// Skips to the comma that ends the current link, stepping over quoted strings and
    /// `<...>` targets.
    fn skip_link(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                ',' => return,
                '"' => {
                    self.quoted();
                }
                '<' => {
                    let close = self
                        .rest()
                        .find('>')
                        .map_or(self.text.len(), |at| self.pos + at + 1);
                    self.pos = close;
                }
                _ => {
                    self.bump();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::openings;

    #[test]
    fn openings_count_link_and_base_tags_in_any_case() {
        assert_eq!(openings(b""), 0);
        assert_eq!(openings(b"<a href=x><p>links and bases</p>"), 0);
        assert_eq!(openings(b"<LINK rel=mcp><Base href=/><link"), 3);
        assert_eq!(openings(b"<<link<<base"), 2);
        // Cut short at the end of the bytes: not a tag yet.
        assert_eq!(openings(b"<lin"), 0);
        assert_eq!(openings(b"x<linkx<basex<bas"), 2);
    }
}
