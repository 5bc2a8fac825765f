//! `mcpcensus crawl --clickhouse`, `load` and `schema init` against a real ClickHouse server:
//! the one `scripts/test.sh` starts (`MCPCENSUS_TEST_CLICKHOUSE`), each test in its own
//! database; the outage test runs a server of its own with `scripts/clickhouse.sh` so it can
//! stop and start it. With the variable set, a server that does not answer fails the tests;
//! without it (plain `cargo test`) they print a SKIPPED line and return.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::clickhouse::{connect, site_key, Connection, Target};
use mcpcensus_store::{Record, Store};

use crate::util::{mcpcensus, test_server_url, unique_db, WebCrawl};

async fn open_db(url: &str, db: &str) -> Connection {
    connect(&Target::new(url, db))
        .await
        .expect("the test ClickHouse server must answer")
}

async fn count(conn: &Connection, sql: &str) -> u64 {
    conn.client
        .query(sql)
        .fetch_one::<u64>()
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn drop_db(conn: &Connection) {
    let sql = format!("DROP DATABASE IF EXISTS {}", conn.target.database);
    conn.server.query(&sql).execute().await.unwrap();
}

/// ClickHouse (read with FINAL) holds exactly the records: one sites row each, equal JSON, and
/// as many tools and findings rows as the records have tools and findings.
async fn assert_rows_match(conn: &Connection, records: &[Record]) {
    let run_id = &records[0].run_id;
    let raw_sites = count(conn, "SELECT count() FROM sites").await;
    let sites = count(
        conn,
        &format!("SELECT count() FROM sites FINAL WHERE run_id = '{run_id}'"),
    )
    .await;
    assert_eq!(
        sites,
        records.len() as u64,
        "sites rows (before collapsing: {raw_sites})"
    );
    let mut expected: Vec<(String, String)> = records
        .iter()
        .map(|r| (site_key(r), serde_json::to_string(r).unwrap()))
        .collect();
    expected.sort();
    let mut got = conn
        .client
        .query("SELECT site_key, record_json FROM sites FINAL WHERE run_id = ?")
        .bind(run_id.as_str())
        .fetch_all::<(String, String)>()
        .await
        .unwrap();
    got.sort();
    assert!(
        got == expected,
        "sites rows differ from the store's records"
    );
    let tools: u64 = records.iter().map(|r| r.tools.len() as u64).sum();
    let findings: u64 = records.iter().map(|r| r.findings.len() as u64).sum();
    assert!(tools > 0 && findings > 0, "the web has tools and findings");
    assert_eq!(
        count(
            conn,
            &format!("SELECT count() FROM tools FINAL WHERE run_id = '{run_id}'")
        )
        .await,
        tools,
        "tools rows"
    );
    assert_eq!(
        count(
            conn,
            &format!("SELECT count() FROM findings FINAL WHERE run_id = '{run_id}'")
        )
        .await,
        findings,
        "findings rows"
    );
}

/// `n` sites on distinct addresses; every tenth serves MCP with tools (linked from its home).
async fn web(n: u32, home_delay: Duration) -> (SimWeb, Vec<String>) {
    let server = McpServer::new().tools_named(&["search_docs", "get_page", "delete_everything"]);
    let mut builder = SimWeb::builder();
    let mut names = Vec::new();
    for i in 0..n {
        let name = format!("s{i}.test");
        let ip = [127, 0, 2 + (i / 250) as u8, (i % 250) as u8 + 1];
        let site = if i % 10 == 0 {
            Site::new(&name)
                .ip(ip)
                .route(
                    "/",
                    Reply::html("<html></html>")
                        .header("link", "</mcp>; rel=\"mcp\"")
                        .delay(home_delay),
                )
                .mcp("/mcp", &server)
        } else {
            Site::new(&name)
                .ip(ip)
                .route("/", Reply::html("<html>no mcp</html>").delay(home_delay))
        };
        builder = builder.site(site);
        names.push(name);
    }
    let web = builder.start().await.unwrap();
    let inputs = names.iter().map(|h| web.input(h)).collect();
    (web, inputs)
}

/// Crawl into ClickHouse (and the embedded store, with --out): the rows equal the store's
/// records; `load` of that store into another database, twice, leaves one row per site.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawl_streams_into_clickhouse_and_load_replays_idempotently() {
    let Some(url) = test_server_url() else { return };
    let db = unique_db("crawl");
    let code = mcpcensus(&["schema", "init", "--clickhouse", &url, "--database", &db])
        .await
        .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let (web, inputs) = web(600, Duration::ZERO).await;
    // The same crawl into the embedded store only, for the throughput comparison.
    let plain = WebCrawl::new();
    let started = Instant::now();
    let (code, _, _) = plain
        .run(
            &web,
            &inputs,
            true,
            &["--concurrency", "600", "--per-host-rps", "20"],
        )
        .await;
    assert_eq!(code, ExitCode::SUCCESS);
    let store_only = started.elapsed();
    let crawl = WebCrawl::new();
    let started = Instant::now();
    let (code, manifest, records) = crawl
        .run(
            &web,
            &inputs,
            true,
            &[
                "--clickhouse",
                &url,
                "--database",
                &db,
                "--concurrency",
                "600",
                "--per-host-rps",
                "20",
            ],
        )
        .await;
    eprintln!(
        "BENCH crawl of {} sites: embedded store only {:.2} s, store and ClickHouse {:.2} s",
        records.len(),
        store_only.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(records.len(), 600);
    let conn = open_db(&url, &db).await;
    assert_rows_match(&conn, &records).await;
    let status = conn
        .client
        .query("SELECT status FROM runs FINAL WHERE run_id = ?")
        .bind(manifest.run_id.as_str())
        .fetch_one::<String>()
        .await
        .unwrap();
    assert_eq!(status, "complete");
    assert!(
        !Path::new(&crawl.path("store"))
            .join("clickhouse-spool")
            .join(&manifest.run_id)
            .exists(),
        "no spool left"
    );

    let db2 = unique_db("load");
    for _ in 0..2 {
        let code = mcpcensus(&[
            "load",
            &crawl.path("store"),
            "--clickhouse",
            &url,
            "--database",
            &db2,
        ])
        .await
        .unwrap();
        assert_eq!(code, ExitCode::SUCCESS);
    }
    let conn2 = open_db(&url, &db2).await;
    // Before merges collapse them, both loads' rows may be there; FINAL reads see one each.
    let raw = count(&conn2, "SELECT count() FROM sites").await;
    assert!(
        (600..=1200).contains(&raw),
        "{raw} raw rows after two loads"
    );
    assert_rows_match(&conn2, &records).await;
    drop_db(&conn).await;
    drop_db(&conn2).await;
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/clickhouse.sh")
}

fn clickhouse_sh(action: &str, dir: &Path) -> String {
    let out = Command::new(script())
        .arg(action)
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "clickhouse.sh {action}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A server of the test's own; stopped when dropped.
struct OwnServer {
    dir: tempfile::TempDir,
    url: String,
}

impl OwnServer {
    fn start() -> OwnServer {
        let dir = tempfile::tempdir().unwrap();
        let url = clickhouse_sh("start", dir.path());
        OwnServer { dir, url }
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

/// Records in the store's only run so far (the crawl is still writing).
fn stored_so_far(out: &Path) -> u64 {
    let Ok(store) = Store::open(out) else {
        return 0;
    };
    let Ok(Some(run)) = store.latest_run() else {
        return 0;
    };
    store
        .read_run(&run.run_id)
        .map(|reader| reader.filter(Result::is_ok).count() as u64)
        .unwrap_or(0)
}

/// The server dies (SIGKILL) mid-crawl and comes back: the crawl goes on meanwhile (records keep
/// reaching the store), and ClickHouse ends with exactly the store's records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clickhouse_outage_mid_crawl_loses_and_duplicates_nothing() {
    if test_server_url().is_none() {
        return;
    }
    let server = OwnServer::start();
    let db = unique_db("outage");
    const SITES: u64 = 1200;
    let (web, inputs) = web(SITES as u32, Duration::from_millis(200)).await;
    let crawl = WebCrawl::new();
    let out = PathBuf::from(crawl.path("store"));
    let server_dir = server.dir.path().to_owned();
    // Stops the server once a tenth of the sites are stored, lets another tenth through
    // while it is down, then starts it again.
    let controller = tokio::spawn(async move {
        let wait_for = |n: u64| {
            let out = out.clone();
            async move {
                let give_up = Instant::now() + Duration::from_secs(20);
                loop {
                    let stored = stored_so_far(&out);
                    if stored >= n || Instant::now() > give_up {
                        return stored;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        };
        wait_for(SITES / 10).await;
        let dir = server_dir.clone();
        tokio::task::spawn_blocking(move || clickhouse_sh("kill", &dir))
            .await
            .unwrap();
        let at_stop = stored_so_far(&out);
        let before_restart = wait_for(at_stop + SITES / 10).await;
        let dir = server_dir.clone();
        tokio::task::spawn_blocking(move || clickhouse_sh("start", &dir))
            .await
            .unwrap();
        (at_stop, before_restart)
    });
    let started = Instant::now();
    let (code, _, records) = crawl
        .run(
            &web,
            &inputs,
            true,
            &[
                "--clickhouse",
                &server.url,
                "--database",
                &db,
                "--concurrency",
                "30",
                "--per-host-rps",
                "20",
            ],
        )
        .await;
    let elapsed = started.elapsed();
    let (at_stop, before_restart) = controller.await.unwrap();
    eprintln!(
        "outage crawl: {} sites in {:.1} s; stored {at_stop} at the stop, {before_restart} before the restart",
        records.len(),
        elapsed.as_secs_f64()
    );
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(records.len() as u64, SITES);
    assert!(
        at_stop < SITES / 2,
        "the outage began mid-crawl ({at_stop} stored)"
    );
    assert!(
        before_restart > at_stop,
        "the crawl went on during the outage ({at_stop} -> {before_restart})"
    );
    let conn = open_db(&server.url, &db).await;
    assert_rows_match(&conn, &records).await;
    drop_db(&conn).await;
}
