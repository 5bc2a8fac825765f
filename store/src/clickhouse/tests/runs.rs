//! The `runs` table holds each run's manifest: `load` writes it after the run's records, and
//! `schema init` gives an older `runs` table the columns that hold it.

use serde_json::json;

use super::*;
use crate::store::{RunManifest, RunStatus, Store};

#[derive(Debug, Row, Deserialize)]
struct RunManifestRow {
    run_id: String,
    status: String,
    source: String,
    sites: u64,
    label: String,
    started_at_ms: u64,
    manifest: String,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_writes_each_runs_manifest_into_runs() {
    let Some(url) = test_server_url() else { return };
    let conn = fresh_db(&url, "runs").await;
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(dir.path()).expect("store");
    let run_id = "census-a";
    let mut manifest = RunManifest::new(run_id, 1_700_000_000_123, vec![], json!({}), false);
    manifest.label = Some("census".into());
    manifest.provenance.mcpcensus_version = "mcpcensus 0.0.0-test".into();
    let mut writer = store.create_run(&manifest).expect("create run");
    for i in 0..5 {
        writer.append(&varied_record(run_id, i)).expect("append");
    }
    writer.finish().expect("finish");
    manifest.status = RunStatus::Complete;
    store.write_manifest(&manifest).expect("manifest");
    let summary = load_dir(
        &conn,
        dir.path(),
        100,
        3,
        &fast_backoff(),
        Duration::from_secs(60),
        None,
    )
    .await
    .expect("load");
    assert_eq!(summary.runs, [run_id]);
    let rows: Vec<RunManifestRow> = conn
        .client
        .query(
            "SELECT run_id, status, source, sites, label, started_at_ms, manifest \
             FROM runs FINAL",
        )
        .fetch_all()
        .await
        .expect("runs rows");
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(
        (
            row.run_id.as_str(),
            row.status.as_str(),
            row.source.as_str()
        ),
        (run_id, "complete", "load")
    );
    assert_eq!((row.sites, row.label.as_str()), (5, "census"));
    assert_eq!(row.started_at_ms, 1_700_000_000_123);
    let back: RunManifest = serde_json::from_str(&row.manifest).expect("manifest JSON");
    assert_eq!(back, manifest);
    drop_db(&conn).await;
}

/// A database whose runs table predates the manifest columns gets them from `init_schema`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schema_init_adds_the_manifest_columns_to_an_older_runs_table() {
    let Some(url) = test_server_url() else { return };
    let conn = fresh_db(&url, "runs_migrate").await;
    let db = conn.target.database.clone();
    for (name, _) in super::super::schema::ADDED_RUNS_COLUMNS {
        let sql = format!("ALTER TABLE {db}.runs DROP COLUMN {name}");
        conn.server
            .query(&sql)
            .execute()
            .await
            .expect("drop column");
    }
    let columns = format!(
        "SELECT count() FROM system.columns WHERE database = '{db}' AND table = 'runs' \
         AND name IN ('label', 'started_at_ms', 'updated_at_ms', 'manifest')"
    );
    assert_eq!(count(&conn, &columns).await, 0);
    init_schema(&conn).await.expect("init over the older table");
    assert_eq!(count(&conn, &columns).await, 4);
    let row = RunRow::of_manifest(
        &RunManifest::new("r", 1_000, vec![], json!({}), false),
        "crawl",
        0,
    );
    record_run(&conn, &row)
        .await
        .expect("insert after the migration");
    drop_db(&conn).await;
}
