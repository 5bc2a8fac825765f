//! Makes the ClickHouse row structs of the `sites`, `tools` and `findings` tables from their
//! `CREATE TABLE` in `configs/clickhouse/schema.sql`, so the rows the sink inserts cannot drift
//! from the table: one declaration of each column, the DDL's.

use std::fmt::Write as _;
use std::path::PathBuf;

const SCHEMA: &str = "../configs/clickhouse/schema.sql";
/// Each table made into a struct, and its name.
const TABLES: [(&str, &str); 3] = [
    ("sites", "SiteRow"),
    ("tools", "ToolRow"),
    ("findings", "FindingRow"),
];

fn main() {
    println!("cargo:rerun-if-changed={SCHEMA}");
    let sql = std::fs::read_to_string(SCHEMA).unwrap_or_else(|e| panic!("{SCHEMA}: {e}"));
    let mut code = String::new();
    for (table, name) in TABLES {
        code.push_str(&row_struct(&sql, table, name));
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("rows.rs"), code).expect("OUT_DIR is writable");
}

/// The struct of `table`'s columns, each column's comment lines its doc.
fn row_struct(sql: &str, table: &str, name: &str) -> String {
    let opening = format!("CREATE TABLE IF NOT EXISTS {{db}}.{table} (");
    let start = sql
        .find(&opening)
        .unwrap_or_else(|| panic!("{SCHEMA}: no `{opening}`"));
    let body = &sql[start + opening.len()..];
    let body = &body[..body
        .find(") ENGINE")
        .unwrap_or_else(|| panic!("{SCHEMA}: {table} has no `) ENGINE`"))];
    let mut code = String::new();
    let _ = writeln!(
        code,
        "/// One `{table}` row, its columns as `configs/clickhouse/schema.sql` declares them.\n\
         #[derive(Debug, Clone, PartialEq, clickhouse::Row, serde::Serialize)]\npub struct {name} {{"
    );
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(comment) = line.strip_prefix("--") {
            let _ = writeln!(code, "    ///{comment}");
            continue;
        }
        let line = line.trim_end_matches(',');
        let (column, sql_type) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{SCHEMA}: {table}: cannot read `{line}`"));
        let _ = writeln!(code, "    pub {column}: {},", rust_type(sql_type.trim()));
    }
    code.push_str("}\n\n");
    code
}

/// The Rust type a ClickHouse column type is written from.
fn rust_type(sql: &str) -> String {
    if let Some(inner) = sql
        .strip_prefix("Nullable(")
        .and_then(|t| t.strip_suffix(')'))
    {
        return format!("Option<{}>", rust_type(inner));
    }
    if let Some(inner) = sql.strip_prefix("Array(").and_then(|t| t.strip_suffix(')')) {
        return format!("Vec<{}>", rust_type(inner));
    }
    match sql {
        "String" | "LowCardinality(String)" => "String",
        "UInt8" => "u8",
        "UInt16" => "u16",
        "UInt32" | "DateTime('UTC')" => "u32",
        "UInt64" => "u64",
        "Int64" => "i64",
        "Float64" => "f64",
        other => panic!("{SCHEMA}: no Rust type for the column type {other}"),
    }
    .to_owned()
}
