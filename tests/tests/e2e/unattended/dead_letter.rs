//! A crawl into ClickHouse whose server rejects one site's row for its content: every other
//! row lands, the run's dead-letter file holds that record, the manifest counts it and the
//! crawl's end summary says where it is.

use std::time::Duration;

use mcpcensus_store::clickhouse::{
    connect, read_dead_letters, Connection, Spool, Target, DEAD_LETTER_FILE,
};

use super::fixture::{read_store, Web};
use crate::child::{spawn_crawler, wait, ChildOptions};
use crate::util::{mcpcensus, test_server_url, unique_db};

/// A database with the schema whose `sites` refuses exactly the row of input `bad` (18.16
/// has no CHECK constraints: a column throws for it).
async fn db_refusing(url: &str, tag: &str, bad: &str) -> (Connection, String) {
    let db = unique_db(tag);
    let code = mcpcensus(&["schema", "init", "--clickhouse", url, "--database", &db])
        .await
        .unwrap();
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    let conn = connect(&Target::new(url, &db)).await.unwrap();
    let sql =
        format!("ALTER TABLE sites ADD COLUMN reject UInt8 MATERIALIZED throwIf(input = '{bad}')");
    conn.client.query(&sql).execute().await.unwrap();
    (conn, db)
}

async fn drop_db(conn: &Connection, db: &str) {
    conn.server
        .query(&format!("DROP DATABASE IF EXISTS {db}"))
        .execute()
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_row_clickhouse_rejects_is_dead_lettered_counted_and_reported() {
    let Some(url) = test_server_url() else {
        return;
    };
    let web = Web::start(30, Duration::ZERO, 39).await;
    let bad = web.sites[7].0.clone();
    let (conn, db) = db_refusing(&url, "dead_letter", &bad).await;
    let mut args = web.crawl_args(&["--clickhouse", &url, "--database", &db]);
    args.retain(|a| a != "--quiet");
    let child = spawn_crawler(&args, &ChildOptions::default());
    let (code, stderr) = wait(child, Duration::from_secs(120)).await;
    assert_eq!(code, Some(0), "{stderr}");
    let (manifest, records) = read_store(&web.store()).unwrap();
    assert_eq!(records.len(), 30, "the store has every record");
    assert_eq!(crate::util::counts(&manifest).clickhouse_dead_letters, 1);
    let path = web
        .store()
        .join("runs")
        .join(&manifest.run_id)
        .join(DEAD_LETTER_FILE);
    let dead = read_dead_letters(&path).unwrap();
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].record.input, bad);
    assert!(dead[0].error.contains("throwIf"), "{}", dead[0].error);
    assert!(
        stderr.contains("ClickHouse rejected 1 record(s) for their content"),
        "{stderr}"
    );
    let rows = crate::util::run_rows(&conn, manifest.run_id.as_str()).await;
    assert_eq!(rows, 29, "every other row landed");
    drop_db(&conn, &db).await;
}

/// A spool an earlier run left (a crawl that died during an outage) holding a row ClickHouse
/// refuses: the next crawl starts all the same, loads the other rows, puts that one in the
/// earlier run's dead-letter file and says so in its summary.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spool_holding_a_refused_row_does_not_stop_the_next_crawl() {
    let Some(url) = test_server_url() else {
        return;
    };
    let web = Web::start(12, Duration::ZERO, 48).await;
    let child = spawn_crawler(&web.crawl_args(&[]), &ChildOptions::default());
    let (code, stderr) = wait(child, Duration::from_secs(120)).await;
    assert_eq!(code, Some(0), "{stderr}");
    let (first, records) = read_store(&web.store()).unwrap();
    assert_eq!(records.len(), 12);
    let spool_dir = web.store().join("clickhouse-spool").join(&first.run_id);
    let mut spool = Spool::open(&spool_dir).unwrap();
    spool.append(&records).unwrap();
    spool.seal().unwrap();
    drop(spool);
    let bad = web.sites[5].0.clone();
    let (conn, db) = db_refusing(&url, "spool_refused", &bad).await;

    let mut args = web.crawl_args(&["--clickhouse", &url, "--database", &db]);
    args.retain(|a| a != "--quiet");
    let child = spawn_crawler(&args, &ChildOptions::default());
    let (code, stderr) = wait(child, Duration::from_secs(120)).await;
    assert_eq!(code, Some(0), "the next crawl runs: {stderr}");
    assert!(!spool_dir.exists(), "the spool was loaded and removed");
    let path = web
        .store()
        .join("runs")
        .join(&first.run_id)
        .join(DEAD_LETTER_FILE);
    let dead = read_dead_letters(&path).unwrap();
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].record.input, bad);
    let said = format!(
        "ClickHouse rejected 1 record(s) of the spool run {} left",
        first.run_id
    );
    assert!(stderr.contains(&said), "{stderr}");
    let rows = crate::util::run_rows(&conn, first.run_id.as_str()).await;
    assert_eq!(rows, 11, "the spool's other rows landed");
    drop_db(&conn, &db).await;
}
