//! The deep probe's MCP server rules (`docs/rules.md`, "MCP server rules"):
//!
//! - **SW-MCP-001** the tool list was answered without authentication. High by default; medium
//!   only when the list was read whole (no pending `nextCursor`, at most 200 tools, every entry
//!   with a string name), it was read by the probe (a pasted list stays high) and every tool
//!   declares itself read-only (`annotations.readOnlyHint` true, `destructiveHint` not true).
//!   The evidence does not depend on the severity.
//! - **SW-MCP-011** instruction-like text in a tool description: medium when it only steers the
//!   model toward the tool; high for concealment, override and injected instruction markers,
//!   and for steering that also names conversation, prompt or credential material. One finding
//!   per tool, at the worse severity.
//!
//! Descriptions are matched as phrases on a normalised text (lowercase, every run of
//! non-alphanumeric characters one space), so punctuation and line breaks do not hide a phrase
//! and a phrase never matches inside a longer word. Markers are matched on the lowercased raw
//! text, since their punctuation is the signal.

use mcpcensus_store::Finding;
use serde_json::Value;

pub use super::facts::PASTED_MAX_TOOLS;
use super::facts::{ToolsRead, MAX_KEPT_TOOLS};
use crate::rule::Severity;

pub use crate::rule::{INSTRUCTION_LIKE_DESCRIPTION, UNAUTHENTICATED_TOOL_LIST};

/// Where a tool list came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListSource {
    /// Read by the probe, without credentials.
    Probe,
    /// Pasted (`mcpcensus grade FILE`).
    Pasted,
}

/// How instruction-like a description is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SteerLevel {
    /// Steers the model toward the tool.
    Steering,
    /// Concealment, override, an injected marker, or steering naming sensitive material.
    Manipulative,
}

/// What made a description instruction-like: the level and the phrase found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructionMatch {
    pub level: SteerLevel,
    /// `concealment`, `override`, `marker`, `steering` or `steering+sensitive`.
    pub kind: &'static str,
    pub phrase: String,
}

/// Injected instruction markers (raw lowercase text).
const MARKERS: &[&str] = &[
    "<important>",
    "</important>",
    "<system>",
    "</system>",
    "<instructions>",
    "</instructions>",
    "[inst]",
    "[/inst]",
    "<|im_start|>",
    "<|system|>",
    "[system]",
    "### system",
    "system prompt:",
    "<!--",
];

/// Concealment (normalised phrases).
const CONCEALMENT: &[&str] = &[
    "do not tell the user",
    "don t tell the user",
    "dont tell the user",
    "never tell the user",
    "do not mention",
    "don t mention",
    "never mention",
    "do not reveal",
    "don t reveal",
    "never reveal",
    "without telling the user",
    "without informing the user",
    "without the user knowing",
    "without notifying the user",
    "do not inform the user",
    "do not notify the user",
    "do not show the user",
    "hide this from",
    "keep this secret",
    "keep this hidden",
    "the user must not know",
    "the user should not know",
    "secretly",
];

/// Override: a verb, up to two qualifiers, a noun.
const OVERRIDE_VERBS: &[&str] = &["ignore", "disregard", "forget", "override", "bypass"];
const OVERRIDE_QUALIFIERS: &[&str] = &[
    "all", "any", "previous", "prior", "above", "earlier", "other", "your", "the", "these",
    "those", "system", "safety", "existing", "of",
];
const OVERRIDE_NOUNS: &[&str] = &[
    "instructions",
    "instruction",
    "rules",
    "prompts",
    "prompt",
    "directions",
    "guidelines",
    "guardrails",
];
const OVERRIDE_PHRASES: &[&str] = &["you are now", "new instructions", "from now on you"];

/// Steering toward the tool (normalised phrases).
const STEERING: &[&str] = &[
    "always use this tool",
    "always call this tool",
    "always use this function",
    "you must use this tool",
    "you must call this tool",
    "you must always",
    "must always be called",
    "must always be used",
    "must be called first",
    "call this tool first",
    "use this tool first",
    "call this tool before",
    "use this tool before",
    "run this tool before",
    "use this tool instead",
    "call this tool instead",
    "prefer this tool",
    "instead of any other tool",
    "instead of other tools",
    "do not use any other tool",
    "do not use other tools",
    "never use any other tool",
    "never use other tools",
    "before using any other tool",
    "before calling any other tool",
    "before any other tool",
    "this tool must be used",
    "this tool should always be used",
    "the assistant must",
    "the model must",
    "the ai must",
];

