//! `registry:*` with `--registry URL`: every server the registry lists, read page by page,
//! each name once at its latest version, beside the web's sites in the same run; a registry
//! failing part-way is the run's failure; a kill in the middle of the listing, then
//! `--resume`, leaves one record per listed name.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::mcp_registry::SimRegistry;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::clickhouse::{connect, Target};
use mcpcensus_store::{registry_class, Outcome, Record, RegistryClass, Store};

use super::registry::crawl_code;
use crate::child::{spawn_crawler, wait, ChildOptions};
use crate::util::{mcpcensus, test_server_url, unique_db};

/// The registry: two versions of one name (the older on a host of its own), a live server,
/// one behind a sign-in, one that answers HTML, one whose host does not resolve, a stdio
/// server, and one whose remote is also found on the web; three entries a page.
fn registry() -> SimRegistry {
    let url = |host: &str| format!("https://{host}:{{port}}/mcp");
    SimRegistry::new()
        .remote("com.example/live", "1.0.0", false, &url("old.test"))
        .remote("com.example/gated", "1.0.0", true, &url("gated.test"))
        .remote("com.example/live", "2.0.0", true, &url("live.test"))
        .remote("com.example/html", "0.1.0", true, &url("html.test"))
        .remote("com.example/dead", "0.1.0", true, &url("nowhere.test"))
        .stdio("com.example/stdio", "https://github.com/example/stdio")
        .remote("com.example/shared", "3.0.0", true, &url("both.test"))
        .page_size(3)
}

fn home() -> Reply {
    Reply::html("<html><body>a site</body></html>")
}

async fn web(registry: SimRegistry) -> SimWeb {
    let challenge = Reply::status(401).header("www-authenticate", "Bearer realm=\"mcp\"");
    SimWeb::builder()
        .site(registry.site("registry.test"))
        .site(Site::new("live.test").mcp("/mcp", &McpServer::new()))
        .site(Site::new("old.test").mcp("/mcp", &McpServer::new()))
        .site(Site::new("gated.test").route("/mcp", challenge))
        .site(Site::new("html.test").route("/mcp", Reply::html("<html>sign up</html>")))
        // On the web and listed: its homepage plus /mcp.
        .site(
            Site::new("both.test")
                .route("/", home())
                .mcp("/mcp", &McpServer::new()),
        )
        // On the web only.
        .site(
            Site::new("webonly.test")
                .route("/", home())
                .mcp("/mcp", &McpServer::new()),
        )
        .start()
        .await
        .unwrap()
}

