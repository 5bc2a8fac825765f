//! Records the server rejects for their content: isolated, the rest inserted, dead-lettered.

use std::time::Duration;

use super::tests::{
    count, drop_db, fast_backoff, fresh_db, test_server_url, varied_record, write_segments,
};
use super::*;
use crate::error::StoreError;
use crate::record::Record;

/// A fresh database whose `sites` refuses `bad`'s row (a column throws for it: 18.16 has no
/// CHECK constraints).
async fn db_refusing(url: &str, tag: &str, bad: &Record) -> Connection {
    let conn = fresh_db(url, tag).await;
    let bad_input = bad.input.replace('\'', "\\'");
    let sql = format!(
        "ALTER TABLE sites ADD COLUMN reject UInt8 MATERIALIZED throwIf(input = '{bad_input}')"
    );
    conn.client.query(&sql).execute().await.expect("alter");
    conn
}

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

#[test]
fn failures_are_classed_by_type_and_the_code_that_opens_the_error() {
    let bad = |text: &str| StoreError::ClickHouse {
        op: "inserting into sites".into(),
        source: clickhouse::error::Error::BadResponse(text.into()),
    };
    let class = |text: &str| classify(&bad(text));
    assert_eq!(
        class("Code: 27. DB::Exception: Cannot parse"),
        InsertFailure::Content
    );
    assert_eq!(class("  Code: 395"), InsertFailure::Content);
    assert_eq!(
        class("Code: 252, e.displayText() = Too many parts"),
        InsertFailure::Unavailable
    );
    assert_eq!(
        class("Code: 241. Memory limit exceeded"),
        InsertFailure::Unavailable
    );
    assert_eq!(
        class("Code: 60. Table sites doesn't exist"),
        InsertFailure::Server
    );
    assert_eq!(
        class("Code: 497. Not enough privileges"),
        InsertFailure::Server
    );
    // No code up front: a proxy's page, or a message quoting a row that says "Code: 27".
    assert_eq!(class("502 Bad Gateway"), InsertFailure::Unavailable);
    assert_eq!(class("upstream said Code: 27"), InsertFailure::Unavailable);
    assert_eq!(class("Code: x27"), InsertFailure::Unavailable);
    assert_eq!(
        class("Code: 99999999999999999999"),
        InsertFailure::Unavailable
    );
    assert_eq!(class(""), InsertFailure::Unavailable);
    let timeout = StoreError::ClickHouseTimeout {
        op: "inserting into sites".into(),
        secs: 10,
    };
    assert_eq!(classify(&timeout), InsertFailure::Unavailable);
    let network = StoreError::ClickHouse {
        op: "x".into(),
        source: clickhouse::error::Error::Network("refused".into()),
    };
    assert_eq!(classify(&network), InsertFailure::Unavailable);
    let encode = StoreError::ClickHouse {
        op: "x".into(),
        source: clickhouse::error::Error::SequenceMustHaveLength,
    };
    assert_eq!(classify(&encode), InsertFailure::Server);
}

/// A spool with one row the server refuses: loading it (what a crawl does with the spools
/// earlier runs left) dead-letters that row and loads the rest, instead of failing whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loading_a_spool_with_a_refused_row_dead_letters_it_and_loads_the_rest() {
    let Some(url) = test_server_url() else {
        return;
    };
    const N: usize = 50;
    const BAD: usize = 31;
    let run_id = "20261201T000000Z-spooldead";
    let records: Vec<Record> = (0..N).map(|i| varied_record(run_id, i)).collect();
    let conn = db_refusing(&url, "spool_dead", &records[BAD]).await;
    let dir = tempfile::tempdir().expect("tempdir");
    let spool = dir.path().join("spool");
    let mut s = Spool::open(&spool).expect("spool");
    s.append(&records).expect("append");
    s.seal().expect("seal");
    let path = dir.path().join(DEAD_LETTER_FILE);
    let mut dead = DeadLetters::new(&path, DEFAULT_DEAD_LETTER_MAX_BYTES);
    let timeout = Duration::from_secs(30);
    let summary = load_dir(
        &conn,
        &spool,
        20,
        2,
        &fast_backoff(),
        timeout,
        Some(&mut dead),
    )
    .await
    .expect("the spool loads though one row is refused");
    assert_eq!((summary.records, summary.dead_lettered), (N as u64 - 1, 1));
    let letters = read_dead_letters(&path).expect("dead letters");
    assert_eq!(letters.len(), 1);
    assert_eq!(letters[0].record, records[BAD]);
    let sql = format!("SELECT count() FROM sites FINAL WHERE run_id = '{run_id}'");
    assert_eq!(count(&conn, &sql).await, N as u64 - 1);
    // Without a dead-letter file the refusal stops the load, as before.
    let err = load_dir(&conn, &spool, 20, 2, &fast_backoff(), timeout, None)
        .await
        .expect_err("refused");
    assert!(is_content_error(&err), "{err}");
    drop_db(&conn).await;
}

/// A server that refuses every insert (here: no `sites` table) is an outage, not bad rows:
/// nothing is dead-lettered and the caller gets the error (the sink spools).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_refusing_every_row_dead_letters_none() {
    let Some(url) = test_server_url() else {
        return;
    };
    let conn = fresh_db(&url, "refuse_all").await;
    conn.client
        .query("DROP TABLE sites")
        .execute()
        .await
        .expect("drop");
    let run_id = "20261201T000000Z-refuseall";
    let dir = tempfile::tempdir().expect("tempdir");
    write_segments(dir.path(), (0..40).map(|i| varied_record(run_id, i)));
    let path = dir.path().join(DEAD_LETTER_FILE);
    let mut dead = DeadLetters::new(&path, DEFAULT_DEAD_LETTER_MAX_BYTES);
    for rows in [40, 1] {
        let err = load_dir(
            &conn,
            dir.path(),
            rows,
            1,
            &fast_backoff(),
            Duration::from_secs(30),
            Some(&mut dead),
        )
        .await
        .expect_err("no table");
        assert_eq!(classify(&err), InsertFailure::Server, "{err}");
    }
    assert_eq!(dead.written, 0);
    assert!(read_dead_letters(&path).expect("read").is_empty());
    drop_db(&conn).await;
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
    let run_id = "20261201T000000Z-deadletter";
    let records: Vec<Record> = (0..N).map(|i| varied_record(run_id, i)).collect();
    let conn = db_refusing(&url, "deadletter", &records[BAD]).await;
    let bad_input = records[BAD].input.replace('\'', "\\'");
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
