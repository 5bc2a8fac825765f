//! Unit tests, and tests against a real ClickHouse server: the one `scripts/test.sh` starts
//! (`MCPCENSUS_TEST_CLICKHOUSE=http://127.0.0.1:PORT`), each test in its own database. With that
//! variable set, a server that does not answer fails the test; without it (plain `cargo test`)
//! the server tests print a SKIPPED line and return. The outage test starts and stops a server
//! of its own with `scripts/clickhouse.sh`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use clickhouse::Row;
use serde::Deserialize;

use super::*;
use crate::record::Record;
use crate::store::{SegmentWriter, WriterOptions};
use crate::testutil::full_record;

mod outage;
mod runs;

pub(crate) const TEST_SERVER_ENV: &str = "MCPCENSUS_TEST_CLICKHOUSE";

pub(crate) fn test_server_url() -> Option<String> {
    match std::env::var(TEST_SERVER_ENV) {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            eprintln!(
                "SKIPPED: {TEST_SERVER_ENV} is not set; scripts/test.sh starts a ClickHouse server \
                 and sets it"
            );
            None
        }
    }
}

fn unique_db(tag: &str) -> String {
    format!("t_{tag}_{}", getrandom::u32().unwrap_or(0))
}

pub(crate) async fn fresh_db(url: &str, tag: &str) -> Connection {
    let conn = connect(&Target::new(url, unique_db(tag)))
        .await
        .expect("the test ClickHouse server must answer");
    init_schema(&conn).await.expect("schema init");
    conn
}

pub(crate) async fn drop_db(conn: &Connection) {
    let sql = format!("DROP DATABASE IF EXISTS {}", conn.target.database);
    conn.server
        .query(&sql)
        .execute()
        .await
        .expect("drop database");
}

