//! The small documents the readiness phase asks for itself: the agent skills index, the
//! sitemap, and the homepage asked for markdown.

use serde_json::Value;

use super::llms::trim_start;
use crate::net::content::{is_html_type, looks_like_html, strip_bom};
use crate::net::json::parse_json;

/// The agent skills discovery index (`/.well-known/agent-skills/index.json`, v0.2.0; the
/// earlier `/.well-known/skills/index.json`): a JSON object with a `skills` array that is not
/// empty. `Ok` with the number of skills listed, `Err` with why not.
pub fn read_skills_index(body: &[u8]) -> Result<usize, &'static str> {
    let body = trim_start(strip_bom(body));
    if body.is_empty() {
        return Err("empty body");
    }
    if looks_like_html(body) {
        return Err("an HTML page, not an index");
    }
    match parse_json(body) {
        Ok(Value::Object(index)) => match index.get("skills") {
            Some(Value::Array(skills)) if !skills.is_empty() => Ok(skills.len()),
            Some(Value::Array(_)) => Err("an empty skills array"),
            Some(_) => Err("skills is not an array"),
            None => Err("no skills array"),
        },
        Ok(_) => Err("JSON, not an object"),
        Err(_) => Err("not valid JSON"),
    }
}

/// A sitemap (sitemaps.org): XML whose root is `<urlset>` or `<sitemapindex>`, looked for
/// in the first bytes (a sitemap can be large; the cap keeps its start).
pub fn read_sitemap(body: &[u8]) -> Result<(), &'static str> {
    let body = trim_start(strip_bom(body));
    if body.is_empty() {
        return Err("empty body");
    }
    if looks_like_html(body) {
        return Err("an HTML page, not a sitemap");
    }
    let head = &body[..body.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    if text.contains("<urlset") || text.contains("<sitemapindex") {
        Ok(())
    } else {
        Err("no <urlset> or <sitemapindex> root")
    }
}

/// The homepage asked with `Accept: text/markdown`: counts when the answer says
/// `text/markdown` and its body is not an HTML page.
pub fn read_markdown_answer(media_type: Option<&str>, body: &[u8]) -> Result<(), &'static str> {
    match media_type {
        Some("text/markdown") if !looks_like_html(trim_start(strip_bom(body))) => Ok(()),
        Some("text/markdown") => Err("says text/markdown, but the body is an HTML page"),
        Some(t) if is_html_type(t) => Err("answered HTML"),
        _ => Err("not text/markdown"),
    }
}
