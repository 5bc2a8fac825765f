//! The sink through a ClickHouse outage: spooled, drained, and a server that never answers.

use super::*;

/// The sink keeps taking records while the server is down (they go to the spool), drains the
/// spool when it is back, and ends with exactly one row per record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sink_spools_through_an_outage_and_drains_after() {
    if test_server_url().is_none() {
        return;
    }
    const N: usize = 30_000;
    let server = OwnServer::start();
    let conn = fresh_db(&server.url, "outage").await;
    let spool = tempfile::tempdir().expect("tempdir");
    let mut options = SinkOptions::new(spool.path().join("spool"));
    options.batch_rows = std::num::NonZeroUsize::new(2_000).expect("non-zero");
    options.batch_delay = Duration::from_millis(200);
    options.backoff = fast_backoff();
    options.finish_wait = Duration::from_secs(60);
    let run_id = "20261130T000000Z-outage";
    let records: Vec<Record> = (0..N).map(|i| varied_record(run_id, i)).collect();
    let target = Target::new(&server.url, conn.target.database.clone());
    let writer_records = records.clone();
    let server_dir = server.dir.path().to_owned();
    let writer = std::thread::spawn(move || {
        let mut sink = ClickHouseSink::start(target, options).expect("sink");
        let mut slowest = Duration::ZERO;
        for (i, r) in writer_records.iter().enumerate() {
            if i == N / 3 {
                OwnServer::run(&server_dir, "stop");
            }
            if i == 2 * N / 3 {
                OwnServer::run(&server_dir, "start");
            }
            let t = Instant::now();
            sink.write(r).expect("write");
            slowest = slowest.max(t.elapsed());
            if i % 100 == 0 {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        (sink.finish(), slowest)
    });
    let (stats, slowest) = tokio::task::spawn_blocking(move || writer.join().expect("writer"))
        .await
        .expect("join");
    let stats = stats.expect("finish drains the spool");
    eprintln!("outage sink stats: {stats:?}, slowest write {slowest:?}");
    assert!(stats.spooled > 0, "the outage spooled records: {stats:?}");
    assert_eq!(stats.drained, stats.spooled, "{stats:?}");
    assert_eq!(stats.inserted + stats.spooled, N as u64, "{stats:?}");
    assert!(
        slowest < Duration::from_secs(5),
        "writes never waited long on the outage: {slowest:?}"
    );
    assert!(
        !spool.path().join("spool").exists(),
        "drained spool removed"
    );
    assert_matches(&conn, run_id, &records).await;
    drop_db(&conn).await;
    drop(server);
}

#[test]
fn spool_keeps_generations_until_drained_and_finds_leftovers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("spool");
    let records: Vec<Record> = (0..10).map(|i| varied_record("run-s", i)).collect();
    let mut spool = Spool::open(&root).expect("open");
    assert!(spool.is_empty());
    spool.append(&records[..4]).expect("append");
    spool.append(&records[4..6]).expect("append");
    spool.seal().expect("seal");
    spool.append(&records[6..]).expect("append");
    assert_eq!(spool.pending_records(), 10);
    // A crash here: the next process finds both generations and reads every record.
    drop(spool);
    let mut again = Spool::open(&root).expect("reopen");
    assert_eq!(again.sealed().len(), 2);
    let read: Vec<Record> = again
        .sealed()
        .iter()
        .flat_map(|d| crate::store::RunReader::open_dir(d).expect("reader"))
        .map(|r| r.expect("record"))
        .collect();
    assert_eq!(read, records);
    for d in again.sealed().to_vec() {
        again.remove_drained(&d, 0).expect("remove");
    }
    assert!(again.is_empty());
    again.remove_if_empty().expect("remove root");
    assert!(!root.exists());
}

#[test]
fn sink_start_fails_when_the_server_does_not_answer() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener); // nothing listens there now
    let dir = tempfile::tempdir().expect("tempdir");
    let err = ClickHouseSink::start(
        Target::new(format!("http://127.0.0.1:{port}"), "db"),
        SinkOptions::new(dir.path().join("spool")),
    )
    .err()
    .expect("no server, no sink");
    assert!(err.to_string().contains("server version"), "{err}");
}
