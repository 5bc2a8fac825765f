//! The DDL (`configs/clickhouse/schema.sql`), applied statement by statement.

use super::client::{with_timeout, Connection};
use crate::error::StoreError;

/// The schema file, with `{db}` where the database name goes.
pub const SCHEMA_SQL: &str = include_str!("../../../configs/clickhouse/schema.sql");

/// The schema's statements for `database`, comments removed, in order.
pub fn schema_statements(database: &str) -> Vec<String> {
    let text: String = SCHEMA_SQL
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .map(|l| format!("{l}\n"))
        .collect();
    text.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.replace("{db}", database))
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
    tracing::info!(database = %conn.target.database, "ClickHouse schema ready");
    Ok(())
}
