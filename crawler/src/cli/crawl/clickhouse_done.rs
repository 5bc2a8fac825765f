//! Which sites of a resumed run ClickHouse already has: the run's own spool is drained first
//! (those records were handed over too), then one streamed query over the run's `sites` rows,
//! plus the records the server rejected (in the run's dead-letter file: scanning them again
//! would only be rejected again).

use anyhow::Context;
use mcpcensus_store::clickhouse::{
    for_each_done_row, read_dead_letters, DEAD_LETTER_FILE, DEFAULT_QUERY_TIMEOUT,
};
use mcpcensus_store::{Outcome, Store};

use super::selection::Selection;
use crate::cli::clickhouse::CrawlClickHouse;
use crate::run::{DoneSet, WrittenCounts};

pub async fn clickhouse_done(
    ch: &CrawlClickHouse,
    store: &Store,
    run_id: &str,
    selection: &Selection,
) -> anyhow::Result<(DoneSet, WrittenCounts)> {
    {
        // Held while draining, so no other process appends to the spool meanwhile.
        let _lock = store.try_lock_run(run_id)?.with_context(|| {
            format!("run {run_id} is being written by another process: cannot resume it now")
        })?;
        ch.drain_own_spool(store, run_id).await?;
    }
    rows_done(ch, store, run_id, selection).await
}

/// The sites of the run ClickHouse holds (and the records it rejected), without draining a
/// spool: for a run this process has just created under an id an earlier attempt used (a
/// retried shard on a fresh disk has no spool of it).
pub async fn rows_done(
    ch: &CrawlClickHouse,
    store: &Store,
    run_id: &str,
    selection: &Selection,
) -> anyhow::Result<(DoneSet, WrittenCounts)> {
    let mut done = selection.done_set();
    let mut counts = WrittenCounts::default();
    let mut unknown = None;
    let rows = for_each_done_row(ch.connection(), run_id, DEFAULT_QUERY_TIMEOUT, |row| {
        let outcome = serde_json::from_value::<Outcome>(serde_json::Value::String(row.outcome));
        match outcome {
            Ok(outcome) if done.insert(row.input_line, &row.input) => {
                counts.add_fields(outcome, row.defect != 0, row.has_endpoint != 0);
            }
            Ok(_) => {}
            Err(e) => unknown = Some(e),
        }
    })
    .await
    .context("asking ClickHouse which sites of the run it has")?;
    if let Some(e) = unknown {
        anyhow::bail!("ClickHouse holds a row of run {run_id} with an outcome this build does not know ({e}): resume it with the build that wrote it");
    }
    let dead_path = store.run_dir(run_id)?.join(DEAD_LETTER_FILE);
    let dead = read_dead_letters(&dead_path)?;
    for letter in &dead {
        if done.insert(letter.record.input_line, &letter.record.input) {
            counts.add(&letter.record);
        }
    }
    tracing::info!(
        run_id,
        rows,
        dead_letters = dead.len(),
        "ClickHouse has these sites of the run"
    );
    Ok((done, counts))
}
