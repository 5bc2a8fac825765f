//! The schema, its migration and every query of the pack on a modern ClickHouse (26.x, the
//! `chdb` package, in-process) compared with 18.16 on the same real rows: two crawls of a
//! simulated web are loaded into an 18.16 server of the test's own with the query log on, the
//! report (a run, another, their comparison) runs against it, and scripts/chdb-compare.py
//! replays the queries the report sent, and the analysts' ones, on chdb. Runs when the suite's
//! ClickHouse is there (`MCPCENSUS_TEST_CLICKHOUSE`); otherwise prints SKIPPED.

use std::path::Path;
use std::process::{Command, ExitCode};

use crate::report::{crawl_two_runs, TwoRuns};
use crate::util::{mcpcensus, test_server_url};

/// An 18.16 server logging every query; stopped when dropped.
struct LoggingServer {
    dir: tempfile::TempDir,
    url: String,
}

impl LoggingServer {
    fn start() -> LoggingServer {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(script("clickhouse.sh"))
            .arg("start")
            .arg(dir.path())
            .env(
                "CLICKHOUSE_EXTRA_CONFIG",
                "<query_log><database>system</database><table>query_log</table>\
                 <flush_interval_milliseconds>500</flush_interval_milliseconds></query_log>",
            )
            .env("CLICKHOUSE_EXTRA_PROFILE", "<log_queries>1</log_queries>")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let url = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        LoggingServer { dir, url }
    }
}

impl Drop for LoggingServer {
    fn drop(&mut self) {
        let _ = Command::new(script("clickhouse.sh"))
            .arg("stop")
            .arg(self.dir.path())
            .output();
    }
}

fn script(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts")
        .join(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schema_migration_and_every_query_agree_on_clickhouse_26_and_18_16() {
    if test_server_url().is_none() {
        return;
    }
    let server = LoggingServer::start();
    let TwoRuns {
        crawl, out, first, ..
    } = crawl_two_runs().await;
    let db = "compared";
    let ch = ["--clickhouse", server.url.as_str(), "--database", db];
    let load = [&["load", out.as_str()][..], &ch].concat();
    assert_eq!(mcpcensus(&load).await.unwrap(), ExitCode::SUCCESS);
    // Loaded twice: the replayed rows must collapse the same way on both engines.
    assert_eq!(mcpcensus(&load).await.unwrap(), ExitCode::SUCCESS);
    let json = crawl.path("r.json");
    for extra in [&[][..], &["--compare", &first], &["--run", &first]] {
        let argv = [
            &["report"][..],
            &ch,
            extra,
            &["--format", "json", "-o", &json],
        ]
        .concat();
        assert_eq!(
            mcpcensus(&argv).await.unwrap(),
            ExitCode::SUCCESS,
            "{argv:?}"
        );
    }
    let result = Command::new("python3")
        .arg(script("chdb-compare.py"))
        .args([server.url.as_str(), db])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout);
    let stderr = String::from_utf8_lossy(&result.stderr);
    eprintln!("{stdout}{stderr}");
    assert!(result.status.success(), "chdb-compare.py: {stdout}{stderr}");
    assert!(stdout.contains("chdb 26."), "{stdout}");
}
