//! Rows streamed to and from the server, one at a time, every wait under a deadline.

use std::time::Duration;

use clickhouse::query::Query;
use clickhouse::{RowOwned, RowRead, RowWrite};

use super::client::Connection;
use crate::error::StoreError;

/// Calls `each` on every row `query` returns, streaming (memory: the client's read buffer);
/// returns the number of rows. Each wait for the next rows has `timeout`, so a server that
/// stops answering fails the call.
pub(crate) async fn for_each_row<T: RowOwned + RowRead>(
    query: Query,
    op: &str,
    timeout: Duration,
    mut each: impl FnMut(T),
) -> Result<u64, StoreError> {
    let failed = |source| StoreError::ClickHouse {
        op: op.to_owned(),
        source,
    };
    let mut cursor = query.fetch::<T>().map_err(failed)?;
    let mut rows = 0;
    loop {
        let next = tokio::time::timeout(timeout, cursor.next())
            .await
            .map_err(|_| StoreError::ClickHouseTimeout {
                op: op.to_owned(),
                secs: timeout.as_secs(),
            })?
            .map_err(failed)?;
        let Some(row) = next else {
            return Ok(rows);
        };
        rows += 1;
        each(row);
    }
}

/// Inserts `rows` into `table` as one insert, `timeout` on every call, the first one
/// included (the client asks the server to DESCRIBE the table before the first row).
pub(crate) async fn insert_rows<T: RowOwned + RowWrite>(
    conn: &Connection,
    table: &'static str,
    timeout: Duration,
    rows: impl Iterator<Item = T>,
) -> Result<(), StoreError> {
    let op = || format!("inserting into {table}");
    let failed = |source| StoreError::ClickHouse { op: op(), source };
    let mut insert = match tokio::time::timeout(timeout, conn.client.insert::<T>(table)).await {
        Ok(Ok(insert)) => insert.with_timeouts(Some(timeout), Some(timeout)),
        Ok(Err(source)) => return Err(failed(source)),
        Err(_) => {
            return Err(StoreError::ClickHouseTimeout {
                op: op(),
                secs: timeout.as_secs(),
            })
        }
    };
    for row in rows {
        insert.write(&row).await.map_err(failed)?;
    }
    insert.end().await.map_err(failed)
}
