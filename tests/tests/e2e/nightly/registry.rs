//! `registry:NAME` crawl input with `--registry URL`: each name looked up and its first
//! remote scanned (no discovery), stdio entries and unknown names recorded with their reason,
//! and on a re-scan every registry name looked up again.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::{Outcome, Record, Store};
use serde_json::json;

use crate::util::mcpcensus;

const LIST: [&str; 5] = [
    "registry:com.example/remote",
    "registry:com.example/stdio",
    "registry:com.example/missing",
    "registry:no-slash",
    "plain.test",
];

async fn web() -> SimWeb {
    let servers = Reply::handler(|req: &mcpcensus_simweb::RecordedRequest| {
        let url = format!("https://remote.test:{}/rpc/mcp", req.local.port());
        Reply::json(json!({"servers": [
            {"server": {"name": "com.example/remote",
                "remotes": [{"type": "streamable-http", "url": url}]}},
            {"server": {"name": "com.example/stdio",
                "repository": {"url": "https://github.com/example/stdio", "source": "github"}}},
        ], "metadata": {"count": 2}}))
    });
    SimWeb::builder()
        .site(Site::new("registry.test").route("/v0.1/servers", servers))
        .site(Site::new("remote.test").mcp("/rpc/mcp", &McpServer::new()))
        .site(Site::new("plain.test").route("/", Reply::html("<html>a page</html>")))
        .start()
        .await
        .unwrap()
}

async fn crawl(web: &SimWeb, dir: &Path, lines: &[String], extra: &[&str]) -> Vec<Record> {
    let (code, records) = crawl_code(web, dir, lines, extra).await;
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    records
}

/// Crawls `lines` (the web's CA and resolver, loopback allowed) into `dir/store`: the exit
/// code and the records of the store's latest run.
pub(super) async fn crawl_code(
    web: &SimWeb,
    dir: &Path,
    lines: &[String],
    extra: &[&str],
) -> (std::process::ExitCode, Vec<Record>) {
    let list = dir.join("list.txt");
    std::fs::write(&list, lines.join("\n")).unwrap();
    let ca = dir.join("ca.pem");
    web.write_ca_pem(&ca).unwrap();
    let (out, dns) = (dir.join("store"), web.dns_addr().to_string());
    let mut args = vec![
        "crawl",
        list.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
        "--resolver",
        &dns,
        "--ca-file",
        ca.to_str().unwrap(),
        "--allow-net",
        "127.0.0.0/8",
        "--per-host-rps",
        "50",
    ];
    args.extend(extra);
    let code = tokio::time::timeout(Duration::from_secs(300), mcpcensus(&args))
        .await
        .unwrap()
        .unwrap();
    let store = Store::open(&out).unwrap();
    let run = store.latest_run().unwrap().unwrap();
    let records = store
        .read_run(&run.run_id)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    (code, records)
}

fn by_input(records: &[Record]) -> BTreeMap<&str, &Record> {
    records.iter().map(|r| (r.input.as_str(), r)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registry_names_in_a_crawl_are_looked_up_and_their_remote_scanned() {
    let web = web().await;
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = LIST
        .iter()
        .map(|l| match *l {
            "plain.test" => web.input("plain.test"),
            l => l.to_owned(),
        })
        .collect();
    let registry = web.origin("registry.test");
    let records = crawl(&web, dir.path(), &lines, &["--registry", &registry]).await;
    assert_eq!(records.len(), 5);
    let r = by_input(&records);

    let remote = r["registry:com.example/remote"];
    assert_eq!(
        remote.origin.as_deref(),
        Some(web.origin("remote.test").as_str())
    );
    let endpoint = format!("{}/rpc/mcp", web.origin("remote.test"));
    assert_eq!(remote.endpoint.as_deref(), Some(endpoint.as_str()));
    assert_eq!(remote.outcome, Outcome::Pass, "{remote:?}");
    // The remote was scanned as given: no discovery GET on its host.
    assert!(web
        .requests("remote.test")
        .iter()
        .all(|q| q.path_only() == "/rpc/mcp"));

    let stdio = r["registry:com.example/stdio"];
    assert_eq!(stdio.outcome, Outcome::NotMeasured);
    assert_eq!(stdio.origin, None);
    assert!(stdio.outcome_reason.contains("stdio"), "{stdio:?}");
    let missing = r["registry:com.example/missing"];
    assert_eq!(missing.outcome, Outcome::NotMeasured);
    assert!(
        missing.outcome_reason.contains("registry lookup failed")
            && missing.outcome_reason.contains("com.example/missing"),
        "{missing:?}"
    );
    assert_eq!(r["registry:no-slash"].outcome, Outcome::InvalidInput);
    assert_eq!(r[lines[4].as_str()].outcome, Outcome::OutOfScope);

    // A re-scan right after: the plain site is fresh, every registry name is looked up again.
    let looked_up = web.request_count("registry.test");
    let again = crawl(
        &web,
        dir.path(),
        &lines,
        &["--registry", &registry, "--rescan-older-than", "7d"],
    )
    .await;
    let inputs: Vec<&str> = by_input(&again).into_keys().collect();
    assert_eq!(inputs, {
        let mut l = LIST[..4].to_vec();
        l.sort_unstable();
        l
    });
    assert!(web.request_count("registry.test") > looked_up);

    // Without --registry a name is invalid input, with the flag to use.
    let dir2 = tempfile::tempdir().unwrap();
    let records = crawl(&web, dir2.path(), &lines[..1], &[]).await;
    assert_eq!(records[0].outcome, Outcome::InvalidInput);
    assert!(
        records[0].outcome_reason.contains("--registry"),
        "{:?}",
        records[0]
    );
}
