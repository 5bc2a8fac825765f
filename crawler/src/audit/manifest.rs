//! The manifest rules: `/.well-known/mcp.json`, read with the card parser (the manifest has no
//! standard shape; in the wild it carries the older card fields). Card rules never apply to
//! it, nor manifest rules to a card: the discovery audit words each finding for one of the two.

use mcpcensus_store::Finding;
use url::Url;

use super::evidence::{name_list, not_an_array, quoted, unusable_text};
use super::rules::{
    MANIFEST_NO_DESCRIPTION, MANIFEST_NO_NAME, NO_PROTOCOL_VERSION, NO_RESOURCES_ARRAY,
    NO_TOOLS_ARRAY, NO_TOOL_DESCRIBED, SOME_TOOLS_UNDESCRIBED, TOOLS_EMPTY,
};
use crate::discovery::{Field, ParsedCard, ToolEntry};

/// The findings on a manifest that parsed (`MCP-DISC-002`, "served", is the site audit's).
pub(super) fn audit_manifest(url: &Url, manifest: &ParsedCard) -> Vec<Finding> {
    let mut out = Vec::new();
    // `serverInfo.name` is the older spelling of the same identity.
    if manifest.server_name().is_none() {
        let why = unusable_text("name", &manifest.name).unwrap_or_default();
        out.push(MANIFEST_NO_NAME.finding(url, why));
    }
    if let Some(why) = unusable_text("description", &manifest.description) {
        out.push(MANIFEST_NO_DESCRIPTION.finding(url, why));
    }
    match &manifest.tools {
        Field::Present(tools) if tools.is_empty() => {
            out.push(TOOLS_EMPTY.finding(url, "`tools` is []"));
        }
        Field::Present(tools) => out.extend(tool_descriptions(url, tools)),
        other => {
            let why = not_an_array("tools", other).unwrap_or_default();
            out.push(NO_TOOLS_ARRAY.finding(url, why));
        }
    }
    // An explicit `"resources": []` is a tools-only server saying so, not a missing array.
    if let Some(why) = not_an_array("resources", &manifest.resources) {
        out.push(NO_RESOURCES_ARRAY.finding(url, why));
    }
    if !declares_a_revision(manifest) {
        let why = unusable_text("protocolVersion", &manifest.protocol_version).unwrap_or_default();
        out.push(NO_PROTOCOL_VERSION.finding(url, why));
    }
    out
}

/// `MCP-MAN-003` when part of the tools are described, `MCP-MAN-004` when none is.
fn tool_descriptions(url: &Url, tools: &[ToolEntry]) -> Option<Finding> {
    let undescribed: Vec<String> = tools
        .iter()
        .enumerate()
        .filter(|(_, tool)| !tool.has_description())
        .map(|(index, tool)| tool_label(index, tool))
        .collect();
    if undescribed.is_empty() {
        return None;
    }
    let names = name_list(undescribed.iter().map(String::as_str));
    Some(if undescribed.len() == tools.len() {
        NO_TOOL_DESCRIBED.finding(url, format!("none of {} tools: {names}", tools.len()))
    } else {
        SOME_TOOLS_UNDESCRIBED.finding(
            url,
            format!("{} of {} tools: {names}", undescribed.len(), tools.len()),
        )
    })
}

/// A tool's name, or its position when it has none.
fn tool_label(index: usize, tool: &ToolEntry) -> String {
    match tool.name.text() {
        Some(name) if !name.trim().is_empty() => name.to_owned(),
        _ => format!("tools[{index}]"),
    }
}

/// Whether anything in the manifest says which revision it speaks: `protocolVersion`, or a
/// non-empty `supportedProtocolVersions` at the top or in a remote.
fn declares_a_revision(manifest: &ParsedCard) -> bool {
    let listed = |versions: &Field<Vec<String>>| versions.get().is_some_and(|v| !v.is_empty());
    manifest
        .protocol_version
        .text()
        .is_some_and(|version| !version.trim().is_empty())
        || listed(&manifest.supported_protocol_versions)
        || manifest.remotes.get().is_some_and(|remotes| {
            remotes
                .iter()
                .any(|remote| listed(&remote.supported_protocol_versions))
        })
}

/// The evidence of `MCP-DISC-002`: what was served, and what to do given the cards found.
pub(super) fn served_evidence(
    parsed: Option<&ParsedCard>,
    why_not: Option<String>,
    card: Option<&str>,
) -> String {
    let what = match (parsed, why_not) {
        (Some(manifest), _) => match manifest.server_name() {
            Some(name) => format!("served, naming {}", quoted(name)),
            None => "served".to_owned(),
        },
        (None, Some(why)) => format!("served, {why}"),
        (None, None) => "served".to_owned(),
    };
    match card {
        Some(card) => format!("{what}; a server card exists at {card}: remove the manifest"),
        None => format!("{what}; no server card yet: publish one first"),
    }
}