fn by_input(records: &[Record]) -> BTreeMap<&str, &Record> {
    records.iter().map(|r| (r.input.as_str(), r)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registry_all_lists_every_name_once_at_its_latest_version() {
    let web = web(registry()).await;
    let dir = tempfile::tempdir().unwrap();
    let lines = vec![
        "registry:*".to_owned(),
        web.input("both.test"),
        web.input("webonly.test"),
    ];
    let stats = dir.path().join("stats.json");
    let reg = web.origin("registry.test");
    let extra = ["--registry", &reg, "--stats-json", stats.to_str().unwrap()];
    let (code, records) = crawl_code(&web, dir.path(), &lines, &extra).await;
    assert_eq!(code, ExitCode::SUCCESS);
    let r = by_input(&records);
    let names = registry().names();
    assert_eq!(records.len(), names.len() + 2, "{:?}", r.keys());
    for name in &names {
        let rec = r[format!("registry:{name}").as_str()];
        assert_eq!(
            rec.input_line, 1,
            "every listed name is the `registry:*` line's"
        );
    }
    // The latest version only: the older one's host never asked.
    assert_eq!(web.request_count("old.test"), 0);
    let live = r["registry:com.example/live"];
    assert_eq!(live.outcome, Outcome::Pass, "{live:?}");
    // The registry was read page by page (7 entries, 3 a page), never searched per name.
    let pages = web.requests("registry.test");
    assert_eq!(pages.len(), 3, "{pages:?}");
    assert!(pages
        .iter()
        .all(|q| !q.query().unwrap_or("").contains("search")));

    // The classification, in the probers' vocabulary.
    let class = |name: &str| registry_class(r[format!("registry:{name}").as_str()]);
    assert_eq!(class("com.example/live"), Some(RegistryClass::Live));
    assert_eq!(class("com.example/shared"), Some(RegistryClass::Live));
    assert_eq!(class("com.example/gated"), Some(RegistryClass::AuthGated));
    assert_eq!(class("com.example/html"), Some(RegistryClass::HttpNotMcp));
    assert_eq!(class("com.example/dead"), Some(RegistryClass::Dead));
    assert_eq!(
        class("com.example/stdio"),
        Some(RegistryClass::NotProbeable)
    );
    let dead = r["registry:com.example/dead"];
    assert!(dead.endpoint.as_deref().unwrap().contains("nowhere.test"));
    assert_eq!(registry_class(r[lines[1].as_str()]), None, "a web site");

    // The summary says what the listing read.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(json["registry"]["pages"], 3);
    assert_eq!(json["registry"]["names"], 6);
    assert_eq!(json["registry"]["older_versions"], 1);
    assert_eq!(json["registry"]["failure"], serde_json::Value::Null);
    assert_eq!(json["counts"]["registry_names"], 6);

    // The report's registry section: the classes and every overlap count, the same JSON from
    // ClickHouse when a test server is at hand.
    let store = dir.path().join("store");
    let from_store = report_json(dir.path(), &["--from", store.to_str().unwrap()]).await;
    let reg = &from_store["run"]["registry"];
    let counts = [
        ("listed", 6),
        ("urls", 5),
        ("shared_urls", 0),
        ("templates", 0),
        ("web_and_registry", 1),
        ("web_only", 1),
        ("registry_only", 4),
    ];
    for (key, n) in counts {
        assert_eq!(reg[key], n, "{key}: {reg}");
    }
    let classes = [
        ("live", 2),
        ("auth_gated", 1),
        ("http_not_mcp", 1),
        ("dead", 1),
        ("not_probeable", 1),
    ];
    for (class, n) in classes {
        assert_eq!(reg["by_entry"][class], n, "{class}: {reg}");
        // One entry a URL, and the stdio entry names none.
        let by_url = if class == "not_probeable" { 0 } else { n };
        assert_eq!(reg["by_url"][class], by_url, "{class}: {reg}");
    }
    assert_eq!(reg["web_and_registry_origins"][0], web.origin("both.test"));
    assert_eq!(reg["web_only_origins"][0], web.origin("webonly.test"));
    assert_eq!(reg["registry_only_origins"].as_array().unwrap().len(), 4);
    if let Some(url) = test_server_url() {
        let db = unique_db("registry");
        let load = [
            "load",
            store.to_str().unwrap(),
            "--clickhouse",
            &url,
            "--database",
            &db,
        ];
        assert_eq!(mcpcensus(&load).await.unwrap(), ExitCode::SUCCESS);
        let from_ch = report_json(dir.path(), &["--clickhouse", &url, "--database", &db]).await;
        assert_eq!(from_ch, from_store, "the same report from ClickHouse");
        let conn = connect(&Target::new(&url, &db)).await.unwrap();
        let sql = format!("DROP DATABASE IF EXISTS {db}");
        conn.server.query(&sql).execute().await.unwrap();
    }
}

/// `mcpcensus report SOURCE... --format json` as a JSON value.
pub(super) async fn report_json(dir: &Path, source: &[&str]) -> serde_json::Value {
    let path = dir.join("report.json");
    let mut argv = vec!["report"];
    argv.extend_from_slice(source);
    argv.extend_from_slice(&["--format", "json", "-o", path.to_str().unwrap()]);
    assert_eq!(
        mcpcensus(&argv).await.unwrap(),
        ExitCode::SUCCESS,
        "{argv:?}"
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registry_failing_on_page_2_fails_the_run_with_page_1_scanned() {
    let web = web(registry().fail_on_page(2)).await;
    let dir = tempfile::tempdir().unwrap();
    let lines = vec!["registry:*".to_owned()];
    let stats = dir.path().join("stats.json");
    let reg = web.origin("registry.test");
    let extra = ["--registry", &reg, "--stats-json", stats.to_str().unwrap()];
    let (code, records) = crawl_code(&web, dir.path(), &lines, &extra).await;
    assert_ne!(code, ExitCode::SUCCESS, "a short list is no success");
    // Page 1's names (older versions skipped) were scanned; nothing past it.
    let inputs: Vec<&str> = by_input(&records).into_keys().collect();
    assert_eq!(
        inputs,
        ["registry:com.example/gated", "registry:com.example/live"]
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(json["ending"], "failed");
    let failure = json["failure"].as_str().unwrap();
    assert!(failure.contains("page 2"), "{failure}");
    assert_eq!(json["registry"]["pages"], 1);
}

/// The store's latest run's records, or none while the store is not readable yet.
fn stored(dir: &Path) -> Vec<Record> {
    let Ok(store) = Store::open(dir) else {
        return Vec::new();
    };
    let Some(run) = store.latest_run().ok().flatten() else {
        return Vec::new();
    };
    store
        .read_run(&run.run_id)
        .map(|rs| rs.filter_map(Result::ok).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_in_the_middle_of_the_listing_then_resume_gives_one_record_per_name() {
    let mut registry = SimRegistry::new().page_size(2);
    for n in 0..12 {
        let url = format!("https://live.test:{{port}}/mcp/{n}");
        registry = registry.remote(&format!("com.example/s{n:02}"), "1.0.0", true, &url);
    }
    let names = registry.names();
    let mut live = Site::new("live.test");
    for n in 0..12 {
        live = live.mcp(&format!("/mcp/{n}"), &McpServer::new());
    }
    let web = SimWeb::builder()
        .site(
            registry
                .page_delay(Duration::from_millis(400))
                .site("registry.test"),
        )
        .site(live)
        .start()
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt");
    std::fs::write(&list, "registry:*\n").unwrap();
    let ca = dir.path().join("ca.pem");
    web.write_ca_pem(&ca).unwrap();
    let store = dir.path().join("store");
    let args = |resume: bool| {
        let mut a: Vec<String> = [
            "crawl",
            list.to_str().unwrap(),
            "--quiet",
            "--out",
            store.to_str().unwrap(),
            "--resolver",
            &web.dns_addr().to_string(),
            "--ca-file",
            ca.to_str().unwrap(),
            "--allow-net",
            "127.0.0.0/8",
            "--per-host-rps",
            "50",
            "--registry",
            &web.origin("registry.test"),
        ]
        .map(str::to_owned)
        .to_vec();
        if resume {
            a.push("--resume".to_owned());
        }
        a
    };
    let mut child = spawn_crawler(&args(false), &ChildOptions::default());
    let deadline = Instant::now() + Duration::from_secs(120);
    while stored(&store).len() < 2 && child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "no record in 120 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let pages_before = web.request_count("registry.test");
    assert!(child.try_wait().unwrap().is_none(), "ended before its kill");
    child.kill().unwrap();
    let (code, _) = wait(child, Duration::from_secs(60)).await;
    assert_eq!(code, None, "killed");
    let before = stored(&store).len();
    assert!(
        before < names.len() && pages_before < 6,
        "the kill should land mid-listing: {before} records, {pages_before} pages"
    );

    let child = spawn_crawler(&args(true), &ChildOptions::default());
    let (code, stderr) = wait(child, Duration::from_secs(300)).await;
    assert_eq!(code, Some(0), "{stderr}");
    let records = stored(&store);
    let mut inputs: Vec<String> = records.iter().map(|r| r.input.clone()).collect();
    inputs.sort();
    let expected: Vec<String> = names.iter().map(|n| format!("registry:{n}")).collect();
    assert_eq!(inputs, expected, "one record per listed name");
    assert!(
        records.iter().all(|r| r.outcome == Outcome::Pass),
        "{records:?}"
    );
}