/// Conversation, prompt or credential material (normalised phrases).
const SENSITIVE: &[&str] = &[
    "conversation",
    "chat history",
    "previous messages",
    "message history",
    "system prompt",
    "prompt",
    "prompts",
    "credential",
    "credentials",
    "password",
    "passwords",
    "api key",
    "api keys",
    "secret",
    "secrets",
    "private key",
    "ssh key",
    "access token",
    "bearer token",
    "session token",
    "environment variables",
    "env file",
];

/// Lowercase, every run of non-alphanumerics one space, padded with a space on each side.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push(' ');
    let mut space = true;
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
            space = false;
        } else if !space {
            out.push(' ');
            space = true;
        }
    }
    if !space {
        out.push(' ');
    }
    out
}

fn find_phrase<'p>(norm: &str, phrases: &[&'p str]) -> Option<&'p str> {
    phrases
        .iter()
        .find(|p| norm.contains(&format!(" {p} ")))
        .copied()
}

fn find_override(norm: &str) -> Option<String> {
    if let Some(p) = find_phrase(norm, OVERRIDE_PHRASES) {
        return Some(p.to_owned());
    }
    let words: Vec<&str> = norm.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        if !OVERRIDE_VERBS.contains(w) {
            continue;
        }
        for (j, next) in words.iter().enumerate().skip(i + 1).take(3) {
            if OVERRIDE_NOUNS.contains(next) {
                return Some(words[i..=j].join(" "));
            }
            if !OVERRIDE_QUALIFIERS.contains(next) {
                break;
            }
        }
    }
    None
}

/// Whether a description is instruction-like, and how badly (the worse match wins).
pub fn instruction_like(description: &str) -> Option<InstructionMatch> {
    let lower = description.to_lowercase();
    let manipulative = |kind, phrase: String| InstructionMatch {
        level: SteerLevel::Manipulative,
        kind,
        phrase,
    };
    if let Some(m) = MARKERS.iter().find(|m| lower.contains(*m)) {
        return Some(manipulative("marker", (*m).to_owned()));
    }
    let norm = normalise(description);
    if let Some(p) = find_phrase(&norm, CONCEALMENT) {
        return Some(manipulative("concealment", p.to_owned()));
    }
    if let Some(p) = find_override(&norm) {
        return Some(manipulative("override", p));
    }
    let steering = find_phrase(&norm, STEERING)?;
    if let Some(s) = find_phrase(&norm, SENSITIVE) {
        return Some(manipulative(
            "steering+sensitive",
            format!("{steering} … {s}"),
        ));
    }
    Some(InstructionMatch {
        level: SteerLevel::Steering,
        kind: "steering",
        phrase: steering.to_owned(),
    })
}

/// A tool entry declares itself read-only: `readOnlyHint` true and `destructiveHint` not true.
pub fn declares_read_only(tool: &Value) -> bool {
    let hint = |key: &str| tool.get("annotations").and_then(|a| a.get(key));
    hint("readOnlyHint") == Some(&Value::Bool(true))
        && hint("destructiveHint") != Some(&Value::Bool(true))
}

/// The findings of the server rules on a tool list read from `url` (the endpoint; `None` for a
/// pasted list).
pub fn server_rules(tools: &ToolsRead, source: ListSource, url: Option<&str>) -> Vec<Finding> {
    let mut out = Vec::new();
    if tools.answered && !tools.entries.is_empty() {
        let names: Vec<&str> = tools
            .entries
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str))
            .take(10)
            .collect();
        let more = if tools.listed > names.len() {
            ", …"
        } else {
            ""
        };
        let kept = match tools.cut() {
            0 => String::new(),
            cut => format!(" ({cut} past the first {MAX_KEPT_TOOLS} not kept)"),
        };
        let evidence = format!(
            "tools/list answered without credentials, listing {} tool(s){kept}: {}{more}",
            tools.listed,
            names.join(", ")
        );
        let graded_down = source == ListSource::Probe
            && tools.whole()
            && tools.entries.iter().all(declares_read_only);
        let severity = if graded_down {
            Severity::Medium
        } else {
            Severity::High
        };
        out.push(UNAUTHENTICATED_TOOL_LIST.finding_on(severity, evidence, url, None));
    }
    for tool in &tools.entries {
        let Some(description) = tool.get("description").and_then(Value::as_str) else {
            continue;
        };
        let Some(found) = instruction_like(description) else {
            continue;
        };
        let severity = match found.level {
            SteerLevel::Steering => Severity::Medium,
            SteerLevel::Manipulative => Severity::High,
        };
        let name = tool.get("name").and_then(Value::as_str);
        let evidence = format!("{} in the description: \"{}\"", found.kind, found.phrase);
        out.push(INSTRUCTION_LIKE_DESCRIPTION.finding_on(severity, evidence, url, name));
    }
    out
}
