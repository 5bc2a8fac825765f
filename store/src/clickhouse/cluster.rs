//! The cluster DDL, made from the single-node schema (`configs/clickhouse/schema.sql`) so the
//! two can never drift: each table becomes a local MergeTree-family table on every node
//! (`<name>_local`, the same columns and engine) behind a Distributed table with the plain name,
//! so writers and the query pack need no change; the daily adoption view is attached to each
//! node's local sites table. Applied with `ON CLUSTER` (distributed DDL) or node by node.
//! `mcpcensus schema print --cluster NAME` prints it.

use super::client::{with_timeout, Connection};
use super::schema::{
    add_missing_columns, split_statements, ADDED_RUNS_COLUMNS, ADDED_SITES_COLUMNS,
    ADDED_TOOLS_COLUMNS, SCHEMA_SQL,
};
use crate::error::StoreError;

/// How the cluster DDL reaches the nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClusterDdl {
    /// `ON CLUSTER NAME`, sent to one node: needs ClickHouse Keeper or ZooKeeper.
    OnCluster,
    /// The statements without `ON CLUSTER`, sent to each node by the caller.
    PerNode,
}

/// Where a table's rows go. What must collapse or be joined stays on one shard: a site's
/// sites, tools and findings rows by `site_key` (a ReplacingMergeTree collapses only within one
/// table on one node, so a replayed row must meet its first copy, and FINAL on each shard is
/// then exact); runs rows by run id; the adoption states merge across shards when read.
const SHARDING_KEYS: [(&str, &str); 6] = [
    ("runs", "sipHash64(run_id)"),
    ("run_parts", "sipHash64(run_id)"),
    ("sites", "sipHash64(site_key)"),
    ("tools", "sipHash64(site_key)"),
    ("findings", "sipHash64(site_key)"),
    ("daily_adoption", "rand()"),
];

/// Each shard process of one run writes its own runs row, so the local runs table keeps one
/// row per (run, source) where the single-node table keeps one per run.
const RUNS_KEY: (&str, &str) = ("ORDER BY run_id", "ORDER BY (run_id, source)");

/// The cluster schema's statements for `database` on `cluster`, in order.
pub fn cluster_schema_statements(database: &str, cluster: &str, ddl: ClusterDdl) -> Vec<String> {
    let on_cluster = match ddl {
        ClusterDdl::OnCluster => format!(" ON CLUSTER {cluster}"),
        ClusterDdl::PerNode => String::new(),
    };
    let mut out = Vec::new();
    for statement in split_statements(SCHEMA_SQL) {
        if let Some(rest) = statement.strip_prefix("CREATE TABLE IF NOT EXISTS {db}.") {
            let (table, body) = rest.split_once(" (").unwrap_or((rest, ""));
            let mut local =
                format!("CREATE TABLE IF NOT EXISTS {{db}}.{table}_local{on_cluster} ({body}");
            if table == "runs" {
                local = local.replace(RUNS_KEY.0, RUNS_KEY.1);
            }
            out.push(local);
            let key = SHARDING_KEYS
                .iter()
                .find(|(t, _)| *t == table)
                .map_or("sipHash64(site_key)", |(_, k)| k);
            out.push(format!(
                "CREATE TABLE IF NOT EXISTS {{db}}.{table}{on_cluster} AS {{db}}.{table}_local\n\
                 ENGINE = Distributed({cluster}, {{db}}, {table}_local, {key})"
            ));
        } else if let Some(rest) = statement.strip_prefix("CREATE MATERIALIZED VIEW IF NOT EXISTS ")
        {
            let (view, body) = rest.split_once(' ').unwrap_or((rest, ""));
            out.push(format!(
                "CREATE MATERIALIZED VIEW IF NOT EXISTS {view}{on_cluster} {}",
                to_local_tables(body)
            ));
        } else {
            out.push(format!("{statement}{on_cluster}"));
        }
    }
    out.into_iter()
        .map(|s| s.replace("{db}", database))
        .collect()
}

