//! The flat export tables (docs/records.md): one `sites` row per record, one `tools` row per
//! tool, one `findings` row per finding. The columns are the ClickHouse rows' fields
//! (`clickhouse::rows`), in the ClickHouse schema's order, without `record_json` (the JSON
//! lines export carries whole records), so every export and the ClickHouse tables agree.

use serde_json::{Map, Value};

use crate::clickhouse::{FindingRow, SiteRow, ToolRow};
use crate::record::Record;

/// A column's type in every format (CSV writes lists as JSON arrays, nulls as empty fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Str,
    OptStr,
    /// Unsigned integer.
    UInt,
    OptUInt,
    /// A yes/no flag: 0/1 in the row (and in CSV, as in ClickHouse), BOOLEAN in Parquet.
    Bool,
    /// A time in whole seconds since the epoch in the row (and CSV); in Parquet a UTC
    /// TIMESTAMP in milliseconds.
    Seconds,
    /// A time in milliseconds since the epoch in the row (and CSV); in Parquet a UTC TIMESTAMP
    /// in milliseconds.
    Millis,
    /// A list of strings.
    List,
}

/// One export table: its file stem and columns.
#[derive(Debug)]
pub struct Table {
    pub name: &'static str,
    pub columns: &'static [(&'static str, Kind)],
}

use Kind::*;

pub const SITES: Table = Table {
    name: "sites",
    columns: &[
        ("run_id", Str),
        ("site_key", Str),
        ("scanned_at", Seconds),
        ("scanned_at_ms", Millis),
        ("schema_version", UInt),
        ("input", Str),
        ("input_line", UInt),
        ("origin", OptStr),
        ("host", OptStr),
        ("registrable_domain", OptStr),
        ("addresses", List),
        ("outcome", Str),
        ("outcome_reason", Str),
        ("defect", Bool),
        ("endpoint", OptStr),
        ("discovered_via", OptStr),
        ("discovery_source", OptStr),
        ("protocol_version", OptStr),
        ("session_id_issued", Bool),
        ("server_name", OptStr),
        ("server_version", OptStr),
        ("capabilities", OptStr),
        ("tool_count", OptUInt),
        ("tool_names", List),
        ("tool_list_fingerprint", OptStr),
        ("probe", OptStr),
        ("transport", OptStr),
        ("auth_kind", OptStr),
        ("spec_version", OptStr),
        ("deprecated_features", List),
        ("migration_status", OptStr),
        ("checklist", List),
        ("finding_ids", List),
        ("grade_median", OptStr),
        ("request_count", UInt),
        ("total_ms", UInt),
        ("documents_parsed", List),
        ("documents_soft_404", List),
        ("server_fingerprint", Str),
        ("final_origin", OptStr),
        ("origin_move", OptStr),
        ("surface", Bool),
        ("reason_kind", OptStr),
        ("request_error_kinds", List),
        ("endpoint_site", OptStr),
        ("rank", OptUInt),
        ("probe_note", OptStr),
        ("surface_signals", List),
        ("first_look_outcome", OptStr),
        ("first_look_reason_kind", OptStr),
        ("readiness_checks_version", OptStr),
        ("readiness_robots_txt", OptUInt),
        ("readiness_robots_txt_ai_rules", OptUInt),
        ("readiness_content_signals", OptUInt),
        ("readiness_sitemap", OptUInt),
        ("readiness_link_headers", OptUInt),
        ("readiness_markdown_negotiation", OptUInt),
        ("readiness_llms_txt", OptUInt),
        ("readiness_llms_full_txt", OptUInt),
        ("readiness_a2a_agent_card", OptUInt),
        ("readiness_agent_skills", OptUInt),
        ("readiness_api_catalog", OptUInt),
        ("readiness_oauth_discovery", OptUInt),
        ("readiness_oauth_protected_resource", OptUInt),
        ("readiness_mcp_server_card", OptUInt),
        ("readiness_web_mcp", OptUInt),
        ("readiness_web_bot_auth", OptUInt),
        ("readiness_agentmap", OptUInt),
        ("readiness_ai_catalog_link", OptUInt),
        ("readiness_catch_all", OptUInt),
        ("readiness_naive_only", List),
        ("readiness_ai_bot_rules", List),
        ("robots_verdict", OptStr),
        ("mcp_get_status", OptUInt),
        ("capabilities_version", OptStr),
        ("tools_tagged", OptUInt),
        ("tools_read_only", OptUInt),
        ("tools_writes", OptUInt),
        ("tools_destructive", OptUInt),
        ("tools_executes_code", OptUInt),
        ("tools_moves_money", OptUInt),
        ("tools_sends_messages", OptUInt),
        ("tools_reads_untrusted_content", OptUInt),
        ("tools_reads_private_data", OptUInt),
    ],
};

