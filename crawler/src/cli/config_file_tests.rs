//! `--config FILE` on the commands besides crawl and check: the store folder (`crawl.out`) and
//! the ClickHouse URL and database (`clickhouse.*`) come from the file unless a flag says
//! otherwise. Dry runs make the store; ClickHouse is a closed loopback port, so the error
//! names the URL the command took.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::execute_argv;
use crate::run::Shutdown;

async fn mcpcensus(args: &[&str]) -> anyhow::Result<ExitCode> {
    let argv = std::iter::once("mcpcensus")
        .chain(args.iter().copied())
        .map(str::to_owned)
        .collect();
    execute_argv(argv, Shutdown::default()).await
}

/// A store with one dry run of three sites, and a config whose `crawl.out` is that store.
async fn store_and_config(dir: &Path, clickhouse: &str) -> (String, String) {
    let list = dir.join("list.txt");
    std::fs::write(&list, "a.test\nb.test\nc.test\n").unwrap();
    let store = dir.join("store").display().to_string();
    let list = list.display().to_string();
    let code = mcpcensus(&["crawl", &list, "--dry-run", "--quiet", "--out", &store])
        .await
        .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let config = dir.join("census.toml");
    std::fs::write(
        &config,
        format!("[crawl]\nout = {store:?}\n\n[clickhouse]\n{clickhouse}"),
    )
    .unwrap();
    (store, config.display().to_string())
}

#[tokio::test]
async fn export_report_and_runs_read_the_store_the_config_names() {
    let dir = tempfile::tempdir().unwrap();
    let (_, config) = store_and_config(dir.path(), "").await;
    let jsonl = dir.path().join("out.jsonl");
    let jsonl_arg = jsonl.display().to_string();
    mcpcensus(&["export", "--config", &config, "-o", &jsonl_arg])
        .await
        .unwrap();
    assert_eq!(std::fs::read_to_string(&jsonl).unwrap().lines().count(), 3);
    let report = dir.path().join("report.json");
    let report_arg = report.display().to_string();
    mcpcensus(&[
        "report",
        "--config",
        &config,
        "--format",
        "json",
        "-o",
        &report_arg,
    ])
    .await
    .unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert!(json.is_object());
    assert_eq!(
        mcpcensus(&["runs", "--config", &config]).await.unwrap(),
        ExitCode::SUCCESS
    );
    // Another file's folder is read: one without a store fails naming it.
    let elsewhere = dir.path().join("elsewhere.toml");
    let missing = dir.path().join("no-store-here");
    std::fs::write(&elsewhere, format!("[crawl]\nout = {:?}\n", missing)).unwrap();
    for command in ["runs", "export", "report"] {
        let e = mcpcensus(&[command, "--config", elsewhere.to_str().unwrap()])
            .await
            .unwrap_err();
        assert!(
            format!("{e:#}").contains("no-store-here"),
            "{command}: {e:#}"
        );
    }
}

/// A loopback URL nothing listens on.
fn closed_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

#[tokio::test]
async fn load_schema_and_report_take_the_clickhouse_url_from_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let url = closed_url();
    let (store, config) = store_and_config(dir.path(), &format!("url = {url:?}\n")).await;
    let commands: [&[&str]; 3] = [
        &["load", &store, "--config", &config],
        &["schema", "init", "--config", &config],
        &["report", "--config", &config],
    ];
    for args in commands {
        let e = mcpcensus(args).await.unwrap_err();
        assert!(format!("{e:#}").contains(&url), "{args:?}: {e:#}");
    }
    // A flag overrides the file.
    let other = closed_url();
    let e = mcpcensus(&["load", &store, "--config", &config, "--clickhouse", &other])
        .await
        .unwrap_err();
    assert!(format!("{e:#}").contains(&other), "{e:#}");
    // Neither: the command says where a URL can come from.
    let e = mcpcensus(&["load", &store]).await.unwrap_err();
    assert!(format!("{e}").contains("clickhouse.url"), "{e}");
}

#[tokio::test]
async fn a_config_with_an_unknown_key_is_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("typo.toml");
    std::fs::write(&config, "[crawl]\noutt = \"x\"\n").unwrap();
    let config = config.display().to_string();
    for args in [
        vec!["runs", "--config", &config],
        vec!["export", "--config", &config],
        vec!["report", "--config", &config],
        vec!["schema", "print", "--config", &config],
        vec!["load", ".", "--config", &config],
    ] {
        let e = mcpcensus(&args).await.unwrap_err();
        assert!(format!("{e:#}").contains("outt"), "{args:?}: {e:#}");
    }
}
