//! Inserting records into `sites`, `tools` and `findings`, and run rows into `runs`.

use std::time::Duration;

use super::client::{with_timeout, Backoff, Connection};
use super::failure::is_content_error;
use super::rows::{FindingRow, RunPartRow, RunRow, SiteRow, ToolRow};
use super::stream::insert_rows;
use crate::error::StoreError;
use crate::record::Record;
use crate::store::RunManifest;

/// Inserts records into `tools` and `findings` (concurrently), then `sites`. Not atomic across
/// tables: a failed call is retried whole, and the tables collapse what was inserted twice.
/// `sites` goes last because a resume takes a site found there as done: its tools and
/// findings rows must be in by then.
pub async fn insert_records(
    conn: &Connection,
    records: &[Record],
    timeout: Duration,
) -> Result<(), StoreError> {
    let sites = insert_rows(
        conn,
        "sites",
        timeout,
        records.iter().map(SiteRow::from_record),
    );
    let tools = async {
        if records.iter().all(|r| r.tools.is_empty()) {
            return Ok(());
        }
        let rows = records.iter().flat_map(ToolRow::from_record);
        insert_rows(conn, "tools", timeout, rows).await
    };
    let findings = async {
        if records.iter().all(|r| r.findings.is_empty()) {
            return Ok(());
        }
        let rows = records.iter().flat_map(FindingRow::from_record);
        insert_rows(conn, "findings", timeout, rows).await
    };
    // The two run at once, so the server parses one while the client encodes the other.
    tokio::try_join!(tools, findings)?;
    sites.await
}

/// Writes a `runs` row (the latest row of a run wins) and, when the row carries its manifest,
/// the `run_parts` row of the process's part (the latest row of a part wins).
pub async fn record_run(conn: &Connection, row: &RunRow) -> Result<(), StoreError> {
    with_timeout("inserting into runs", async {
        let mut insert = conn.client.insert::<RunRow>("runs").await?;
        insert.write(row).await?;
        insert.end().await
    })
    .await?;
    let Ok(manifest) = serde_json::from_str::<RunManifest>(&row.manifest) else {
        return Ok(()); // A row without a manifest (written by a test or an old caller).
    };
    let part = RunPartRow::of_manifest(&manifest);
    with_timeout("inserting into run_parts", async {
        let mut insert = conn.client.insert::<RunPartRow>("run_parts").await?;
        insert.write(&part).await?;
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
