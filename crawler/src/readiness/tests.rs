use http::{HeaderMap, HeaderValue};

use super::*;

fn rules(file: &RobotsFile) -> Vec<String> {
    file.ai_rules.iter().map(BotRule::label).collect()
}

#[test]
fn robots_ai_rules_merge_groups_and_read_what_each_bot_may_do() {
    let body = b"User-agent: *\nDisallow: /private\n\n\
        User-agent: gptbot\nUser-agent: CCBot\nDisallow: /\n\n\
        User-agent: ClaudeBot\nDisallow: /drafts\nAllow: /\n\n\
        User-agent: Google-Extended\nDisallow:\n\n\
        User-agent: GPTBot\nAllow: /public\n";
    let file = read_robots_file(body);
    assert!(file.is_file && !file.html);
    // GPTBot's two groups merge: `Disallow: /` with an `Allow:` is partial.
    assert_eq!(
        rules(&file),
        [
            "GPTBot=partial",
            "ClaudeBot=partial",
            "Google-Extended=allow",
            "CCBot=disallow"
        ]
    );
}

#[test]
fn a_user_agent_line_after_rules_starts_a_new_group() {
    let body = b"User-agent: PerplexityBot\nDisallow: /\nUser-agent: Bytespider\nAllow: /\n";
    let file = read_robots_file(body);
    assert_eq!(rules(&file), ["PerplexityBot=disallow", "Bytespider=allow"]);
}

#[test]
fn robots_without_ai_groups_and_an_html_page_at_robots() {
    let plain = read_robots_file(b"User-agent: *\nDisallow: /admin # keep out\n");
    assert!(plain.is_file && plain.ai_rules.is_empty());
    // A comment naming a bot is not a group.
    let comment = read_robots_file(b"# User-agent: GPTBot\nUser-agent: *\nAllow: /\n");
    assert!(comment.ai_rules.is_empty());
    let html = read_robots_file(b"\n <!DOCTYPE html><html><body>User-agent: GPTBot</body>");
    assert!(html.html && !html.is_file && html.ai_rules.is_empty());
    let prose = read_robots_file(b"Welcome to our site");
    assert!(!prose.is_file);
}

#[test]
fn content_signals_usage_sitemap_and_agentmap_lines() {
    let body = b"User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Signal:\n\
        Content-Usage: train-ai=n\nSitemap: https://x.example/sitemap.xml\n\
        Agentmap: https://x.example/agents.json\n";
    let file = read_robots_file(body);
    assert_eq!(file.content_signals, ["search=yes, ai-train=no"]);
    assert_eq!(file.content_usage, ["train-ai=n"]);
    assert_eq!((file.sitemaps, file.agentmaps), (1, 1));
    let none = read_robots_file(b"User-agent: *\nContent-Signal: nothing\nSitemap:\n");
    assert!(none.content_signals.is_empty() && none.sitemaps == 0);
}

#[test]
fn llms_txt_is_markdown_opening_with_an_h1_never_html() {
    assert_eq!(
        read_llms(b"\xEF\xBB\xBF\n# Example\n> summary\n"),
        TextShape::Markdown
    );
    assert_eq!(read_llms(b"<!doctype html><h1># no</h1>"), TextShape::Html);
    assert_eq!(read_llms(b"  \n"), TextShape::Empty);
    assert_eq!(read_llms(b"Example docs\n- [a](b)"), TextShape::NotMarkdown);
    assert_eq!(read_llms(b"#nospace"), TextShape::NotMarkdown);
}

#[test]
fn the_control_tells_the_catch_alls_page_from_a_file() {
    let control = Control {
        catch_all: true,
        body: b"<html>home</html>".to_vec(),
    };
    assert!(same_as_control(Some(&control), b"<html>home</html>"));
    assert!(!same_as_control(Some(&control), b"# Real file\n"));
    let quiet = Control::default();
    assert!(!same_as_control(Some(&quiet), b""));
    assert!(!same_as_control(None, b"<html>home</html>"));
    let path = control_path("Example.COM");
    assert_eq!(path, control_path("example.com"));
    assert_ne!(path, control_path("example.org"));
    assert!(path.starts_with("/mcpcensus-negative-control-") && path.ends_with(".txt"));
}

#[test]
fn link_header_relations_an_agent_can_follow() {
    let mut headers = HeaderMap::new();
    headers.append(
        http::header::LINK,
        HeaderValue::from_static(
            "</.well-known/api-catalog>; rel=\"api-catalog\", </style.css>; rel=preload",
        ),
    );
    headers.append(
        http::header::LINK,
        HeaderValue::from_static("</openapi.json>; rel=\"service-desc describedby\""),
    );
    assert_eq!(
        agent_link_rels(&headers),
        ["api-catalog", "service-desc", "describedby"]
    );
    let mut other = HeaderMap::new();
    other.append(
        http::header::LINK,
        HeaderValue::from_static("</a.css>; rel=stylesheet"),
    );
    assert!(agent_link_rels(&other).is_empty());
    assert!(!content_usage_header(&other));
    other.append("content-usage", HeaderValue::from_static("train-ai=n"));
    assert!(content_usage_header(&other));
}

#[test]
fn webmcp_markers_are_form_tool_names_only() {
    let page = br#"<html><form toolname="searchFlights" tooldescription="Search">
        <input name=q></form><FORM Tool-Name='book'></FORM>
        <form action="/x" data-toolname="no"></form><formula toolname="no">
        <div toolname="not a form"></div>"#;
    assert_eq!(web_mcp_forms(page), 2);
    assert_eq!(web_mcp_forms(b"<form title=\"toolname=x\"></form>"), 0);
    assert_eq!(web_mcp_forms(b""), 0);
}

#[test]
fn the_skills_index_needs_a_skills_array() {
    assert_eq!(
        read_skills_index(br#"{"skills":[{"name":"pdf"},{"name":"csv"}]}"#),
        Ok(2)
    );
    assert!(read_skills_index(br#"{"skills":[]}"#).is_err());
    assert!(read_skills_index(br#"{"name":"x"}"#).is_err());
    assert!(read_skills_index(b"<html></html>").is_err());
    assert!(read_skills_index(b"[1]").is_err());
}

#[test]
fn sitemaps_and_markdown_answers() {
    assert!(read_sitemap(b"<?xml version=\"1.0\"?>\n<urlset xmlns=\"x\"></urlset>").is_ok());
    assert!(read_sitemap(b"<sitemapindex></sitemapindex>").is_ok());
    assert!(read_sitemap(b"<!DOCTYPE html><html><urlset>").is_err());
    assert!(read_sitemap(b"<rss></rss>").is_err());
    assert!(read_markdown_answer(Some("text/markdown"), b"# Home\n").is_ok());
    assert!(read_markdown_answer(Some("text/markdown"), b"<html></html>").is_err());
    assert!(read_markdown_answer(Some("text/html"), b"# Home").is_err());
    assert!(read_markdown_answer(None, b"# Home").is_err());
}
