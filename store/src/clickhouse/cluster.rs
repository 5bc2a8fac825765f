//! The cluster DDL (`configs/clickhouse/cluster/schema.sql`): local MergeTree-family tables on
//! every node behind Distributed tables with the single-node names, so writers and the query
//! pack need no change. Applied with `ON CLUSTER` (distributed DDL) or node by node.

use super::client::{with_timeout, Connection};
use super::schema::{
    add_missing_columns, split_statements, ADDED_RUNS_COLUMNS, ADDED_SITES_COLUMNS,
};
use crate::error::StoreError;

/// The cluster schema file, with `{db}`, `{cluster}` and `{on_cluster}` placeholders.
pub const CLUSTER_SCHEMA_SQL: &str = include_str!("../../../configs/clickhouse/cluster/schema.sql");

/// How the cluster DDL reaches the nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClusterDdl {
    /// `ON CLUSTER NAME`, sent to one node: needs ClickHouse Keeper or ZooKeeper.
    OnCluster,
    /// The statements without `ON CLUSTER`, sent to each node by the caller.
    PerNode,
}

/// The cluster schema's statements for `database` on `cluster`, in order.
pub fn cluster_schema_statements(database: &str, cluster: &str, ddl: ClusterDdl) -> Vec<String> {
    let on_cluster = match ddl {
        ClusterDdl::OnCluster => format!("ON CLUSTER {cluster}"),
        ClusterDdl::PerNode => String::new(),
    };
    split_statements(CLUSTER_SCHEMA_SQL)
        .into_iter()
        .map(|s| {
            s.replace("{db}", database)
                .replace("{on_cluster}", &on_cluster)
                .replace("{cluster}", cluster)
        })
        .collect()
}

/// Cluster names go into DDL unquoted, like database names.
fn validate_cluster(name: &str) -> Result<(), StoreError> {
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
            url: conn.target.url.clone(),
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
        assert_eq!(single.len(), 5, "{single:?}");
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
            assert_eq!(all.len(), 12);
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
            assert_eq!(distributed.count(), 5);
        }
    }

    #[test]
    fn cluster_names_are_plain_identifiers() {
        assert!(validate_cluster("census_1").is_ok());
        for bad in ["", "1c", "c; DROP", "c-d"] {
            assert!(validate_cluster(bad).is_err(), "{bad}");
        }
    }
}
