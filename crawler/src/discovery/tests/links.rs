use http::header::LINK;
use http::{HeaderMap, HeaderValue};
use mcpcensus_store::DiscoveredVia;

use super::url;
use crate::discovery::*;

const PAGE: &str = "https://example.com/";

fn hrefs(links: &[FoundLink]) -> Vec<(String, LinkKind, String)> {
    links
        .iter()
        .map(|link| (link.url().unwrap().to_string(), link.kind, link.rel.clone()))
        .collect()
}

fn html_links(html: &str) -> Vec<(String, LinkKind, String)> {
    hrefs(&links_from_html(html.as_bytes(), &url(PAGE)))
}

fn mcp(href: &str, rel: &str) -> (String, LinkKind, String) {
    (href.to_owned(), LinkKind::Mcp, rel.to_owned())
}

#[test]
fn link_header_with_several_links_params_and_quoted_commas() {
    let links = parse_link_header(
        r#"<https://example.com/style.css>; rel=preload; as=style, </mcp>; title="a, b; c"; REL="Alternate MCP", <x>; rel="first"; rel="second""#,
    );
    assert_eq!(links.len(), 3);
    assert_eq!(links[0].target, "https://example.com/style.css");
    assert_eq!(links[0].rels, ["preload"]);
    assert_eq!(
        links[0].params,
        [
            ("rel".to_owned(), "preload".to_owned()),
            ("as".to_owned(), "style".to_owned())
        ]
    );
    assert_eq!(links[1].target, "/mcp");
    assert_eq!(links[1].rels, ["alternate", "mcp"]);
    assert_eq!(
        links[1].params[0],
        ("title".to_owned(), "a, b; c".to_owned())
    );
    // Only the first `rel` counts (RFC 8288 §3.3).
    assert_eq!(links[2].rels, ["first"]);
}

