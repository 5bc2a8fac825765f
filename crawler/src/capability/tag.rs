//! Tags one tool: walks the table's rows over the tool's annotations, name, description and
//! schema, then applies the table's closing rules.

use std::cell::OnceCell;

use serde_json::Value;

use super::table::{Place, Signal, Tags, SIGNALS};
use super::words::{name_words, positions, property_names, summary, text_words};
use mcpcensus_store::ToolCapability;

/// The places of one tool, read once; the whole description's words only when a row reads
/// them (splitting a long description is most of a tool's cost).
struct Places<'a> {
    annotations: Option<&'a Value>,
    name: Vec<String>,
    summary: Vec<String>,
    text: &'a str,
    description: OnceCell<Vec<String>>,
    schema: Vec<String>,
}

/// The tool's tags by the capability table. A hint lowers nothing: rows only add.
pub fn tag_tool(
    name: &str,
    description: Option<&str>,
    annotations: Option<&Value>,
    input_schema: Option<&Value>,
) -> Tags {
    let description = description.unwrap_or_default();
    let places = Places {
        annotations,
        name: name_words(name),
        summary: text_words(summary(description)),
        text: description,
        description: OnceCell::new(),
        schema: property_names(input_schema),
    };
    let mut tags = Tags::default();
    for row in SIGNALS.iter().filter(|r| !r.unless_writes) {
        if places.matches(row) {
            tags.add(row.adds);
        }
    }
    tags.settle();
    // What a tool reads is what it is for only when it does not act.
    if !tags.has(ToolCapability::Writes) {
        for row in SIGNALS.iter().filter(|r| r.unless_writes) {
            if places.matches(row) {
                tags.add(row.adds);
            }
        }
    }
    tags
}

impl Places<'_> {
    fn matches(&self, row: &Signal) -> bool {
        let words = match row.place {
            Place::Annotation => {
                let hint = self.annotations.and_then(|a| a.get(row.hint));
                return hint.and_then(Value::as_bool) == Some(row.value);
            }
            Place::Name => &self.name,
            Place::Summary => &self.summary,
            Place::Description => self.description.get_or_init(|| text_words(self.text)),
            Place::Schema => &self.schema,
        };
        let hits: Vec<usize> = row.words.iter().flat_map(|e| positions(words, e)).collect();
        if hits.is_empty()
            || row
                .unless
                .iter()
                .any(|e| positions(words, e).next().is_some())
        {
            return false;
        }
        if row.with.is_empty() {
            return true;
        }
        row.with
            .iter()
            .flat_map(|e| positions(words, e))
            .any(|at| hits.iter().any(|&hit| hit != at))
    }
}
