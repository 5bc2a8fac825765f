//! What ClickHouse already holds of a run, for `crawl --resume`: one streamed query over the
//! run's `sites` rows (FINAL, so a row inserted twice counts once), placeholders left out.

use std::time::Duration;

use clickhouse::Row;
use serde::Deserialize;

use super::client::Connection;
use super::stream::for_each_row;
use crate::error::StoreError;

/// A site of the run that ClickHouse acknowledged, with what the run's counts need.
#[derive(Debug, Clone, PartialEq, Eq, Row, Deserialize)]
pub struct DoneRow {
    pub input_line: u64,
    pub input: String,
    pub outcome: String,
    pub defect: u8,
    pub has_endpoint: u8,
}

const DONE_ROWS_SQL: &str = "SELECT input_line, input, outcome, defect, isNotNull(endpoint) \
     FROM sites FINAL WHERE run_id = ? AND outcome != 'not_started'";

/// Calls `f` on every row of `run_id`, streaming (memory: the client's read buffer). Each
/// wait for the next rows has `timeout`, so a server that stops answering fails the call.
pub async fn for_each_done_row(
    conn: &Connection,
    run_id: &str,
    timeout: Duration,
    mut f: impl FnMut(DoneRow),
) -> Result<u64, StoreError> {
    let query = conn.client.query(DONE_ROWS_SQL).bind(run_id);
    for_each_row(query, "reading the run's rows from sites", timeout, &mut f).await
}
