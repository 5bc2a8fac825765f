//! robots.txt read for the readiness checks (the survey fetched it once; this reads the same
//! body again): whether it is a robots file at all (RFC 9309), the groups that name AI
//! crawlers and what they allow, the content-use lines (Cloudflare's `Content-Signal:`, the
//! IETF AIPREF draft's `Content-Usage:`), `Sitemap:` and `Agentmap:` lines.

use super::bots::{Access, AI_CRAWLERS};
use crate::net::content::{looks_like_html, strip_bom};

/// Lines a robots file has that count it as one (RFC 9309's records, the sitemaps extension,
/// and the content-use lines).
const DIRECTIVES: [&str; 8] = [
    "user-agent",
    "allow",
    "disallow",
    "sitemap",
    "crawl-delay",
    "content-signal",
    "content-usage",
    "agentmap",
];

/// Values kept as evidence are cut to this many characters, and at most this many lines of
/// each kind are kept: a robots file can be half a megabyte.
const KEPT_CHARS: usize = 120;
const KEPT_LINES: usize = 8;

/// An AI crawler a group names, with what the groups naming it allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotRule {
    /// The token as [`AI_CRAWLERS`] spells it (never the file's text).
    pub bot: &'static str,
    pub access: Access,
}

impl BotRule {
    /// The record's form: `GPTBot=disallow`.
    pub fn label(&self) -> String {
        format!("{}={}", self.bot, self.access.as_str())
    }
}

/// What a robots.txt body holds for the readiness checks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RobotsFile {
    /// A robots file: not an HTML page, and at least one line [`DIRECTIVES`] names.
    pub is_file: bool,
    /// The body is an HTML page (a catch-all's homepage at `/robots.txt`).
    pub html: bool,
    pub ai_rules: Vec<BotRule>,
    /// The values of `Content-Signal:` lines that set at least one `key=value`.
    pub content_signals: Vec<String>,
    /// The values of `Content-Usage:` lines that set at least one preference.
    pub content_usage: Vec<String>,
    pub sitemaps: usize,
    pub agentmaps: usize,
}

/// A record line: its key (lower case) and value, comments and white space removed.
fn record_line(line: &str) -> Option<(String, &str)> {
    let line = line.split('#').next().unwrap_or_default().trim();
    let (key, value) = line.split_once(':')?;
    Some((key.trim().to_ascii_lowercase(), value.trim()))
}

/// A value kept as evidence: cut, and only when it sets a preference (`key=value` for
/// Content-Signal, any token for Content-Usage).
fn kept(value: &str) -> String {
    value.chars().take(KEPT_CHARS).collect()
}

/// Reads a robots.txt body.
pub fn read_robots_file(body: &[u8]) -> RobotsFile {
    let body = strip_bom(body);
    let mut out = RobotsFile::default();
    if looks_like_html(super::llms::trim_start(body)) {
        out.html = true;
        return out;
    }
    let text = String::from_utf8_lossy(body);
    // Each crawler's rules, merged over every group naming it (RFC 9309 §2.2.1).
    let mut rules: Vec<Vec<(bool, String)>> = vec![Vec::new(); AI_CRAWLERS.len()];
    let mut named = [false; AI_CRAWLERS.len()];
    // The crawlers the current group names; a user-agent line after a rule starts a group.
    let mut group: Vec<usize> = Vec::new();
    let mut in_rules = false;
    for line in text.lines() {
        let Some((key, value)) = record_line(line) else {
            continue;
        };
        if !DIRECTIVES.contains(&key.as_str()) {
            continue;
        }
        out.is_file = true;
        match key.as_str() {
            "user-agent" => {
                if in_rules {
                    group.clear();
                    in_rules = false;
                }
                if let Some(at) = AI_CRAWLERS
                    .iter()
                    .position(|bot| bot.eq_ignore_ascii_case(value))
                {
                    named[at] = true;
                    group.push(at);
                }
            }
            "allow" | "disallow" => {
                in_rules = true;
                for at in &group {
                    rules[*at].push((key == "allow", value.to_owned()));
                }
            }
            "content-signal" if value.contains('=') => {
                if out.content_signals.len() < KEPT_LINES {
                    out.content_signals.push(kept(value));
                }
            }
            "content-usage" if !value.is_empty() => {
                if out.content_usage.len() < KEPT_LINES {
                    out.content_usage.push(kept(value));
                }
            }
            "sitemap" if !value.is_empty() => out.sitemaps += 1,
            "agentmap" if !value.is_empty() => out.agentmaps += 1,
            _ => in_rules |= key == "crawl-delay",
        }
    }
    out.ai_rules = AI_CRAWLERS
        .iter()
        .zip(named)
        .zip(&rules)
        .filter(|((_, named), _)| *named)
        .map(|((bot, _), rules)| BotRule {
            bot,
            access: Access::of(rules),
        })
        .collect();
    out
}
