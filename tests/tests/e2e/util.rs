//! Helpers shared by the end-to-end tests.

use std::path::Path;
use std::process::ExitCode;

use mcpcensus::run::Shutdown;
use mcpcensus_store::{Record, Store};

/// Runs `mcpcensus ARGS...` in-process, through the same parser and commands as the binary.
pub async fn mcpcensus(args: &[&str]) -> anyhow::Result<ExitCode> {
    let mut argv = vec!["mcpcensus".to_owned()];
    argv.extend(args.iter().map(|s| s.to_string()));
    mcpcensus::cli::execute_argv(argv, Shutdown::default()).await
}

/// The counts of a run that ended (its manifest has them).
pub fn counts(manifest: &mcpcensus_store::RunManifest) -> &mcpcensus_store::RunCounts {
    let counts = manifest.counts.as_ref();
    counts.unwrap_or_else(|| panic!("run {} has no counts", manifest.run_id))
}

/// All records of the only run in a store.
pub fn only_run(dir: &Path) -> (mcpcensus_store::RunManifest, Vec<Record>) {
    let store = Store::open(dir).unwrap();
    let runs = store.runs().unwrap();
    assert_eq!(runs.len(), 1, "expected one run in {}", dir.display());
    let records = store
        .read_run(&runs[0].run_id)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    (runs[0].clone(), records)
}

/// A crawl of a simulated web: writes the list, runs `mcpcensus crawl` with the web's DNS
/// server and CA, and returns the exit code, the run manifest and the records.
pub struct WebCrawl {
    pub dir: tempfile::TempDir,
}

impl WebCrawl {
    pub fn new() -> WebCrawl {
        WebCrawl {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_owned()
    }

    /// Runs the crawl over `inputs` (lines) with `extra` flags; `allow_loopback` adds
    /// `--allow-net 127.0.0.0/8 --allow-net ::1/128`; `--no-second-look` unless `extra` says
    /// how to look again.
    pub async fn run(
        &self,
        web: &mcpcensus_simweb::SimWeb,
        inputs: &[String],
        allow_loopback: bool,
        extra: &[&str],
    ) -> (ExitCode, mcpcensus_store::RunManifest, Vec<Record>) {
        let list = self.path("list.txt");
        std::fs::write(&list, inputs.join("\n")).unwrap();
        let ca = self.path("ca.pem");
        web.write_ca_pem(&ca).unwrap();
        let out = self.path("store");
        let _ = std::fs::remove_dir_all(&out);
        let dns = web.dns_addr().to_string();
        let mut args: Vec<&str> = vec![
            "crawl",
            &list,
            "--quiet",
            "--out",
            &out,
            "--resolver",
            &dns,
            "--ca-file",
            &ca,
        ];
        if allow_loopback {
            args.extend(["--allow-net", "127.0.0.0/8", "--allow-net", "::1/128"]);
        }
        // One look per site unless the test is about the second look: a second look of each
        // slow or failing shape would add its delay and a scan to every such test, and change
        // no verdict on a simulated web that answers the same way twice.
        if !extra.iter().any(|a| a.contains("second-look")) {
            args.push("--no-second-look");
        }
        args.extend(extra);
        let code = mcpcensus(&args).await.unwrap();
        let (manifest, records) = only_run(Path::new(&out));
        (code, manifest, records)
    }
}

/// The record for an origin.
pub fn record_for<'a>(records: &'a [Record], origin: &str) -> &'a Record {
    records
        .iter()
        .find(|r| r.origin.as_deref() == Some(origin))
        .unwrap_or_else(|| panic!("no record for {origin}"))
}

/// Set by scripts/test.sh to the ClickHouse server it started.
pub const TEST_SERVER_ENV: &str = "MCPCENSUS_TEST_CLICKHOUSE";

/// The test ClickHouse server, or `None` (with a printed SKIPPED line) when none was started.
pub fn test_server_url() -> Option<String> {
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

/// A database name no other test uses.
pub fn unique_db(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("e2e_{tag}_{}_{nanos}", std::process::id())
}

/// The records of an RFC 4180 CSV text (quoted fields may hold commas, quotes and newlines).
pub fn csv_records(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let (mut record, mut field) = (Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

/// The rows ClickHouse holds for `run_id` in `sites` (after merges).
pub async fn run_rows(conn: &mcpcensus_store::clickhouse::Connection, run_id: &str) -> u64 {
    conn.client
        .query("SELECT count() FROM sites FINAL WHERE run_id = ?")
        .bind(run_id)
        .fetch_one()
        .await
        .unwrap()
}
