//! Shards on a ClickHouse cluster: two servers on loopback as one two-shard cluster
//! (`scripts/clickhouse.sh start-cluster`), the sharded schema (`schema init --cluster`), four
//! `crawl --shard K/4` runs of one census (one run id) into it at once, and the report over the
//! Distributed tables equal to the report of one unsharded crawl of the same list. Runs when
//! the suite's ClickHouse is there (`MCPCENSUS_TEST_CLICKHOUSE`); otherwise prints SKIPPED.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, ExitCode};

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::clickhouse::{connect, site_key, Connection, Target};

use crate::util::{mcpcensus, only_run, test_server_url, WebCrawl};

const CLUSTER: &str = "mcpcensus_test";
const RUN: &str = "census-2026-12-01";
const DB: &str = "census";

/// Two servers of one cluster, stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    urls: Vec<String>,
}

impl Cluster {
    fn start() -> Cluster {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(script())
            .args(["start-cluster"])
            .arg(dir.path())
            .arg(CLUSTER)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "start-cluster: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let urls: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_owned)
            .collect();
        assert_eq!(urls.len(), 2, "{urls:?}");
        Cluster { dir, urls }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(script())
            .arg("stop-cluster")
            .arg(self.dir.path())
            .output();
    }
}

fn script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/clickhouse.sh")
}

/// 40 sites: every fourth serves MCP (tool lists of three sizes), some under one registrable
/// domain (a shard keeps a domain's subdomains together), the rest plain.
async fn web() -> (SimWeb, Vec<String>) {
    let mut builder = SimWeb::builder();
    let mut names = Vec::new();
    let tools: [&[&str]; 3] = [&["search"], &["search", "fetch"], &["a", "b", "c", "d"]];
    for i in 0..40u32 {
        let name = if i % 5 == 0 {
            format!("api{i}.shared.test")
        } else {
            format!("c{i}.test")
        };
        let ip = [127, 0, 3, i as u8 + 1];
        let site = if i % 4 == 0 {
            let server = McpServer::new().tools_named(tools[(i / 4 % 3) as usize]);
            Site::new(&name)
                .ip(ip)
                .route(
                    "/",
                    Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\""),
                )
                .mcp("/mcp", &server)
        } else {
            Site::new(&name)
                .ip(ip)
                .route("/", Reply::html("<html>plain</html>"))
        };
        builder = builder.site(site);
        names.push(name);
    }
    let web = builder.start().await.unwrap();
    let mut inputs: Vec<String> = names.iter().map(|h| web.input(h)).collect();
    inputs.push("not a site".into());
    (web, inputs)
}

