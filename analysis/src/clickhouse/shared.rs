//! The constants the SQL shares with the embedded report, written into the query files from
//! their one Rust declaration when a query is loaded: a file says `{not_scanned}` or
//! `{rank_slot}` where it would otherwise carry a copy that could drift from the Rust.

use mcpcensus_store::{FailureKind, ReadinessCheck, ToolCapability};
use mcpcensus_store::{NOT_SCANNED, NO_ANSWER_KINDS, REFUSED_KINDS};

use crate::capabilities::{ALL_TOOLS, TOXIC_FLOW, TOXIC_FLOW_RULE};
use crate::model::{RANK_BUCKETS, TOOL_COUNT_BUCKETS};

/// Every placeholder and its text, in the order they are filled.
pub fn placeholders() -> [(&'static str, String); 10] {
    [
        (
            "{not_scanned}",
            quoted(NOT_SCANNED.iter().map(|o| o.as_str())),
        ),
        ("{rank_slot}", rank_slot_expr()),
        ("{refused_kinds}", quoted(kinds(&REFUSED_KINDS))),
        ("{no_answer_kinds}", quoted(kinds(&NO_ANSWER_KINDS))),
        (
            "{readiness_check_ids}",
            array(ReadinessCheck::ALL.iter().map(|c| sql_text(c.as_str()))),
        ),
        (
            "{readiness_check_values}",
            array(ReadinessCheck::ALL.iter().map(|c| c.column().to_owned())),
        ),
        ("{capability_tags}", array(capability_tags().map(sql_text))),
        ("{capability_counts}", capability_counts()),
        ("{toxic_flow_rule}", sql_text(TOXIC_FLOW_RULE)),
        ("{tool_count_buckets}", tool_count_buckets()),
    ]
}

/// One count per tool-count bucket over the sorted array `counts`, in the buckets' order.
fn tool_count_buckets() -> String {
    let counts = TOOL_COUNT_BUCKETS
        .iter()
        .map(|(_, least, most)| match most {
            Some(most) => {
                format!("toUInt64(arrayCount(c -> c >= {least} AND c <= {most}, counts))")
            }
            None => format!("toUInt64(arrayCount(c -> c >= {least}, counts))"),
        });
    array(counts)
}

/// `sql` with every placeholder filled in.
pub fn fill(sql: &str) -> String {
    placeholders()
        .iter()
        .fold(sql.to_owned(), |sql, (name, text)| sql.replace(name, text))
}

/// The exclusive rank slot of a site ([`crate::model::rank_slot`]): 0 to 4 the smallest
/// "top N" its rank is within, 5 past the last, 6 no rank (NULL or 0).
fn rank_slot_expr() -> String {
    let mut arms = vec![format!("ifNull(rank, 0) = 0, {}", RANK_BUCKETS.len() + 1)];
    for (slot, (_, top)) in RANK_BUCKETS.iter().enumerate() {
        arms.push(format!("ifNull(rank, 0) <= {top}, {slot}"));
    }
    format!(
        "toUInt8(multiIf({}, {}))",
        arms.join(", "),
        RANK_BUCKETS.len()
    )
}

/// The capability mix's columns in the answer: every tagged tool, each tag, the toxic flows
/// (the order of [`crate::capabilities::column_of`]).
fn capability_tags() -> impl Iterator<Item = &'static str> {
    std::iter::once(ALL_TOOLS)
        .chain(ToolCapability::ALL.iter().map(|t| t.as_str()))
        .chain(std::iter::once(TOXIC_FLOW))
}

/// Each of those columns' count on one `sites` row, in the same order.
fn capability_counts() -> String {
    let tags = ToolCapability::ALL
        .iter()
        .map(|t| format!("ifNull(tools_{}, 0)", t.as_str()));
    let counts = std::iter::once("ifNull(tools_tagged, 0)".to_owned())
        .chain(tags)
        .chain(std::iter::once(format!(
            "toUInt32(has(finding_ids, {}))",
            sql_text(TOXIC_FLOW_RULE)
        )));
    array(counts)
}

fn kinds(list: &'static [FailureKind]) -> impl Iterator<Item = &'static str> {
    list.iter().map(|k| k.as_str())
}

/// A string literal; the texts are our own identifiers, never a quote in them.
fn sql_text(s: &str) -> String {
    debug_assert!(!s.contains(['\'', '\\']), "{s}");
    format!("'{s}'")
}

/// `('a', 'b')`: the right side of `IN`.
fn quoted<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<String> = items.map(sql_text).collect();
    format!("({})", items.join(", "))
}

/// `[a, b]`: an array of SQL expressions.
fn array(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
#[path = "shared_tests.rs"]
mod tests;
