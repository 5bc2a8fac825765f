//! `--log-format json` and `--stats-json`: what a scheduler reads of an unattended run.

use std::time::Duration;

use super::fixture::{read_store, Web};
use crate::child::{spawn_crawler, wait, ChildOptions};

/// Every stderr line is a JSON object, progress lines and the summary among them, and the
/// stats file holds the same summary as the run's manifest.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_make_every_stderr_line_json_and_stats_json_matches_the_manifest() {
    let web = Web::start(40, Duration::from_millis(400), 36).await;
    let config = web.dir.path().join("progress.toml");
    // Progress every second, so a run of a few seconds prints some.
    std::fs::write(&config, "[output]\nprogress_interval_secs = 1\n").unwrap();
    let stats = web.dir.path().join("stats.json");
    let mut args = web.crawl_args(&[
        "--concurrency",
        "4",
        "--log-format",
        "json",
        "--config",
        config.to_str().unwrap(),
        "--stats-json",
        stats.to_str().unwrap(),
    ]);
    // Not quiet: progress and the summary are what must be JSON too.
    args.retain(|a| a != "--quiet");
    let child = spawn_crawler(&args, &ChildOptions::default());
    let (code, stderr) = wait(child, Duration::from_secs(180)).await;
    assert_eq!(code, Some(0), "{stderr}");

    let lines: Vec<serde_json::Value> = stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:?}\n{stderr}"))
        })
        .collect();
    let targets: Vec<&str> = lines.iter().filter_map(|l| l["target"].as_str()).collect();
    assert!(targets.contains(&"progress"), "no progress line: {stderr}");
    let summary = lines
        .iter()
        .find(|l| l["target"] == "summary")
        .unwrap_or_else(|| panic!("no summary line: {stderr}"));

    let (manifest, records) = read_store(&web.store()).unwrap();
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(summary["summary"], file);
    assert_eq!(file["run_id"], manifest.run_id.as_str());
    assert_eq!(file["ending"], "complete");
    assert_eq!(
        file["counts"]["records_written"],
        records.len() as u64,
        "{file}"
    );
    assert_eq!(records.len(), web.sites.len());
    let counts: mcpcensus_store::RunCounts =
        serde_json::from_value(file["counts"].clone()).unwrap();
    assert_eq!(Some(counts), manifest.counts);
    // The keys README promises in `--stats-json`, there in every run: a plain list's too,
    // where the re-scan's counters are 0.
    for key in ["run_id", "ending", "duration_secs", "dns_stalls", "counts"] {
        assert!(file.get(key).is_some(), "no {key}: {file}");
    }
    for key in [
        "rescan_stale",
        "rescan_new",
        "rescan_fresh_skipped",
        "records_written",
    ] {
        assert!(file["counts"][key].is_u64(), "no counts.{key}: {file}");
    }
    assert_eq!(file["counts"]["rescan_fresh_skipped"], 0);
}