/// `{db}.NAME` of every sharded table → `{db}.NAME_local` (a view reads and fills the node's
/// own rows; the Distributed tables would forward them again).
fn to_local_tables(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 32);
    let mut rest = sql;
    while let Some(at) = rest.find("{db}.") {
        let (head, tail) = rest.split_at(at + "{db}.".len());
        out.push_str(head);
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        let name = &tail[..end];
        out.push_str(name);
        if SHARDING_KEYS.iter().any(|(t, _)| *t == name) {
            out.push_str("_local");
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// Cluster names go into DDL unquoted, like database names.
pub fn validate_cluster(name: &str) -> Result<(), StoreError> {
    let ok = !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !name.as_bytes()[0].is_ascii_digit();
    if ok {
        Ok(())
    } else {
        Err(StoreError::InvalidCluster {
            name: name.to_owned(),
        })
    }
}

/// Creates the cluster's missing tables through `conn` (with [`ClusterDdl::PerNode`], on this
/// node only: call it once per node). The cluster must be in the node's `remote_servers`.
pub async fn init_cluster_schema(
    conn: &Connection,
    cluster: &str,
    ddl: ClusterDdl,
) -> Result<(), StoreError> {
    conn.target.validate()?;
    validate_cluster(cluster)?;
    let known: u64 = with_timeout(
        "looking the cluster up in system.clusters",
        conn.server
            .query("SELECT count() FROM system.clusters WHERE cluster = ?")
            .bind(cluster)
            .fetch_one(),
    )
    .await?;
    if known == 0 {
        return Err(StoreError::UnknownCluster {
            name: cluster.to_owned(),
            url: super::redact_url(&conn.target.url),
        });
    }
    for statement in cluster_schema_statements(&conn.target.database, cluster, ddl) {
        let what = statement.lines().next().unwrap_or_default().to_owned();
        with_timeout(&what, conn.server.query(&statement).execute()).await?;
    }
    // Columns added after the first release go to the local tables and the Distributed ones.
    let on_cluster = (ddl == ClusterDdl::OnCluster).then_some(cluster);
    add_missing_columns(conn, "sites_local", on_cluster, &ADDED_SITES_COLUMNS).await?;
    add_missing_columns(conn, "sites", on_cluster, &ADDED_SITES_COLUMNS).await?;
    add_missing_columns(conn, "runs_local", on_cluster, &ADDED_RUNS_COLUMNS).await?;
    add_missing_columns(conn, "runs", on_cluster, &ADDED_RUNS_COLUMNS).await?;
    add_missing_columns(conn, "tools_local", on_cluster, &ADDED_TOOLS_COLUMNS).await?;
    add_missing_columns(conn, "tools", on_cluster, &ADDED_TOOLS_COLUMNS).await?;
    tracing::info!(database = %conn.target.database, cluster, "ClickHouse cluster schema ready");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clickhouse::schema_statements;

    /// `name` → its column lines, for every `CREATE TABLE name (...)` among `statements`.
    fn columns(statements: &[String]) -> Vec<(String, Vec<String>)> {
        statements
            .iter()
            .filter_map(|s| {
                let head = s.strip_prefix("CREATE TABLE IF NOT EXISTS ")?;
                let (name, body) = head.split_once(" (")?;
                let name = name.split_whitespace().next()?.to_owned();
                let cols = body
                    .lines()
                    .map(|l| l.trim().trim_end_matches(',').to_owned())
                    .take_while(|l| !l.starts_with(')'))
                    .filter(|l| !l.is_empty())
                    .collect();
                Some((name, cols))
            })
            .collect()
    }

    #[test]
    fn cluster_local_tables_have_the_single_node_columns() {
        let single = columns(&schema_statements("db"));
        let cluster = columns(&cluster_schema_statements("db", "c", ClusterDdl::PerNode));
        assert_eq!(single.len(), 6, "{single:?}");
        for (name, cols) in &single {
            let local = format!("{name}_local");
            let found = cluster.iter().find(|(n, _)| *n == local);
            assert_eq!(found.map(|(_, c)| c), Some(cols), "{local}");
        }
    }

    #[test]
    fn cluster_statements_fill_every_placeholder() {
        for ddl in [ClusterDdl::OnCluster, ClusterDdl::PerNode] {
            let all = cluster_schema_statements("db", "census", ddl);
            assert_eq!(all.len(), 14);
            for s in &all {
                assert!(!s.contains('{'), "{s}");
                assert!(s.contains("IF NOT EXISTS"), "{s}");
                assert_eq!(
                    s.contains("ON CLUSTER census"),
                    ddl == ClusterDdl::OnCluster,
                    "{s}"
                );
            }
            let distributed = all.iter().filter(|s| s.contains("Distributed(census, db,"));
            assert_eq!(distributed.count(), 6);
        }
    }

    #[test]
    fn the_view_fills_local_tables_and_local_runs_keep_one_row_per_source() {
        let all = cluster_schema_statements("db", "census", ClusterDdl::OnCluster);
        let view = all
            .iter()
            .find(|s| s.contains("MATERIALIZED VIEW"))
            .unwrap();
        assert!(
            view.starts_with("CREATE MATERIALIZED VIEW IF NOT EXISTS db.daily_adoption_mv ON CLUSTER census TO db.daily_adoption_local AS"),
            "{view}"
        );
        assert!(view.contains("FROM db.sites_local"), "{view}");
        assert!(
            !view.contains("db.sites\n") && !view.contains("db.sites "),
            "{view}"
        );
        let runs = all
            .iter()
            .find(|s| s.contains("db.runs_local ON CLUSTER census ("))
            .unwrap();
        assert!(runs.ends_with("ORDER BY (run_id, source)"), "{runs}");
        let sites = all
            .iter()
            .find(|s| s.contains("db.sites_local ON CLUSTER"))
            .unwrap();
        assert!(sites.ends_with("ORDER BY (run_id, site_key)"), "{sites}");
        assert_eq!(all[0], "CREATE DATABASE IF NOT EXISTS db ON CLUSTER census");
        assert!(all.contains(&"CREATE TABLE IF NOT EXISTS db.runs ON CLUSTER census AS db.runs_local\nENGINE = Distributed(census, db, runs_local, sipHash64(run_id))".to_owned()), "{all:?}");
    }

    #[test]
    fn every_sharded_table_has_its_sharding_column() {
        let single = columns(&schema_statements("db"));
        for (table, key) in SHARDING_KEYS {
            let cols = &single.iter().find(|(n, _)| n == &format!("db.{table}"));
            let Some((_, cols)) = cols else {
                panic!("{table} is not in the schema")
            };
            let column = key.trim_start_matches("sipHash64(").trim_end_matches(')');
            assert!(
                key == "rand()" || cols.iter().any(|c| c.starts_with(&format!("{column} "))),
                "{table}: {key}"
            );
        }
        assert_eq!(single.len(), SHARDING_KEYS.len());
    }

    #[test]
    fn cluster_names_are_plain_identifiers() {
        assert!(validate_cluster("census_1").is_ok());
        for bad in ["", "1c", "c; DROP", "c-d"] {
            assert!(validate_cluster(bad).is_err(), "{bad}");
        }
    }
}