pub const TOOLS: Table = Table {
    name: "tools",
    columns: &[
        ("run_id", Str),
        ("site_key", Str),
        ("position", UInt),
        ("scanned_at", Seconds),
        ("origin", OptStr),
        ("name", Str),
        ("title", OptStr),
        ("description", OptStr),
        ("annotations", OptStr),
        ("input_schema_hash", OptStr),
        ("fingerprint", OptStr),
        ("grade", OptStr),
        ("capabilities", List),
    ],
};

pub const FINDINGS: Table = Table {
    name: "findings",
    columns: &[
        ("run_id", Str),
        ("site_key", Str),
        ("position", UInt),
        ("scanned_at", Seconds),
        ("origin", OptStr),
        ("rule_id", Str),
        ("severity", Str),
        ("evidence", Str),
        ("url", OptStr),
        ("tool", OptStr),
    ],
};

/// The three tables, in the order they are written.
pub const TABLES: [&Table; 3] = [&SITES, &TOOLS, &FINDINGS];

/// A record's rows for each of [`TABLES`], as JSON objects keyed by column name.
pub fn rows_of(record: &Record) -> [Vec<Map<String, Value>>; 3] {
    fn obj<T: serde::Serialize>(row: &T) -> Map<String, Value> {
        // Rows are strings, numbers and lists of strings: serializing cannot fail.
        match serde_json::to_value(row) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }
    [
        vec![obj(&SiteRow::from_record(record))],
        ToolRow::from_record(record).iter().map(obj).collect(),
        FindingRow::from_record(record).iter().map(obj).collect(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil;

    #[test]
    fn columns_are_the_clickhouse_rows_fields_but_record_json() {
        let record = testutil::full_record("run", 0);
        for (table, rows) in TABLES.iter().zip(rows_of(&record)) {
            let row = &rows[0];
            let mut fields: Vec<&str> = row.keys().map(String::as_str).collect();
            fields.retain(|f| *f != "record_json");
            fields.sort_unstable();
            let mut names: Vec<&str> = table.columns.iter().map(|(n, _)| *n).collect();
            names.sort_unstable();
            assert_eq!(names, fields, "{}", table.name);
            for (name, kind) in table.columns {
                let v = &row[*name];
                let ok = match kind {
                    Str => v.is_string(),
                    OptStr => v.is_string() || v.is_null(),
                    UInt | Seconds | Millis => v.is_u64(),
                    Bool => v.as_u64().is_some_and(|n| n <= 1),
                    OptUInt => v.is_u64() || v.is_null(),
                    List => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
                };
                assert!(ok, "{}.{name}: {v} is not {kind:?}", table.name);
            }
        }
    }

    #[test]
    fn columns_follow_the_clickhouse_schema_order() {
        for table in TABLES {
            let all = crate::clickhouse::SCHEMA_SQL;
            let start = all.find(&format!("{{db}}.{} (", table.name)).unwrap();
            let schema = &all[start..];
            let at = |c: &str| schema.find(&format!("\n    {c} ")).unwrap_or(usize::MAX);
            let order: Vec<usize> = table.columns.iter().map(|(c, _)| at(c)).collect();
            assert!(order.iter().all(|p| *p != usize::MAX), "{}", table.name);
            assert!(
                order.windows(2).all(|w| w[0] < w[1]),
                "{} out of order",
                table.name
            );
        }
    }
}
