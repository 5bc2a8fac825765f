//! When each site was last scanned, read from the `sites` table row by row (the re-scan's
//! one pass over the store; `configs/clickhouse/queries/last_scans.sql`).

use std::time::Duration;

use clickhouse::Row;
use serde::Deserialize;

use super::client::Connection;
use crate::error::StoreError;

/// The query, from the query pack.
pub const LAST_SCANS_SQL: &str = include_str!("../../../configs/clickhouse/queries/last_scans.sql");

/// Longest wait for the next row (the server aggregates first, then streams).
pub const LAST_SCANS_ROW_TIMEOUT: Duration = Duration::from_secs(300);

#[derive(Debug, Row, Deserialize)]
struct LastScanRow {
    site: String,
    last_scan_ms: u64,
}

/// Calls `each(origin, last scan ms)` once per site; returns the number of sites.
pub async fn last_scans(
    conn: &Connection,
    mut each: impl FnMut(String, u64),
) -> Result<u64, StoreError> {
    const OP: &str = "reading when each site was last scanned";
    let failed = |source| StoreError::ClickHouse {
        op: OP.to_owned(),
        source,
    };
    let mut cursor = conn
        .client
        .query(LAST_SCANS_SQL)
        .fetch::<LastScanRow>()
        .map_err(failed)?;
    let mut sites = 0;
    loop {
        let next = tokio::time::timeout(LAST_SCANS_ROW_TIMEOUT, cursor.next())
            .await
            .map_err(|_| StoreError::ClickHouseTimeout {
                op: OP.to_owned(),
                secs: LAST_SCANS_ROW_TIMEOUT.as_secs(),
            })?
            .map_err(failed)?;
        let Some(row) = next else {
            return Ok(sites);
        };
        sites += 1;
        each(row.site, row.last_scan_ms);
    }
}
