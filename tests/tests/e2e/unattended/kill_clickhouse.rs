//! The SIGKILL test with ClickHouse: alone (the done set is what the server acknowledged) and
//! with the embedded store too (a site is done only when both have it). Needs the suite's
//! ClickHouse (`MCPCENSUS_TEST_CLICKHOUSE`); without it the tests print SKIPPED.

use mcpcensus_store::clickhouse::{connect, Connection, Target};

use super::fixture::Web;
use super::kill::{kill_and_resume, Sinks, DELAY, SITES};
use crate::util::{test_server_url, unique_db};

const KILLS: usize = 5;

async fn database(url: &str, tag: &str) -> Connection {
    connect(&Target::new(url, unique_db(tag)))
        .await
        .expect("the test ClickHouse server must answer")
}

async fn drop_db(conn: &Connection) {
    let sql = format!("DROP DATABASE IF EXISTS {}", conn.target.database);
    conn.server.query(&sql).execute().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_5_moments_with_clickhouse_alone_then_resume_leaves_one_row_per_line() {
    let Some(url) = test_server_url() else {
        return;
    };
    let conn = database(&url, "kill_ch").await;
    let web = Web::start(SITES, DELAY, 37).await;
    let sinks = Sinks::ClickHouse {
        conn: conn.clone(),
        tee: false,
    };
    kill_and_resume(&web, &sinks, KILLS, &[]).await;
    drop_db(&conn).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_5_moments_with_clickhouse_and_the_store_then_resume_leaves_one_of_each() {
    let Some(url) = test_server_url() else {
        return;
    };
    let conn = database(&url, "kill_both").await;
    let web = Web::start(SITES, DELAY, 38).await;
    let sinks = Sinks::ClickHouse {
        conn: conn.clone(),
        tee: true,
    };
    kill_and_resume(&web, &sinks, KILLS, &[]).await;
    drop_db(&conn).await;
}
