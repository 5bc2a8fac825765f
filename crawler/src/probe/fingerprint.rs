//! Fingerprints: a stable hash per tool (name, description, input schema) and per tool list,
//! so reports can show tools whose descriptions changed between runs. The input schema enters
//! through its canonical hash (`input_schema_hash`), so key order never changes a fingerprint.

use mcpcensus_store::ToolInfo;
use serde_json::json;
use xxhash_rust::xxh3::xxh3_64;

use crate::session::canonical_json;

/// xxh3-64 of `{"d":description,"n":name,"s":input_schema_hash}` in canonical JSON, 16 hex digits.
pub fn tool_fingerprint(tool: &ToolInfo) -> String {
    let text = canonical_json(&json!({
        "n": tool.name,
        "d": tool.description,
        "s": tool.input_schema_hash,
    }));
    format!("{:016x}", xxh3_64(text.as_bytes()))
}

/// xxh3-64 of the tools' fingerprints, sorted, one a line: the list's order does not count,
/// any tool added, removed or changed does. `None` for no tools.
pub fn tool_list_fingerprint(tools: &[ToolInfo]) -> Option<String> {
    if tools.is_empty() {
        return None;
    }
    let mut prints: Vec<String> = tools
        .iter()
        .map(|t| t.fingerprint.clone().unwrap_or_else(|| tool_fingerprint(t)))
        .collect();
    prints.sort_unstable();
    Some(format!("{:016x}", xxh3_64(prints.join("\n").as_bytes())))
}
