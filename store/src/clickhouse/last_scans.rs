//! When each site was last scanned, read from the `sites` table row by row (the re-scan's
//! one pass over the store; `configs/clickhouse/queries/last_scans.sql`).

use std::time::Duration;

use clickhouse::Row;
use serde::Deserialize;

use super::client::Connection;
use super::stream::for_each_row;
use crate::error::StoreError;

/// The query, from the query pack.
pub const LAST_SCANS_SQL: &str = include_str!("../../../configs/clickhouse/queries/last_scans.sql");

/// Longest wait for the next row (the server aggregates first, then streams).
pub const LAST_SCANS_ROW_TIMEOUT: Duration = Duration::from_secs(300);

#[derive(Debug, Row, Deserialize)]
struct LastScanRow {
    site: String,
    last_scan_ms: u64,
    last_rank: Option<u32>,
}

/// Calls `each(origin, last scan ms, its rank then)` once per site as the rows stream in;
/// returns the number of sites. A sharded re-scan keeps its own sites in `each`: the shard
/// hash (xxh3 of the registrable domain) is not a function ClickHouse 18.16 has, so the
/// server cannot filter by it, and the caller holds only its shard's rows, never the result.
pub async fn last_scans(
    conn: &Connection,
    mut each: impl FnMut(String, u64, Option<u32>),
) -> Result<u64, StoreError> {
    let query = conn.client.query(LAST_SCANS_SQL);
    let op = "reading when each site was last scanned";
    let each_row = |row: LastScanRow| each(row.site, row.last_scan_ms, row.last_rank);
    for_each_row(query, op, LAST_SCANS_ROW_TIMEOUT, each_row).await
}
