//! ClickHouse over TLS, with a user and password: a TLS proxy of the test's own
//! ([`TlsProxy`], its own CA) in front of the test server (`MCPCENSUS_TEST_CLICKHOUSE`), the
//! user and password `scripts/clickhouse.sh` gives every server. Skipped (a SKIPPED line)
//! without the variable, like the other ClickHouse tests.

use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site, TlsProxy};
use mcpcensus_store::clickhouse::{connect, Connection, Target};

use crate::child::{spawn_crawler, wait_output, ChildOptions};
use crate::util::{mcpcensus, only_run, test_server_url, unique_db};

/// The user with a password in `scripts/clickhouse.sh`'s users.xml.
const AUTH_USER: &str = "mcpcensus_auth";
const AUTH_PASSWORD: &str = "census-test-Secret-7q2w";
/// A crawl or report of a handful of sites ends well within this on a loaded machine.
const CHILD_DEADLINE: Duration = Duration::from_secs(300);

/// The test server's address, from its `http://127.0.0.1:PORT` URL.
fn upstream(url: &str) -> SocketAddr {
    let authority = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default();
    authority
        .parse()
        .unwrap_or_else(|e| panic!("{url}: not http://IP:PORT ({e})"))
}

/// Four plain sites and one serving MCP with tools, on their own addresses.
async fn small_web() -> (SimWeb, Vec<String>) {
    let server = McpServer::new().tools_named(&["search_docs", "get_page"]);
    let mut builder = SimWeb::builder();
    let mut names = Vec::new();
    for i in 0..5u8 {
        let name = format!("tls{i}.test");
        let site = Site::new(&name).ip([127, 0, 9, i + 1]);
        let site = if i == 0 {
            site.route(
                "/",
                Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\""),
            )
            .mcp("/mcp", &server)
        } else {
            site.route("/", Reply::html("<html>no mcp</html>"))
        };
        builder = builder.site(site);
        names.push(name);
    }
    let web = builder.start().await.unwrap();
    let inputs = names.iter().map(|h| web.input(h)).collect();
    (web, inputs)
}

struct Setup {
    dir: tempfile::TempDir,
    web: SimWeb,
    proxy: TlsProxy,
    plain_url: String,
    db: String,
}

impl Setup {
    async fn new(tag: &str) -> Option<Setup> {
        let plain_url = test_server_url()?;
        let proxy = TlsProxy::start(upstream(&plain_url)).await.unwrap();
        let (web, inputs) = small_web().await;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("list.txt"), inputs.join("\n")).unwrap();
        web.write_ca_pem(dir.path().join("web-ca.pem")).unwrap();
        std::fs::write(dir.path().join("clickhouse-ca.pem"), proxy.ca_pem()).unwrap();
        Some(Setup {
            dir,
            web,
            proxy,
            plain_url,
            db: unique_db(tag),
        })
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_owned()
    }

    /// `https://USER:PASSWORD@127.0.0.1:PORT/` (or without the password).
    fn tls_url(&self, with_password: bool) -> String {
        let password = if with_password {
            format!(":{AUTH_PASSWORD}")
        } else {
            String::new()
        };
        format!(
            "https://{AUTH_USER}{password}@127.0.0.1:{}/",
            self.proxy.addr().port()
        )
    }

    /// `crawl` of the small web into `store` and ClickHouse at `clickhouse`, then `extra`.
    fn crawl_args(&self, clickhouse: &str, extra: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = [
            "crawl",
            &self.path("list.txt"),
            "--quiet",
            "--out",
            &self.path("store"),
            "--resolver",
            &self.web.dns_addr().to_string(),
            "--ca-file",
            &self.path("web-ca.pem"),
            "--allow-net",
            "127.0.0.0/8",
            "--no-second-look",
            "--clickhouse",
            clickhouse,
            "--database",
            &self.db,
        ]
        .map(String::from)
        .to_vec();
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    }

    async fn plain_db(&self) -> Connection {
        connect(&Target::new(&self.plain_url, &self.db))
            .await
            .expect("the test ClickHouse server must answer")
    }
}

/// Every file under `dir`, as bytes, with its path.
fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out
}

