//! The tools a `tools/list` result names, and the canonical hash of an input schema.

use mcpcensus_store::{FirstToolNames, ToolInfo, FIRST_TOOL_NAMES};
use serde_json::Value;
use xxhash_rust::xxh3::xxh3_64;

use crate::capability::tag_tool;

/// The tools of one `tools/list` result.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolList {
    /// Named tools, up to the cap, in the server's order.
    pub tools: Vec<ToolInfo>,
    /// Named tools in the result (all of them, also past the cap).
    pub count: usize,
}

impl ToolList {
    /// The names kept, up to the cap.
    pub fn names(&self) -> Vec<String> {
        self.tools.iter().map(|t| t.name.clone()).collect()
    }

    /// The first 25 names (the survey: "the record keeps up to 25 tool names").
    pub fn first_names(&self) -> FirstToolNames {
        let names = self.tools.iter().take(FIRST_TOOL_NAMES);
        FirstToolNames(names.map(|t| t.name.clone()).collect())
    }
}

/// Reads `result.tools`. A tool counts when it has a non-empty string `name` ("names at least 1
/// tool"); entries without one are skipped. A result with no `tools` array lists no tool.
/// `nextCursor` is never followed: the session sends at most one `tools/list`.
pub fn read_tools(result: &Value, cap: usize) -> ToolList {
    let entries = result
        .get("tools")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut list = ToolList::default();
    for entry in entries {
        let Some(name) = entry.get("name").and_then(Value::as_str) else {
            continue;
        };
        if name.is_empty() {
            continue;
        }
        list.count += 1;
        if list.tools.len() < cap {
            list.tools.push(tool_info(name, entry));
        }
    }
    list
}

fn tool_info(name: &str, entry: &Value) -> ToolInfo {
    let text = |key: &str| entry.get(key).and_then(Value::as_str).map(str::to_owned);
    ToolInfo {
        name: name.to_owned(),
        title: text("title"),
        description: text("description"),
        annotations: entry
            .get("annotations")
            .filter(|a| a.is_object())
            .map(canonical_json),
        input_schema_hash: entry
            .get("inputSchema")
            .filter(|s| !s.is_null())
            .map(schema_hash),
        // Fingerprints and grades belong to the analysis stage.
        fingerprint: None,
        grade: None,
        capabilities: tag_tool(
            name,
            entry.get("description").and_then(Value::as_str),
            entry.get("annotations").filter(|a| a.is_object()),
            entry.get("inputSchema"),
        )
        .list(),
    }
}

/// xxh3-64 of the canonical JSON text, as 16 hex digits.
pub fn schema_hash(schema: &Value) -> String {
    format!("{:016x}", xxh3_64(canonical_json(schema).as_bytes()))
}

/// Compact JSON with every object's keys sorted (by their UTF-8 bytes). The keys are sorted here
/// rather than trusting `serde_json::Map`'s order, which follows insertion order as soon as any
/// crate in the build enables serde_json's `preserve_order` feature.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push(':');
                write_canonical(item, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// The tool names in a `tools/list` answer cut at the cap: every entry of the `tools` array
/// that is complete in `text`, in order, up to `cap` names (the rest of the list was never
/// read). Reads whole JSON values only, never a name cut in the middle.
pub fn names_in_cut_list(text: &[u8], cap: usize) -> Vec<String> {
    let mut names = Vec::new();
    let Some(mut at) = tools_array_start(text) else {
        return names;
    };
    while names.len() < cap {
        at += skip_space(&text[at..]);
        let mut values = serde_json::Deserializer::from_slice(&text[at..]).into_iter::<Value>();
        let Some(Ok(entry)) = values.next() else {
            break;
        };
        at += values.byte_offset();
        if let Some(name) = entry
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.is_empty())
        {
            names.push(name.to_owned());
        }
        at += skip_space(&text[at..]);
        if text.get(at) != Some(&b',') {
            break;
        }
        at += 1;
    }
    names
}

/// Just past the `[` of the first `"tools": [` in `text`.
fn tools_array_start(text: &[u8]) -> Option<usize> {
    const KEY: &[u8] = b"\"tools\"";
    let mut from = 0;
    while let Some(found) = text[from..].windows(KEY.len()).position(|w| w == KEY) {
        let mut at = from + found + KEY.len();
        at += skip_space(&text[at..]);
        if text.get(at) == Some(&b':') {
            at += 1;
            at += skip_space(&text[at..]);
            if text.get(at) == Some(&b'[') {
                return Some(at + 1);
            }
        }
        from = from + found + 1;
    }
    None
}

fn skip_space(text: &[u8]) -> usize {
    text.iter().take_while(|b| b.is_ascii_whitespace()).count()
}