pub(crate) async fn count(conn: &Connection, sql: &str) -> u64 {
    conn.client
        .query(sql)
        .fetch_one::<u64>()
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// Record `i` with 0-3 tools and 0-2 findings, so row counts differ per table.
pub(crate) fn varied_record(run_id: &str, i: usize) -> Record {
    let mut r = full_record(run_id, i);
    let tool = r.tools[0].clone();
    r.tools = (0..i % 4)
        .map(|n| {
            let mut t = tool.clone();
            t.name = format!("tool{n}");
            t
        })
        .collect();
    let finding = r.findings[0].clone();
    r.findings = (0..i % 3)
        .map(|n| {
            let mut f = finding.clone();
            f.rule_id = format!("MCP00{n}");
            f
        })
        .collect();
    if i % 1000 == 7 {
        r.origin = None; // invalid input: keyed by its line
    }
    r
}

pub(crate) fn write_segments(dir: &Path, records: impl Iterator<Item = Record>) -> u64 {
    let mut w = SegmentWriter::create(dir, WriterOptions::default()).expect("segment writer");
    let mut n = 0;
    for r in records {
        w.append(&r).expect("append");
        n += 1;
    }
    w.finish().expect("finish");
    n
}

#[derive(Debug, Row, Deserialize)]
struct SiteJson {
    site_key: String,
    record_json: String,
}

#[derive(Debug, Row, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
struct ToolKey {
    site_key: String,
    position: u32,
    name: String,
}

/// Rows in ClickHouse (read with FINAL) equal the records: one sites row per record with the
/// record's JSON, and one tools / findings row per tool / finding.
pub(crate) async fn assert_matches(conn: &Connection, run_id: &str, records: &[Record]) {
    let expected: BTreeMap<String, String> = records
        .iter()
        .map(|r| (site_key(r), serde_json::to_string(r).expect("json")))
        .collect();
    assert_eq!(expected.len(), records.len(), "site keys are unique");
    let sites = count(
        conn,
        &format!("SELECT count() FROM sites FINAL WHERE run_id = '{run_id}'"),
    )
    .await;
    assert_eq!(sites, records.len() as u64, "sites rows");
    let rows = conn
        .client
        .query("SELECT site_key, record_json FROM sites FINAL WHERE run_id = ?")
        .bind(run_id)
        .fetch_all::<SiteJson>()
        .await
        .expect("read sites");
    let got: BTreeMap<String, String> = rows
        .into_iter()
        .map(|r| (r.site_key, r.record_json))
        .collect();
    assert!(got == expected, "sites rows differ from the records");

    let expected_tools: BTreeSet<ToolKey> = records
        .iter()
        .flat_map(|r| {
            (0u32..).zip(&r.tools).map(|(position, t)| ToolKey {
                site_key: site_key(r),
                position,
                name: t.name.clone(),
            })
        })
        .collect();
    let tools: BTreeSet<ToolKey> = conn
        .client
        .query("SELECT site_key, position, name FROM tools FINAL WHERE run_id = ?")
        .bind(run_id)
        .fetch_all::<ToolKey>()
        .await
        .expect("read tools")
        .into_iter()
        .collect();
    assert_eq!(tools.len(), expected_tools.len(), "tools rows");
    assert!(
        tools == expected_tools,
        "tools rows differ from the records"
    );
    let tool_rows = count(
        conn,
        &format!("SELECT count() FROM tools FINAL WHERE run_id = '{run_id}'"),
    )
    .await;
    assert_eq!(tool_rows, expected_tools.len() as u64);

    let expected_findings: u64 = records.iter().map(|r| r.findings.len() as u64).sum();
    let findings = count(
        conn,
        &format!("SELECT count() FROM findings FINAL WHERE run_id = '{run_id}'"),
    )
    .await;
    assert_eq!(findings, expected_findings, "findings rows");
}

pub(crate) fn fast_backoff() -> Backoff {
    Backoff::new(Duration::from_millis(50), Duration::from_millis(500)).expect("backoff")
}

#[test]
fn schema_statements_are_idempotent_ddl() {
    let statements = schema_statements("mydb");
    assert_eq!(statements.len(), 8);
    for s in &statements {
        assert!(s.contains("IF NOT EXISTS"), "{s}");
        assert!(!s.contains("{db}"), "{s}");
        assert!(!s.contains("--"), "comments are stripped: {s}");
    }
    assert!(statements[2].starts_with("CREATE TABLE IF NOT EXISTS mydb.run_parts"));
    assert!(statements[3].starts_with("CREATE TABLE IF NOT EXISTS mydb.sites"));
}

#[test]
fn database_names_are_plain_identifiers() {
    assert!(Target::new("http://x", "mcpcensus_2").validate().is_ok());
    for bad in ["", "a-b", "a;DROP", "1abc", "a.b"] {
        assert!(Target::new("http://x", bad).validate().is_err(), "{bad}");
    }
}

#[test]
fn password_never_shows_in_debug() {
    let mut t = Target::new("http://x", "db");
    t.password = Some(Password::new("hunter2"));
    let shown = format!("{t:?}");
    assert!(!shown.contains("hunter2"), "{shown}");
    assert!(shown.contains("<redacted>"));
}

#[test]
fn backoff_is_jittered_and_capped() {
    assert!(Backoff::new(Duration::ZERO, Duration::from_secs(1)).is_none());
    assert!(Backoff::new(Duration::from_secs(2), Duration::from_secs(1)).is_none());
    let b = Backoff::new(Duration::from_millis(100), Duration::from_secs(1)).expect("valid");
    for attempt in 0..40 {
        let d = b.delay(attempt);
        let full =
            Duration::from_millis(100 * (1u64 << attempt.min(20))).min(Duration::from_secs(1));
        assert!(d >= full / 2 && d <= full, "attempt {attempt}: {d:?}");
    }
}

#[test]
fn versions_choose_validation() {
    assert_eq!(client::major_version("18.16.1"), Some(18));
    assert_eq!(client::major_version("25.8.2.29"), Some(25));
    assert_eq!(client::major_version("nonsense"), None);
}

#[test]
fn rows_follow_the_record() {
    let r = varied_record("run-1", 3);
    let site = SiteRow::from_record(&r);
    assert_eq!(site.site_key, "https://site3.example");
    assert_eq!(site.scanned_at as u64, r.scanned_at / 1000);
    assert_eq!(site.finding_ids.len(), r.findings.len());
    assert_eq!(site.defect, 1);
    assert_eq!(site.server_fingerprint, crate::server_fingerprint(&r));
    let (parsed, soft) = crate::document_kinds(&r);
    assert_eq!(
        (site.documents_parsed, site.documents_soft_404),
        (parsed, soft)
    );
    let back: Record = serde_json::from_str(&site.record_json).expect("json");
    assert_eq!(back.origin, r.origin);
    assert_eq!(ToolRow::from_record(&r).len(), 3);
    assert_eq!(FindingRow::from_record(&r).len(), 0);
    let invalid = varied_record("run-1", 7);
    assert_eq!(site_key(&invalid), "line:8:site7.example");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schema_init_twice_is_harmless() {
    let Some(url) = test_server_url() else { return };
    let conn = fresh_db(&url, "schema").await;
    init_schema(&conn).await.expect("second init");
    let tables = count(
        &conn,
        &format!(
            "SELECT count() FROM system.tables WHERE database = '{}'",
            conn.target.database
        ),
    )
    .await;
    assert_eq!(
        tables, 7,
        "runs, run_parts, sites, tools, findings, daily_adoption and its view"
    );
    drop_db(&conn).await;
}

/// A database whose sites table predates the derived columns gets them from `init_schema`,
/// and then takes inserts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schema_init_adds_the_derived_columns_to_an_older_sites_table() {
    let Some(url) = test_server_url() else { return };
    let conn = fresh_db(&url, "migrate").await;
    let db = conn.target.database.clone();
    for (name, _) in super::schema::ADDED_SITES_COLUMNS {
        let sql = format!("ALTER TABLE {db}.sites DROP COLUMN {name}");
        conn.server
            .query(&sql)
            .execute()
            .await
            .expect("drop column");
    }
    let columns = |conn: Connection| async move {
        count(
            &conn,
            &format!(
                "SELECT count() FROM system.columns WHERE database = '{}' AND table = 'sites' \
                 AND name IN ('documents_parsed', 'documents_soft_404', 'server_fingerprint')",
                conn.target.database
            ),
        )
        .await
    };
    assert_eq!(columns(conn.clone()).await, 0);
    init_schema(&conn).await.expect("init over the older table");
    assert_eq!(columns(conn.clone()).await, 3);
    init_schema(&conn).await.expect("and again");
    drop_db(&conn).await;
}

/// 100k records loaded from segment files, twice: one row per site, tools and findings equal
/// to the records, adoption counts unchanged by the replay. Prints the insert rate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replaying_100k_records_twice_leaves_one_row_per_site() {
    let Some(url) = test_server_url() else { return };
    const N: usize = 100_000;
    let conn = fresh_db(&url, "load").await;
    let dir = tempfile::tempdir().expect("tempdir");
    let run_id = "20261130T000000Z-load";
    let records: Vec<Record> = (0..N).map(|i| varied_record(run_id, i)).collect();
    write_segments(dir.path(), records.iter().cloned());
    let started = Instant::now();
    let first = load_dir(
        &conn,
        dir.path(),
        10_000,
        3,
        &fast_backoff(),
        Duration::from_secs(60),
        None,
    )
    .await
    .expect("first load");
    let secs = started.elapsed().as_secs_f64();
    let tool_rows: usize = records.iter().map(|r| r.tools.len()).sum();
    let finding_rows: usize = records.iter().map(|r| r.findings.len()).sum();
    eprintln!(
        "BENCH load: {N} records ({tool_rows} tools rows, {finding_rows} findings rows) in {secs:.2} s = {:.0} records/s, {:.0} rows/s",
        N as f64 / secs,
        (N + tool_rows + finding_rows) as f64 / secs
    );
    assert_eq!(first.records, N as u64);
    assert_eq!(first.batches, 10);
    load_dir(
        &conn,
        dir.path(),
        7_000,
        3,
        &fast_backoff(),
        Duration::from_secs(60),
        None,
    )
    .await
    .expect("second load");
    assert_matches(&conn, run_id, &records).await;
    // Physically collapsed too, once merged.
    for table in ["sites", "tools", "findings"] {
        conn.client
            .query(&format!("OPTIMIZE TABLE {table} FINAL"))
            .execute()
            .await
            .expect("optimize");
    }
    assert_eq!(count(&conn, "SELECT count() FROM sites").await, N as u64);
    let adoption = count(
        &conn,
        "SELECT toUInt64(sum(n)) FROM (SELECT uniqExactMerge(sites) AS n FROM daily_adoption \
         GROUP BY day, run_id, outcome)",
    )
    .await;
    assert_eq!(adoption, N as u64, "daily adoption counts each site once");
    drop_db(&conn).await;
}

/// A ClickHouse server of the test's own, so it can be stopped and started.
pub(crate) struct OwnServer {
    pub dir: tempfile::TempDir,
    pub url: String,
}

pub(crate) fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/clickhouse.sh")
}

impl OwnServer {
    pub fn start() -> OwnServer {
        let dir = tempfile::tempdir().expect("tempdir");
        let url = OwnServer::run(dir.path(), "start");
        OwnServer { dir, url }
    }
    fn run(dir: &Path, action: &str) -> String {
        let out = Command::new(script())
            .arg(action)
            .arg(dir)
            .output()
            .expect("scripts/clickhouse.sh");
        assert!(
            out.status.success(),
            "clickhouse.sh {action}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = Command::new(script())
            .arg("stop")
            .arg(self.dir.path())
            .output();
    }
}
