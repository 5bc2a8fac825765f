//! The DDL (`configs/clickhouse/schema.sql`), applied statement by statement.

use super::client::{with_timeout, Connection};
use crate::error::StoreError;

/// The schema file, with `{db}` where the database name goes.
pub const SCHEMA_SQL: &str = include_str!("../../../configs/clickhouse/schema.sql");

/// The schema's statements for `database`, comments removed, in order.
pub fn schema_statements(database: &str) -> Vec<String> {
    split_statements(SCHEMA_SQL)
        .into_iter()
        .map(|s| s.replace("{db}", database))
        .collect()
}

/// A DDL file's statements, `--` comment lines removed, split at `;`.
pub(crate) fn split_statements(sql: &str) -> Vec<String> {
    let text: String = sql
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .map(|l| format!("{l}\n"))
        .collect();
    text.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Creates the database, tables and views that are missing (every statement is IF NOT EXISTS).
pub async fn init_schema(conn: &Connection) -> Result<(), StoreError> {
    conn.target.validate()?;
    for statement in schema_statements(&conn.target.database) {
        let what = statement
            .lines()
            .next()
            .unwrap_or_default()
            .trim_end_matches(" (")
            .to_owned();
        with_timeout(&what, conn.server.query(&statement).execute()).await?;
    }
    add_missing_columns(conn, "sites", None, &ADDED_SITES_COLUMNS).await?;
    add_missing_columns(conn, "runs", None, &ADDED_RUNS_COLUMNS).await?;
    add_missing_columns(conn, "tools", None, &ADDED_TOOLS_COLUMNS).await?;
    tracing::info!(database = %conn.target.database, "ClickHouse schema ready");
    Ok(())
}

/// Columns added to `sites` after its first release (schema.sql lists them last): a database
/// created before gets them by `ALTER TABLE ... ADD COLUMN` (18.16 has no `IF NOT EXISTS`
/// there, so `system.columns` is asked first). Rows inserted before hold empty values in them;
/// reload those runs (`mcpcensus load`) before reporting on them from ClickHouse.
pub const ADDED_SITES_COLUMNS: [(&str, &str); 48] = [
    ("documents_parsed", "Array(String)"),
    ("documents_soft_404", "Array(String)"),
    ("server_fingerprint", "String"),
    ("final_origin", "Nullable(String)"),
    ("origin_move", "Nullable(String)"),
    ("surface", "UInt8"),
    ("reason_kind", "Nullable(String)"),
    ("request_error_kinds", "Array(String)"),
    ("endpoint_site", "Nullable(String)"),
    ("rank", "Nullable(UInt32)"),
    ("probe_note", "Nullable(String)"),
    ("surface_signals", "Array(String)"),
    ("first_look_outcome", "Nullable(String)"),
    ("first_look_reason_kind", "Nullable(String)"),
    ("readiness_checks_version", "Nullable(String)"),
    ("readiness_robots_txt", "Nullable(UInt8)"),
    ("readiness_robots_txt_ai_rules", "Nullable(UInt8)"),
    ("readiness_content_signals", "Nullable(UInt8)"),
    ("readiness_sitemap", "Nullable(UInt8)"),
    ("readiness_link_headers", "Nullable(UInt8)"),
    ("readiness_markdown_negotiation", "Nullable(UInt8)"),
    ("readiness_llms_txt", "Nullable(UInt8)"),
    ("readiness_llms_full_txt", "Nullable(UInt8)"),
    ("readiness_a2a_agent_card", "Nullable(UInt8)"),
    ("readiness_agent_skills", "Nullable(UInt8)"),
    ("readiness_api_catalog", "Nullable(UInt8)"),
    ("readiness_oauth_discovery", "Nullable(UInt8)"),
    ("readiness_oauth_protected_resource", "Nullable(UInt8)"),
    ("readiness_mcp_server_card", "Nullable(UInt8)"),
    ("readiness_web_mcp", "Nullable(UInt8)"),
    ("readiness_web_bot_auth", "Nullable(UInt8)"),
    ("readiness_agentmap", "Nullable(UInt8)"),
    ("readiness_ai_catalog_link", "Nullable(UInt8)"),
    ("readiness_catch_all", "Nullable(UInt8)"),
    ("readiness_naive_only", "Array(String)"),
    ("readiness_ai_bot_rules", "Array(String)"),
    ("robots_verdict", "Nullable(String)"),
    ("mcp_get_status", "Nullable(UInt16)"),
    ("capabilities_version", "Nullable(String)"),
    ("tools_tagged", "Nullable(UInt32)"),
    ("tools_read_only", "Nullable(UInt32)"),
    ("tools_writes", "Nullable(UInt32)"),
    ("tools_destructive", "Nullable(UInt32)"),
    ("tools_executes_code", "Nullable(UInt32)"),
    ("tools_moves_money", "Nullable(UInt32)"),
    ("tools_sends_messages", "Nullable(UInt32)"),
    ("tools_reads_untrusted_content", "Nullable(UInt32)"),
    ("tools_reads_private_data", "Nullable(UInt32)"),
];

/// Columns added to `tools` after its first release, the same way.
pub const ADDED_TOOLS_COLUMNS: [(&str, &str); 1] = [("capabilities", "Array(String)")];

/// Columns added to `runs` after its first release, the same way.
pub const ADDED_RUNS_COLUMNS: [(&str, &str); 4] = [
    ("label", "String"),
    ("started_at_ms", "UInt64"),
    ("updated_at_ms", "UInt64"),
    ("manifest", "String"),
];

/// Adds the `columns` that `table` lacks (`ON CLUSTER` when `cluster` is given).
pub(crate) async fn add_missing_columns(
    conn: &Connection,
    table: &str,
    cluster: Option<&str>,
    columns: &[(&str, &str)],
) -> Result<(), StoreError> {
    let db = &conn.target.database;
    let on_cluster = cluster
        .map(|c| format!(" ON CLUSTER {c}"))
        .unwrap_or_default();
    for &(name, ty) in columns {
        let present: u64 = with_timeout(
            "checking the sites columns",
            conn.server
                .query(
                    "SELECT count() FROM system.columns \
                     WHERE database = ? AND table = ? AND name = ?",
                )
                .bind(db.as_str())
                .bind(table)
                .bind(name)
                .fetch_one(),
        )
        .await?;
        if present == 0 {
            let sql = format!("ALTER TABLE {db}.{table}{on_cluster} ADD COLUMN {name} {ty}");
            with_timeout(&sql, conn.server.query(&sql).execute()).await?;
            tracing::info!(column = name, table, "added a column");
        }
    }
    Ok(())
}
