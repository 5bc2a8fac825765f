//! The query files carry no hand-written copy of a shared constant, and what is written into
//! them means what the Rust means.

use super::*;
use crate::clickhouse::sql;
use crate::model::rank_slot;

/// Texts that only a copy of a shared constant would hold (each placeholder's own text is
/// checked too): an outcome, a bound, a tag, a check id or a kind of the lists.
const COPY_SIGNS: [&str; 10] = [
    "'not_started'",
    "rank, 0) <=",
    "'MCP-TOOLS-001'",
    "'robotsTxt'",
    "readiness_robots_txt,",
    "'read_only'",
    "tools_read_only",
    "'opted_out'",
    "'deadline'",
    "arrayCount(c -> c",
];

/// The analysts' files are copied into a client by hand and read as they are by
/// scripts/chdb-compare.py, so they keep the list written out; it must be the generated one.
fn for_analysts(file: &str) -> bool {
    file.starts_with("analyst_")
}

#[test]
fn no_report_query_carries_a_copy_of_a_shared_constant() {
    let placeholders = placeholders();
    for (file, text) in sql::ALL.iter().filter(|(f, _)| !for_analysts(f)) {
        for (name, filled) in &placeholders {
            assert!(!text.contains(filled.as_str()), "{file} copies {name}");
        }
        for sign in COPY_SIGNS {
            assert!(!text.contains(sign), "{file} holds {sign:?} by hand");
        }
        // Every query that buckets ranks takes the buckets from Rust.
        if text.contains("AS slot") {
            assert!(text.contains("{rank_slot} AS slot"), "{file}");
        }
    }
}

#[test]
fn the_analysts_queries_write_out_the_generated_not_scanned_list() {
    let not_scanned = fill("{not_scanned}");
    for (file, text) in sql::ALL.iter().filter(|(f, _)| for_analysts(f)) {
        assert!(text.contains("'not_started'"), "{file}");
        for line in text.lines().filter(|l| l.contains("'not_started'")) {
            assert!(line.contains(&not_scanned), "{file}: {line}");
        }
    }
}

#[test]
fn every_placeholder_is_filled_and_used() {
    // Filled in elsewhere: the field counted (run.rs) and the compared sites (compare.rs).
    let own = ["{field}", "{filter}", "{sites}"];
    let mut used = std::collections::BTreeSet::new();
    for (file, text) in sql::ALL {
        let filled = fill(text);
        for (at, _) in filled.match_indices('{') {
            let rest = &filled[at..];
            let name = &rest[..rest.find('}').map_or(rest.len(), |e| e + 1)];
            let placeholder = name[1..]
                .trim_end_matches('}')
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_');
            assert!(!placeholder || own.contains(&name), "{file}: {name} left");
        }
        for (name, _) in placeholders() {
            if text.contains(name) {
                used.insert(name);
            }
        }
    }
    let all: std::collections::BTreeSet<_> = placeholders().iter().map(|(n, _)| *n).collect();
    assert_eq!(used, all, "a placeholder no query uses");
}

/// The generated `multiIf` read the way ClickHouse reads it: the first arm whose condition
/// holds gives the slot, else the last value.
fn slot_by_sql(rank: Option<u64>) -> usize {
    let expr = rank_slot_expr();
    let inner = expr
        .strip_prefix("toUInt8(multiIf(")
        .and_then(|e| e.strip_suffix("))"))
        .expect("toUInt8(multiIf(...))");
    // `ifNull(rank, 0)` is the rank, NULL read as 0 (no rank).
    let inner = inner.replace("ifNull(rank, 0)", "rank");
    let parts: Vec<&str> = inner.split(", ").collect();
    let value = rank.unwrap_or(0);
    for arm in parts.chunks(2) {
        let [condition, slot] = arm else {
            return arm[0].parse().unwrap();
        };
        let holds = if let Some(n) = condition.strip_prefix("rank = ") {
            value == n.parse::<u64>().unwrap()
        } else if let Some(n) = condition.strip_prefix("rank <= ") {
            value <= n.parse::<u64>().unwrap()
        } else {
            panic!("unknown condition {condition}")
        };
        if holds {
            return slot.parse().unwrap();
        }
    }
    panic!("no default in {expr}")
}

#[test]
fn the_rank_slot_expression_matches_rank_slot_on_every_bound() {
    let mut ranks = vec![None, Some(0), Some(1), Some(u64::MAX)];
    for (_, top) in RANK_BUCKETS {
        ranks.extend([Some(top - 1), Some(top), Some(top + 1)]);
    }
    for rank in ranks {
        assert_eq!(slot_by_sql(rank), rank_slot(rank), "rank {rank:?}");
    }
}

#[test]
fn the_capability_columns_follow_column_of() {
    use crate::capabilities::column_of;
    let tags = fill("{capability_tags}");
    let counts = fill("{capability_counts}");
    let tags: Vec<&str> = tags[1..tags.len() - 1].split(", ").collect();
    assert_eq!(
        counts.matches("ifNull(").count() + 1,
        tags.len(),
        "{counts}"
    );
    for (at, tag) in tags.iter().enumerate() {
        assert_eq!(column_of(tag.trim_matches('\'')), Some(at), "{tag}");
    }
    assert!(counts.starts_with("[ifNull(tools_tagged, 0), ifNull(tools_read_only, 0), "));
    assert!(counts.ends_with("toUInt32(has(finding_ids, 'MCP-TOOLS-001'))]"));
}

#[test]
fn the_tool_count_buckets_cover_every_count_once_and_reach_the_sql() {
    use crate::model::{tool_count_bucket, TOOL_COUNT_BUCKETS};
    assert_eq!(tool_count_bucket(0), None);
    for count in 1..=1_000u32 {
        let inside = TOOL_COUNT_BUCKETS
            .iter()
            .filter(|(_, least, most)| count >= *least && most.is_none_or(|m| count <= m))
            .count();
        assert_eq!(inside, 1, "{count} tools fall in {inside} buckets");
    }
    let sql = fill("{tool_count_buckets}");
    for (_, least, most) in TOOL_COUNT_BUCKETS {
        assert!(sql.contains(&format!("c >= {least}")), "{sql}");
        if let Some(most) = most {
            assert!(sql.contains(&format!("c <= {most}")), "{sql}");
        }
    }
    assert!(sql::TOOL_COUNTS.contains("{tool_count_buckets} AS buckets"));
}