/// `report ARGS --format json` as a JSON value.
async fn report_json(crawl: &WebCrawl, name: &str, source: &[&str]) -> serde_json::Value {
    let path = crawl.path(name);
    let mut argv = vec!["report"];
    argv.extend_from_slice(source);
    argv.extend_from_slice(&["--format", "json", "-o", &path]);
    assert_eq!(
        mcpcensus(&argv).await.unwrap(),
        ExitCode::SUCCESS,
        "{argv:?}"
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// The report's measurement: what the sites answered. The methods (read from run manifests,
/// which the four shard processes keep in their own stores) and the time each run was
/// scanned at differ between two runs of the same sites by construction.
fn measured(mut report: serde_json::Value) -> serde_json::Value {
    if let Some(obj) = report.as_object_mut() {
        obj.remove("methods");
    }
    if let Some(history) = report["history"].as_array_mut() {
        for point in history.iter_mut().filter_map(|p| p.as_object_mut()) {
            point.remove("first_scan_at");
            point.remove("first_scan_ms");
        }
    }
    report
}

async fn rows(conn: &Connection, sql: &str) -> Vec<(String, String)> {
    conn.client.query(sql).bind(RUN).fetch_all().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_shards_on_a_two_shard_cluster_report_as_one_unsharded_run() {
    if test_server_url().is_none() {
        return;
    }
    let cluster = Cluster::start();
    let (a, b) = (&cluster.urls[0], &cluster.urls[1]);
    let (web, inputs) = web().await;
    let crawl = WebCrawl::new();
    let list = crawl.path("list.txt");
    std::fs::write(&list, inputs.join("\n")).unwrap();
    let ca = crawl.path("ca.pem");
    web.write_ca_pem(&ca).unwrap();
    let dns = web.dns_addr().to_string();
    let scan = |out: String| -> Vec<String> {
        [
            "crawl",
            &list,
            "--quiet",
            "--resolver",
            &dns,
            "--ca-file",
            &ca,
            "--allow-net",
            "127.0.0.0/8",
            "--run-id",
            RUN,
            "--out",
            &out,
            "--site-deadline",
            "60",
        ]
        .map(str::to_owned)
        .to_vec()
    };

    // The unsharded crawl, into an embedded store.
    let whole = crawl.path("whole");
    let argv = scan(whole.clone());
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    assert_eq!(mcpcensus(&argv).await.unwrap(), ExitCode::SUCCESS);
    let (_, unsharded) = only_run(Path::new(&whole));
    assert_eq!(unsharded.len(), inputs.len());

    let init = [
        "schema",
        "init",
        "--clickhouse",
        a,
        "--database",
        DB,
        "--cluster",
        CLUSTER,
    ];
    let mut init = init.to_vec();
    init.extend(["--node", b]);
    assert_eq!(mcpcensus(&init).await.unwrap(), ExitCode::SUCCESS);

    // Four shards of the same census at once, each writing through node a.
    let shard_argv: Vec<Vec<String>> = (0..4)
        .map(|k| {
            let mut v = scan(crawl.path(&format!("shard{k}")));
            let shard = format!("{k}/4");
            v.extend(["--shard".into(), shard, "--clickhouse".into(), a.clone()]);
            v.extend(["--database".into(), DB.into()]);
            v
        })
        .collect();
    let codes = futures_join(&shard_argv).await;
    assert_eq!(codes, vec![ExitCode::SUCCESS; 4]);
    let per_shard: Vec<usize> = (0..4)
        .map(|k| {
            only_run(Path::new(&crawl.path(&format!("shard{k}"))))
                .1
                .len()
        })
        .collect();
    assert!(per_shard.iter().all(|n| *n > 0), "{per_shard:?}");
    assert_eq!(per_shard.iter().sum::<usize>(), unsharded.len());

    // Exactly the unsharded run's sites and outcomes, spread over both servers.
    let conn = connect(&Target::new(a.as_str(), DB)).await.unwrap();
    let sql = "SELECT site_key, outcome FROM sites FINAL WHERE run_id = ? ORDER BY site_key";
    let got: BTreeSet<(String, String)> = rows(&conn, sql).await.into_iter().collect();
    let want: BTreeSet<(String, String)> = unsharded
        .iter()
        .map(|r| (site_key(r), r.outcome.as_str().to_owned()))
        .collect();
    assert_eq!(got, want);
    let mut local_total = 0;
    for url in [a, b] {
        let node = connect(&Target::new(url.as_str(), DB)).await.unwrap();
        let sql = "SELECT site_key, outcome FROM sites_local FINAL WHERE run_id = ?";
        let n = rows(&node, sql).await.len();
        assert!(n > 0, "no rows on {url}");
        local_total += n;
    }
    assert_eq!(local_total, unsharded.len(), "a site on two shards");
    let sql = "SELECT source, status FROM runs FINAL WHERE run_id = ? ORDER BY source";
    let runs = rows(&conn, sql).await;
    assert_eq!(runs.len(), 4, "{runs:?}");
    assert!(runs.iter().all(|(_, s)| s == "complete"), "{runs:?}");

    // The report over the cluster (through either node) is the unsharded run's.
    let from_store = report_json(&crawl, "whole.json", &["--from", &whole]).await;
    assert!(from_store["run"]["endpoints"].as_u64().unwrap() >= 10);
    for (i, url) in [a, b].into_iter().enumerate() {
        let source = ["--clickhouse", url.as_str(), "--database", DB];
        let from_cluster = report_json(&crawl, &format!("cluster{i}.json"), &source).await;
        assert_eq!(
            measured(from_cluster),
            measured(from_store.clone()),
            "report through {url}"
        );
    }
}

/// Runs the crawls concurrently, as separate machines would.
async fn futures_join(argvs: &[Vec<String>]) -> Vec<ExitCode> {
    let mut handles = Vec::new();
    for argv in argvs {
        let argv = argv.clone();
        handles.push(tokio::spawn(async move {
            let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
            mcpcensus(&refs).await.unwrap()
        }));
    }
    let mut codes = Vec::new();
    for h in handles {
        codes.push(h.await.unwrap());
    }
    codes
}