fn holds(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// A crawl through TLS with the password in the URL writes its rows (as the ClickHouse user
/// with the password); a report through TLS, the password from the environment, equals the
/// report over the plain URL; the password is nowhere in what the runs wrote, logged
/// (debug level) or printed, and the recorded URL is the redacted one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawl_and_report_go_over_tls_and_never_show_the_password() {
    let Some(s) = Setup::new("tls").await else {
        return;
    };
    let debug_logs = ("MCPCENSUS_LOG".to_owned(), "debug".to_owned());
    let crawl = spawn_crawler(
        &s.crawl_args(
            &s.tls_url(true),
            &[
                "--clickhouse-ca-file",
                &s.path("clickhouse-ca.pem"),
                "--stats-json",
                &s.path("stats.json"),
            ],
        ),
        &ChildOptions {
            capture_stdout: true,
            env: vec![debug_logs.clone()],
            ..ChildOptions::default()
        },
    );
    let crawled = wait_output(crawl, CHILD_DEADLINE).await;
    let crawl_stderr = String::from_utf8_lossy(&crawled.stderr).into_owned();
    assert_eq!(crawled.status.code(), Some(0), "{crawl_stderr}");

    let (manifest, records) = only_run(Path::new(&s.path("store")));
    assert_eq!(records.len(), 5);
    let conn = s.plain_db().await;
    let rows = crate::util::run_rows(&conn, manifest.run_id.as_str()).await;
    assert_eq!(rows, 5, "the crawl's rows went through the TLS proxy");
    let runs_row: String = conn
        .client
        .query("SELECT manifest FROM runs FINAL WHERE run_id = ?")
        .bind(manifest.run_id.as_str())
        .fetch_one()
        .await
        .unwrap();

    let report_args = |url: &str, out: &str| -> Vec<String> {
        [
            "report",
            "--clickhouse",
            url,
            "--database",
            &s.db,
            "--format",
            "json",
            "-o",
            out,
        ]
        .map(String::from)
        .to_vec()
    };
    let mut tls_report = report_args(&s.tls_url(false), &s.path("report-tls.json"));
    tls_report.extend([
        "--clickhouse-ca-file".to_owned(),
        s.path("clickhouse-ca.pem"),
    ]);
    let report = spawn_crawler(
        &tls_report,
        &ChildOptions {
            capture_stdout: true,
            env: vec![
                debug_logs,
                (
                    "MCPCENSUS_CLICKHOUSE_PASSWORD".to_owned(),
                    AUTH_PASSWORD.to_owned(),
                ),
            ],
            ..ChildOptions::default()
        },
    );
    let reported = wait_output(report, CHILD_DEADLINE).await;
    let report_stderr = String::from_utf8_lossy(&reported.stderr).into_owned();
    assert_eq!(reported.status.code(), Some(0), "{report_stderr}");
    let plain_report = report_args(&s.plain_url, &s.path("report-plain.json"));
    let plain_report: Vec<&str> = plain_report.iter().map(String::as_str).collect();
    assert_eq!(mcpcensus(&plain_report).await.unwrap(), ExitCode::SUCCESS);
    let tls_json = std::fs::read_to_string(s.path("report-tls.json")).unwrap();
    let plain_json = std::fs::read_to_string(s.path("report-plain.json")).unwrap();
    assert!(tls_json.contains(&manifest.run_id), "{tls_json}");
    assert_eq!(tls_json, plain_json, "the report over TLS is the plain one");

    // The URL is recorded, redacted: the check below could fail.
    let redacted = format!("{AUTH_USER}:***@127.0.0.1");
    let manifest_json = serde_json::to_string(&manifest).unwrap();
    assert!(manifest_json.contains(&redacted), "{manifest_json}");
    let mut shown: Vec<(String, Vec<u8>)> = files_under(s.dir.path());
    shown.extend([
        ("crawl stderr".to_owned(), crawled.stderr),
        ("crawl stdout".to_owned(), crawled.stdout),
        ("report stderr".to_owned(), reported.stderr),
        ("report stdout".to_owned(), reported.stdout),
        ("the runs row".to_owned(), runs_row.into_bytes()),
    ]);
    assert!(
        shown.iter().any(|(what, _)| what.ends_with("stats.json")),
        "the stats JSON was written"
    );
    assert!(
        crawl_stderr.contains("DEBUG"),
        "debug logs were on: {crawl_stderr}"
    );
    for (what, bytes) in &shown {
        assert!(!holds(bytes, AUTH_PASSWORD), "the password is in {what}");
    }
    drop_db(&conn).await;
}

/// Without the proxy's CA the TLS connection is refused at start, the error naming the
/// certificate problem, and no site is scanned (a sink problem is never a site's verdict); a
/// missing CA file is named as such.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_without_the_ca_is_refused_before_any_site() {
    let Some(s) = Setup::new("tls_refused").await else {
        return;
    };
    let args = s.crawl_args(&s.tls_url(true), &[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = mcpcensus(&args)
        .await
        .expect_err("a server whose certificate is not trusted");
    let text = format!("{err:#}");
    assert!(
        text.contains("certificate") && text.contains("UnknownIssuer"),
        "{text}"
    );
    assert!(!text.contains(AUTH_PASSWORD), "{text}");
    assert!(
        s.web.requests("tls0.test").is_empty(),
        "no site was contacted"
    );
    let store = mcpcensus_store::Store::open(Path::new(&s.path("store"))).unwrap();
    for run in store.runs().unwrap() {
        assert_eq!(
            store.read_run(&run.run_id).unwrap().count(),
            0,
            "run {} has records",
            run.run_id
        );
    }

    let missing = s.path("no-such-ca.pem");
    let args = s.crawl_args(&s.tls_url(true), &["--clickhouse-ca-file", &missing]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = mcpcensus(&args).await.expect_err("a missing CA file");
    let text = format!("{err:#}");
    assert!(
        text.contains("CA file") && text.contains(&missing),
        "{text}"
    );
    assert!(
        s.web.requests("tls0.test").is_empty(),
        "no site was contacted"
    );
}

async fn drop_db(conn: &Connection) {
    let sql = format!("DROP DATABASE IF EXISTS {}", conn.target.database);
    conn.server.query(&sql).execute().await.unwrap();
}
