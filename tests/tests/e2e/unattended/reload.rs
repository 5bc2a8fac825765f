//! Resume with the store and ClickHouse never deletes: a run teeing into both is killed, its
//! ClickHouse database dropped, and `--resume` loads ClickHouse again from the store. The
//! store's records stay as they were, ClickHouse ends with one row a line, and no site that
//! had a record is asked anything again. Needs the suite's ClickHouse.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use mcpcensus_store::clickhouse::{connect, Target};
use mcpcensus_store::{Outcome, Record};

use super::fixture::{read_store, Web};
use super::kill::{Sinks, DELAY, SITES};
use crate::child::{spawn_crawler, wait, ChildOptions};
use crate::util::{counts, test_server_url, unique_db};

/// The kill lands once ClickHouse holds this many rows (the store holds as many or more).
const ROWS_BEFORE_KILL: u64 = 60;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tee_run_killed_then_resumed_into_a_dropped_database_reloads_it_from_the_store() {
    let Some(url) = test_server_url() else {
        return;
    };
    let conn = connect(&Target::new(&url, unique_db("reload")))
        .await
        .expect("the test ClickHouse server must answer");
    let web = Web::start(SITES, DELAY, 47).await;
    let sinks = Sinks::ClickHouse {
        conn: conn.clone(),
        tee: true,
    };

    let mut child = spawn_crawler(
        &sinks.crawl_args(&web, &["--concurrency", "20"]),
        &ChildOptions::default(),
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    while sinks.records_now(&web).await < ROWS_BEFORE_KILL {
        assert!(child.try_wait().unwrap().is_none(), "ended before its kill");
        assert!(Instant::now() < deadline, "no progress in 120 s");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    child.kill().unwrap();
    let (code, _) = wait(child, Duration::from_secs(60)).await;
    assert_eq!(code, None, "killed");

    // What the store held at the kill, and how often each of those sites was asked.
    let (_, stored) = read_store(&web.store()).unwrap();
    let before: BTreeMap<u64, (String, u64)> = stored
        .iter()
        .filter(|r| r.outcome != Outcome::NotStarted)
        .map(|r| {
            let host = r.input.split(':').next().unwrap();
            let json = serde_json::to_string(r).unwrap();
            (r.input_line, (json, web.web.request_count(host)))
        })
        .collect();
    assert!(before.len() as u64 >= ROWS_BEFORE_KILL && before.len() < SITES as usize);

    let sql = format!("DROP DATABASE {}", conn.target.database);
    conn.server.query(&sql).execute().await.unwrap();

    let child = spawn_crawler(
        &sinks.crawl_args(&web, &["--concurrency", "60", "--resume"]),
        &ChildOptions::default(),
    );
    let (code, stderr) = wait(child, Duration::from_secs(300)).await;
    assert_eq!(code, Some(0), "{stderr}");

    let (manifest, records) = read_store(&web.store()).unwrap();
    assert_eq!(manifest.status, mcpcensus_store::RunStatus::Complete);
    assert_eq!(counts(&manifest).records_written, SITES as u64);
    for r in &records {
        if let Some((json, _)) = before.get(&r.input_line) {
            assert_eq!(
                &serde_json::to_string(r).unwrap(),
                json,
                "store record changed"
            );
        }
    }
    // One site key a line in ClickHouse, every line true, and the store's records there as
    // they are in the store.
    let rows = sinks.final_records(&web, &manifest.run_id, records).await;
    let raw: u64 = conn
        .client
        .query("SELECT count() FROM sites WHERE run_id = ?")
        .bind(&manifest.run_id)
        .fetch_one()
        .await
        .unwrap();
    assert_eq!(
        raw, SITES as u64,
        "each line inserted once: nothing scanned again"
    );
    let reloaded: Vec<&Record> = rows
        .iter()
        .filter(|r| before.contains_key(&r.input_line))
        .collect();
    assert_eq!(reloaded.len(), before.len());
    for r in reloaded {
        assert_eq!(&serde_json::to_string(r).unwrap(), &before[&r.input_line].0);
    }
    // The sites with a record were not asked again.
    for (input_line, (_, asked)) in &before {
        let host = web.sites[(*input_line - 1) as usize]
            .0
            .split(':')
            .next()
            .unwrap();
        assert_eq!(web.web.request_count(host), *asked, "{host} scanned again");
    }
    let sql = format!("DROP DATABASE IF EXISTS {}", conn.target.database);
    conn.server.query(&sql).execute().await.unwrap();
}
