//! Tags one tool: walks the table's rows over the tool's annotations, name, description and
//! schema, then applies the table's closing rules.

use serde_json::Value;

use super::index::{find, RowFound};
use super::table::{Place, Tags, SIGNALS};
use super::words::{name_words, property_names, summary, text_words};
use mcpcensus_store::ToolCapability;

/// The tool's tags by the capability table. A hint lowers nothing: rows only add.
pub fn tag_tool(
    name: &str,
    description: Option<&str>,
    annotations: Option<&Value>,
    input_schema: Option<&Value>,
) -> Tags {
    let found = found(name, description, input_schema);
    let matches = |row: usize| {
        let signal = &SIGNALS[row];
        match signal.place {
            Place::Annotation => {
                let hint = annotations.and_then(|a| a.get(signal.hint));
                hint.and_then(Value::as_bool) == Some(signal.value)
            }
            _ => found[row].matches(!signal.with.is_empty()),
        }
    };
    let mut tags = Tags::default();
    for row in (0..SIGNALS.len()).filter(|r| !SIGNALS[*r].unless_writes) {
        if matches(row) {
            tags.add(SIGNALS[row].adds);
        }
    }
    tags.settle();
    // What a tool reads is what it is for only when it does not act.
    if !tags.has(ToolCapability::Writes) {
        for row in (0..SIGNALS.len()).filter(|r| SIGNALS[*r].unless_writes) {
            if matches(row) {
                tags.add(SIGNALS[row].adds);
            }
        }
    }
    tags
}

/// What each row's word lists find in the tool's name, description and schema: each place's
/// words read once, through the table's index. The whole description is split only when a row
/// reads it (splitting a long description was most of a tool's cost).
pub(super) fn found(
    name: &str,
    description: Option<&str>,
    input_schema: Option<&Value>,
) -> Vec<RowFound> {
    let description = description.unwrap_or_default();
    let mut found = vec![RowFound::default(); SIGNALS.len()];
    find(Place::Name, &name_words(name), &mut found);
    find(
        Place::Summary,
        &text_words(summary(description)),
        &mut found,
    );
    if SIGNALS.iter().any(|s| s.place == Place::Description) {
        find(Place::Description, &text_words(description), &mut found);
    }
    find(Place::Schema, &property_names(input_schema), &mut found);
    found
}
