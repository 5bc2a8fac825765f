//! Records the server rejects for their content: isolated, the rest inserted, dead-lettered.

use std::time::Duration;

use super::tests::{count, drop_db, fresh_db, test_server_url, varied_record};
use super::*;
use crate::error::StoreError;
use crate::record::Record;

#[test]
fn server_codes_of_parse_and_type_errors_are_content_errors() {
    let bad = |text: &str| StoreError::ClickHouse {
        op: "inserting into sites".into(),
        source: clickhouse::error::Error::BadResponse(text.into()),
    };
    assert!(is_content_error(&bad(
        "Code: 395, e.displayText() = DB::Exception: Value passed to 'throwIf' function is non zero"
    )));
    assert!(is_content_error(&bad(
        "Code: 27. DB::Exception: Cannot parse input"
    )));
    assert!(!is_content_error(&bad(
        "Code: 252, e.displayText() = DB::Exception: Too many parts"
    )));
    assert!(!is_content_error(&bad(
        "Code: 60. Table sites doesn't exist"
    )));
    assert!(!is_content_error(&StoreError::ClickHouseTimeout {
        op: "inserting into sites".into(),
        secs: 10
    }));
}

/// One row the server refuses (a column of the test database throws for it): the other rows
/// of its batch land, the dead-letter file holds exactly that record with the server's error,
/// and the sink counts one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_row_goes_to_the_dead_letter_file_and_the_rest_land() {
    let Some(url) = test_server_url() else {
        return;
    };
    const N: usize = 300;
    const BAD: usize = 137;
    let conn = fresh_db(&url, "deadletter").await;
    let run_id = "20261201T000000Z-deadletter";
    let records: Vec<Record> = (0..N).map(|i| varied_record(run_id, i)).collect();
    let bad_input = records[BAD].input.replace('\'', "\\'");
    let sql = format!(
        "ALTER TABLE sites ADD COLUMN reject UInt8 MATERIALIZED throwIf(input = '{bad_input}')"
    );
    conn.client.query(&sql).execute().await.expect("alter");
    let dir = tempfile::tempdir().expect("tempdir");
    let dead_path = dir.path().join(DEAD_LETTER_FILE);
    let mut options = SinkOptions::new(dir.path().join("spool"));
    options.batch_delay = Duration::from_millis(100);
    options.dead_letter = Some(dead_path.clone());
    let target = Target::new(&url, conn.target.database.clone());
    let sent = records.clone();
    let stats = tokio::task::spawn_blocking(move || {
        let mut sink = ClickHouseSink::start(target, options).expect("sink");
        for r in &sent {
            sink.write(r).expect("write");
        }
        sink.finish()
    })
    .await
    .expect("join")
    .expect("the sink finishes: one bad row does not stop it");
    assert_eq!(stats.dead_lettered, 1, "{stats:?}");
    assert_eq!(stats.inserted, N as u64 - 1, "{stats:?}");
    assert_eq!(
        stats.spooled, 0,
        "a content error is not an outage: {stats:?}"
    );
    let sites = count(
        &conn,
        &format!("SELECT count() FROM sites FINAL WHERE run_id = '{run_id}'"),
    )
    .await;
    assert_eq!(sites, N as u64 - 1);
    let missing = count(
        &conn,
        &format!("SELECT count() FROM sites WHERE run_id = '{run_id}' AND input = '{bad_input}'"),
    )
    .await;
    assert_eq!(missing, 0);
    let dead = read_dead_letters(&dead_path).expect("dead letters");
    assert_eq!(dead.len(), 1);
    assert_eq!(dead[0].record, records[BAD]);
    assert!(dead[0].error.contains("throwIf"), "{}", dead[0].error);
    drop_db(&conn).await;
}

#[test]
fn the_dead_letter_file_stops_at_its_cap_and_a_torn_line_is_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(DEAD_LETTER_FILE);
    let err = StoreError::ClickHouseTimeout {
        op: "x".into(),
        secs: 1,
    };
    let record = varied_record("20261201T000000Z-cap", 1);
    let mut dead = DeadLetters::new(&path, 10_000);
    dead.append(&record, &err).expect("first");
    // A killed process left half a line.
    std::fs::write(
        &path,
        std::fs::read_to_string(&path).expect("read") + "{\"record\":",
    )
    .expect("write");
    assert_eq!(read_dead_letters(&path).expect("read").len(), 1);
    let mut dead = DeadLetters::new(&path, 10_000);
    let mut appended = 0;
    let full = loop {
        match dead.append(&record, &err) {
            Ok(()) => appended += 1,
            Err(e) => break e,
        }
    };
    assert!(matches!(full, StoreError::DeadLetterFull { .. }), "{full}");
    assert!(std::fs::metadata(&path).expect("meta").len() <= 10_000);
    assert_eq!(
        read_dead_letters(&path).expect("read").len(),
        1 + appended,
        "the torn line was cut, not kept"
    );
}
