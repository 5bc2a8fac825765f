//! Inserting records into `sites`, `tools` and `findings`, and run rows into `runs`.

use std::time::Duration;

use super::client::{with_timeout, Backoff, Connection};
use super::dead_letter::is_content_error;
use super::rows::{FindingRow, RunRow, SiteRow, ToolRow};
use crate::error::StoreError;
use crate::record::Record;

/// Inserts records into `tools` and `findings` (concurrently), then `sites`. Not atomic across
/// tables: a failed call is retried whole, and the tables collapse what was inserted twice.
/// `sites` goes last because a resume takes a site found there as done: its tools and
/// findings rows must be in by then.
pub async fn insert_records(
    conn: &Connection,
    records: &[Record],
    timeout: Duration,
) -> Result<(), StoreError> {
    let err = |op: &'static str| {
        move |source| StoreError::ClickHouse {
            op: op.to_owned(),
            source,
        }
    };
    let sites = async {
        let mut insert = start_insert::<SiteRow>(conn, "sites", timeout).await?;
        for r in records {
            insert
                .write(&SiteRow::from_record(r))
                .await
                .map_err(err("inserting into sites"))?;
        }
        insert.end().await.map_err(err("inserting into sites"))
    };
    let tools = async {
        if records.iter().all(|r| r.tools.is_empty()) {
            return Ok(());
        }
        let mut insert = start_insert::<ToolRow>(conn, "tools", timeout).await?;
        for row in records.iter().flat_map(ToolRow::from_record) {
            insert
                .write(&row)
                .await
                .map_err(err("inserting into tools"))?;
        }
        insert.end().await.map_err(err("inserting into tools"))
    };
    let findings = async {
        if records.iter().all(|r| r.findings.is_empty()) {
            return Ok(());
        }
        let mut insert = start_insert::<FindingRow>(conn, "findings", timeout).await?;
        for row in records.iter().flat_map(FindingRow::from_record) {
            insert
                .write(&row)
                .await
                .map_err(err("inserting into findings"))?;
        }
        insert.end().await.map_err(err("inserting into findings"))
    };
    // The two run at once, so the server parses one while the client encodes the other.
    tokio::try_join!(tools, findings)?;
    sites.await
}

/// Starts an insert into `table` with `timeout` on every call, the first one included (the
/// client asks the server to DESCRIBE the table before the first row of each insert).
async fn start_insert<T: clickhouse::Row>(
    conn: &Connection,
    table: &'static str,
    timeout: Duration,
) -> Result<clickhouse::insert::Insert<T>, StoreError> {
    let op = || format!("inserting into {table}");
    match tokio::time::timeout(timeout, conn.client.insert::<T>(table)).await {
        Ok(Ok(insert)) => Ok(insert.with_timeouts(Some(timeout), Some(timeout))),
        Ok(Err(source)) => Err(StoreError::ClickHouse { op: op(), source }),
        Err(_) => Err(StoreError::ClickHouseTimeout {
            op: op(),
            secs: timeout.as_secs(),
        }),
    }
}

/// Writes a `runs` row (the latest row of a run wins).
pub async fn record_run(conn: &Connection, row: &RunRow) -> Result<(), StoreError> {
    with_timeout("inserting into runs", async {
        let mut insert = conn.client.insert::<RunRow>("runs").await?;
        insert.write(row).await?;
        insert.end().await
    })
    .await
}

/// [`insert_records`] with up to `attempts` tries (one for a content error) and jittered backoff between them.
pub(crate) async fn insert_with_retry(
    conn: &Connection,
    records: &[Record],
    timeout: Duration,
    attempts: u32,
    backoff: &Backoff,
    failed_attempts: &mut u64,
) -> Result<(), StoreError> {
    let mut attempt = 0;
    loop {
        match insert_records(conn, records, timeout).await {
            Ok(()) => return Ok(()),
            Err(e) => {
                *failed_attempts += 1;
                attempt += 1;
                // The same rows would be refused again: data errors are not retried.
                if attempt >= attempts.max(1) || is_content_error(&e) {
                    return Err(e);
                }
                let delay = backoff.delay(attempt - 1);
                tracing::debug!(error = %e, attempt, delay_ms = delay.as_millis() as u64, "ClickHouse insert failed; retrying");
                tokio::time::sleep(delay).await;
            }
        }
    }
}
