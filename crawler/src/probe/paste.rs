//! A pasted tool list (`mcpcensus grade FILE`): a `tools/list` result (`{"tools": [...]}`, or
//! the whole JSON-RPC response carrying it) or a JSON array of tools, at most 200. Checked with
//! the same rules and grades as a probed list; SW-MCP-001 stays high for a pasted list.

use mcpcensus_store::{Finding, ToolInfo};
use serde_json::{json, Value};

use super::facts::ToolsRead;
use super::fingerprint::{tool_fingerprint, tool_list_fingerprint};
use super::grades::{grade_tools, ToolGrades};
use super::rules::{server_rules, ListSource, PASTED_MAX_TOOLS};
use crate::net::json::parse_json;
use crate::session::read_tools;

/// Why a pasted list was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PasteError {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("neither a tools/list result nor a JSON array of tools")]
    NoTools,
    #[error("{0} tools: a pasted list holds at most 200")]
    TooMany(usize),
}

/// What `grade` reports for a pasted list.
#[derive(Debug, Clone, PartialEq)]
pub struct PastedReport {
    /// The tools, fingerprinted, with their letters.
    pub tools: Vec<ToolInfo>,
    pub tool_list_fingerprint: Option<String>,
    pub findings: Vec<Finding>,
    pub grades: ToolGrades,
}

/// The tool entries of a pasted text.
pub fn pasted_entries(text: &str) -> Result<Vec<Value>, PasteError> {
    let value: Value =
        parse_json(text.as_bytes()).map_err(|e| PasteError::NotJson(e.to_string()))?;
    let entries = match value {
        Value::Array(items) => items,
        Value::Object(ref obj) => obj
            .get("tools")
            .or_else(|| obj.get("result").and_then(|r| r.get("tools")))
            .and_then(Value::as_array)
            .cloned()
            .ok_or(PasteError::NoTools)?,
        _ => return Err(PasteError::NoTools),
    };
    if entries.len() > PASTED_MAX_TOOLS {
        return Err(PasteError::TooMany(entries.len()));
    }
    Ok(entries)
}

/// Checks and grades a pasted list.
pub fn grade_pasted(text: &str) -> Result<PastedReport, PasteError> {
    let entries = pasted_entries(text)?;
    let read = ToolsRead::listing(entries);
    let grades = grade_tools(&read.entries);
    let mut tools = read_tools(&json!({"tools": read.entries}), PASTED_MAX_TOOLS).tools;
    for tool in &mut tools {
        tool.fingerprint = Some(tool_fingerprint(tool));
        tool.grade = grades.letter_of(&tool.name).map(str::to_owned);
    }
    Ok(PastedReport {
        tool_list_fingerprint: tool_list_fingerprint(&tools),
        tools,
        findings: server_rules(&read, ListSource::Pasted, None),
        grades,
    })
}
