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

/// Kills a run into ClickHouse (`tee`: and the store) `KILLS` times, then checks the end.
async fn kill_test(tag: &str, net: u8, tee: bool) {
    let Some(url) = test_server_url() else {
        return;
    };
    let conn = database(&url, tag).await;
    let web = Web::start(SITES, DELAY, net).await;
    let sinks = Sinks::ClickHouse {
        conn: conn.clone(),
        tee,
    };
    kill_and_resume(&web, &sinks, KILLS, &[]).await;
    drop_db(&conn).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_5_moments_with_clickhouse_alone_then_resume_leaves_one_row_per_line() {
    kill_test("kill_ch", 37, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_at_5_moments_with_clickhouse_and_the_store_then_resume_leaves_one_of_each() {
    kill_test("kill_both", 38, true).await;
}