#[test]
fn link_header_escapes_and_malformed_links() {
    let links = parse_link_header(
        r#"garbage; rel=mcp, <"/a">; rel="mc\"p", <https://example.com/b> ; rel = mcp-server ;x, <unterminated"#,
    );
    let targets: Vec<&str> = links.iter().map(|l| l.target.as_str()).collect();
    assert_eq!(targets, [r#""/a""#, "https://example.com/b"]);
    assert_eq!(links[0].rels, [r#"mc"p"#]);
    assert_eq!(links[1].rels, ["mcp-server"]);
    assert_eq!(links[1].params[1], ("x".to_owned(), String::new()));
    assert!(parse_link_header("").is_empty());
}

#[test]
fn link_headers_across_field_lines_resolve_against_the_page() {
    let mut headers = HeaderMap::new();
    headers.append(
        LINK,
        HeaderValue::from_static(r#"</.well-known/ai-catalog.json>; rel="ai-catalog""#),
    );
    headers.append(
        LINK,
        HeaderValue::from_static(r#"<https://api.example.com/mcp>; rel="MCP-Server mcp""#),
    );
    let links = links_from_headers(&headers, &url("https://example.com/home"));
    assert_eq!(
        hrefs(&links),
        [
            (
                "https://example.com/.well-known/ai-catalog.json".to_owned(),
                LinkKind::AiCatalog,
                "ai-catalog".to_owned()
            ),
            mcp("https://api.example.com/mcp", "mcp-server"),
        ]
    );
    assert!(links.iter().all(|link| link.in_header));
    assert_eq!(links[1].via(), DiscoveredVia::LinkHeader);
}

#[test]
fn html_link_in_head_with_relation_in_any_case() {
    let html = r#"<!doctype html><html><head><title>x</title>
        <link rel="stylesheet" href="/s.css">
        <link rel="MCP-server" href="/mcp">
        <link rel="preconnect  ai-catalog" href="https://example.com/catalog.json" type="application/ai-catalog+json">
        </head><body></body></html>"#;
    assert_eq!(
        html_links(html),
        [
            mcp("https://example.com/mcp", "mcp-server"),
            (
                "https://example.com/catalog.json".to_owned(),
                LinkKind::AiCatalog,
                "ai-catalog".to_owned()
            ),
        ]
    );
    let links = links_from_html(html.as_bytes(), &url(PAGE));
    assert_eq!(links[0].via(), DiscoveredVia::LinkHtml);
}

#[test]
fn html_link_in_body_and_unquoted_attributes() {
    let html = "<html><head></head><body><p>hi</p>\
        <LINK REL=mcp HREF=https://example.com/rpc?a=1&amp;b=2>\
        <link href='/second' rel='mcp'/></body></html>";
    assert_eq!(
        html_links(html),
        [
            mcp("https://example.com/rpc?a=1&b=2", "mcp"),
            mcp("https://example.com/second", "mcp"),
        ]
    );
}

#[test]
fn links_in_comments_scripts_and_templates_do_not_count() {
    let html = r#"<html><head>
        <!-- <link rel="mcp" href="/commented"> -->
        <script>document.write('<link rel="mcp" href="/scripted">');</script>
        <style>/* <link rel="mcp" href="/styled"> */</style>
        <title><link rel="mcp" href="/titled"></title>
        <template><link rel="mcp" href="/templated"></template>
        <noscript><link rel="mcp" href="/noscript"></noscript>
        <link rel="mcp" href="/real">
        </head></html>"#;
    assert_eq!(html_links(html), [mcp("https://example.com/real", "mcp")]);
}

#[test]
fn links_without_href_or_relation_and_the_base_element() {
    let html = r#"<head><base href="https://cdn.example.com/root/">
        <link rel="mcp"><link rel="mcp" href="  "><link href="/norel">
        <link rel="nofollow mcp mcp-server" href="mcp"></head>"#;
    assert_eq!(
        html_links(html),
        [mcp("https://cdn.example.com/root/mcp", "mcp")]
    );
}

#[test]
fn home_links_put_the_header_first() {
    let mut headers = HeaderMap::new();
    headers.insert(LINK, HeaderValue::from_static("</from-header>; rel=mcp"));
    let body = br#"<link rel="mcp" href="/from-html">"#;
    let links = home_links(&headers, body, &url(PAGE));
    assert_eq!(
        hrefs(&links),
        [
            mcp("https://example.com/from-header", "mcp"),
            mcp("https://example.com/from-html", "mcp"),
        ]
    );
    let candidates = Candidate::from_links(&links);
    let via: Vec<DiscoveredVia> = candidates.iter().map(|c| c.via).collect();
    assert_eq!(via, [DiscoveredVia::LinkHeader, DiscoveredVia::LinkHtml]);
}

#[test]
fn html_past_the_scan_limit_is_not_read() {
    let mut html = "<p>".repeat(HTML_SCAN_LIMIT / 3 + 1);
    html.push_str(r#"<link rel="mcp" href="/late">"#);
    assert!(html_links(&html).is_empty());
    assert!(links_from_html(b"\xff\xfe<link rel=mcp href=/x>", &url(PAGE)).len() == 1);
}

#[test]
fn tokenizing_stops_only_after_every_link_and_base_tag() {
    // The tokenizer stops once it has seen as many `<link`/`<base` tags as the bytes hold; a
    // hidden one (comment), a look-alike tag name and a late `<base>` must not end it early.
    let html = r#"<head><link rel="mcp" href="a"><!-- <link rel=mcp href=hidden> --></head>
        <body><linkage rel=mcp href=no><LINK rel=mcp href=b><p>text</p>
        <BASE href="https://cdn.example.com/x/"><p>after</p></body>"#;
    assert_eq!(
        html_links(html),
        [
            mcp("https://cdn.example.com/x/a", "mcp"),
            mcp("https://cdn.example.com/x/b", "mcp"),
        ]
    );
    assert!(html_links("<html><body><p>no link here</p></body></html>").is_empty());
}

#[test]
fn api_surface_relations_are_found_beside_mcp() {
    let mut headers = HeaderMap::new();
    headers.append(
        LINK,
        HeaderValue::from_static(
            r#"</.well-known/api-catalog>; rel="api-catalog", </openapi.json>; rel="service-desc alternate""#,
        ),
    );
    let html = r#"<link rel="Service-Doc" href="/docs"><link rel="mcp service-desc" href="/both">
        <link rel="stylesheet" href="/s.css">"#;
    let links = home_links(&headers, html.as_bytes(), &url(PAGE));
    assert_eq!(
        hrefs(&links),
        [
            (
                "https://example.com/.well-known/api-catalog".to_owned(),
                LinkKind::ApiCatalog,
                "api-catalog".to_owned()
            ),
            (
                "https://example.com/openapi.json".to_owned(),
                LinkKind::ServiceDesc,
                "service-desc".to_owned()
            ),
            (
                "https://example.com/docs".to_owned(),
                LinkKind::ServiceDoc,
                "service-doc".to_owned()
            ),
            // One link with two relations is found once per kind.
            mcp("https://example.com/both", "mcp"),
            (
                "https://example.com/both".to_owned(),
                LinkKind::ServiceDesc,
                "service-desc".to_owned()
            ),
        ]
    );
    // Only `mcp` links are endpoint candidates.
    let candidates = Candidate::from_links(&links);
    assert_eq!(candidates.len(), 1);
    assert_eq!(candidates[0].raw, "/both");
}
