//! A resumed run with the store and ClickHouse: the store's records ClickHouse lacks (a
//! killed process's last batch, an emptied or wrong database) are handed to the ClickHouse
//! sink before the crawl goes on, so they are inserted, spooled or dead-lettered like any
//! other record and no site is scanned again for them.

use anyhow::Context;
use mcpcensus_store::clickhouse::ClickHouseSink;
use mcpcensus_store::Store;

use crate::run::DoneSet;

/// Streams the run's records from the store into `sink`, those `reload` names only; returns
/// the sink. Memory: one record at a time plus the sink's bounded queue.
pub async fn reload(
    store: &Store,
    run_id: &str,
    mut reload: DoneSet,
    mut sink: Box<ClickHouseSink>,
) -> anyhow::Result<Box<ClickHouseSink>> {
    let reader = store
        .read_run(run_id)
        .with_context(|| format!("reading run {run_id} to load it into ClickHouse"))?;
    let wanted = reload.len();
    tracing::warn!(
        run_id,
        records = wanted,
        "ClickHouse lacks records the store has: loading them from the store"
    );
    let (sink, loaded) = tokio::task::spawn_blocking(move || {
        let mut loaded = 0u64;
        for item in reader {
            let record = match item {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!(error = %e, "skipping an unreadable record");
                    continue;
                }
            };
            if reload.take(record.input_line, &record.input) {
                sink.write(&record)?;
                loaded += 1;
            }
        }
        anyhow::Ok((sink, loaded))
    })
    .await
    .context("loading the store's records into ClickHouse")??;
    tracing::info!(
        run_id,
        loaded,
        "the store's records ClickHouse lacked are handed to its sink"
    );
    Ok(sink)
}
