//! `crawl --label`: two labelled runs and one without, and the report's trends grouped by
//! label (the embedded store, and ClickHouse's runs table when a server is up).

use std::time::Duration;

use mcpcensus_store::Store;

use crate::unattended::fixture::Web;
use crate::util::{mcpcensus, test_server_url, unique_db};

async fn run(args: Vec<String>) {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let code = tokio::time::timeout(Duration::from_secs(300), mcpcensus(&argv))
        .await
        .expect("the command did not end in time")
        .unwrap();
    assert_eq!(code, std::process::ExitCode::SUCCESS, "{argv:?}");
}

/// `report ... --format FORMAT` read back from its output file.
async fn report(web: &Web, source: &[&str], format: &str) -> String {
    let out = web.dir.path().join(format!("report.{format}"));
    let mut args: Vec<String> = ["report", "--format", format, "-o", out.to_str().unwrap()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(source.iter().map(|s| s.to_string()));
    run(args).await;
    std::fs::read_to_string(out).unwrap()
}

/// The history's (run id, label) pairs of a JSON report.
fn labels(report: &str) -> Vec<(String, Option<String>)> {
    let report: serde_json::Value = serde_json::from_str(report).unwrap();
    report["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["run_id"].as_str().unwrap().to_owned(),
                h["label"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn labelled_runs_are_trended_by_label() {
    let web = Web::start(12, Duration::ZERO, 44).await;
    let clickhouse = test_server_url().map(|url| (url, unique_db("label")));
    let ch_args: Vec<String> = match &clickhouse {
        Some((url, db)) => vec![
            "--clickhouse".into(),
            url.clone(),
            "--database".into(),
            db.clone(),
        ],
        None => vec![],
    };
    for label in [Some("nightly"), None, Some("weekly"), Some("nightly")] {
        let mut extra: Vec<&str> = ch_args.iter().map(String::as_str).collect();
        if let Some(label) = label {
            extra.extend(["--label", label]);
        }
        run(web.crawl_args(&extra)).await;
    }
    let store = Store::open(web.store()).unwrap();
    let manifests = store.runs().unwrap();
    let expected: Vec<(String, Option<String>)> = manifests
        .iter()
        .map(|m| (m.run_id.clone(), m.label.clone()))
        .collect();
    let given: Vec<Option<&str>> = expected.iter().map(|(_, l)| l.as_deref()).collect();
    assert_eq!(
        given,
        [Some("nightly"), None, Some("weekly"), Some("nightly")]
    );

    let from = web.store();
    let from = ["--from", from.to_str().unwrap()];
    assert_eq!(labels(&report(&web, &from, "json").await), expected);
    let md = report(&web, &from, "markdown").await;
    let table = md
        .split("Adoption by label")
        .nth(1)
        .unwrap_or_else(|| panic!("no trend by label:\n{md}"));
    // Grouped: both nightly runs, then weekly (labels in name order), then (none).
    let order: Vec<usize> = ["| nightly", "| weekly", "| (none)"]
        .iter()
        .map(|l| {
            table
                .find(l)
                .unwrap_or_else(|| panic!("no {l} row:\n{table}"))
        })
        .collect();
    assert_eq!(table.matches("| nightly").count(), 2, "{table}");
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{table}");

    if let Some((url, db)) = &clickhouse {
        let source = ["--clickhouse", url.as_str(), "--database", db.as_str()];
        assert_eq!(labels(&report(&web, &source, "json").await), expected);
    }
}
