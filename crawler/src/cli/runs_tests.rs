//! `runs prune`: which runs go, that nothing goes without `--yes`, and that a run being
//! written or with an unloaded spool stays.

use std::time::Duration;

use mcpcensus_store::{RunManifest, RunStatus, Store};

use super::args::PruneArgs;
use super::runs::{prune, selected, Pruned};

const DAY_MS: u64 = 86_400_000;
/// "Now" for the tests: day 100.
const NOW: u64 = 100 * DAY_MS;

/// A store with finished runs started on days 10, 20, 30, 40 and 50.
fn store(dir: &std::path::Path) -> Store {
    let store = Store::open(dir).unwrap();
    for day in [10u64, 20, 30, 40, 50] {
        let mut m = RunManifest::new(
            format!("run-day{day}"),
            day * DAY_MS,
            vec![],
            serde_json::Value::Null,
            false,
        );
        let writer = store.create_run(&m).unwrap();
        writer.finish().unwrap();
        m.status = RunStatus::Complete;
        store.write_manifest(&m).unwrap();
    }
    store
}

fn ids(store: &Store) -> Vec<String> {
    store
        .runs()
        .unwrap()
        .into_iter()
        .map(|m| m.run_id)
        .collect()
}

fn args(keep: Option<usize>, older_than_days: Option<u64>, yes: bool) -> PruneArgs {
    PruneArgs {
        keep,
        older_than: older_than_days.map(|d| Duration::from_secs(d * 86_400)),
        yes,
    }
}

fn run_prune(store: &Store, args: &PruneArgs) -> (Pruned, String) {
    let mut out = Vec::new();
    let pruned = prune(store, args, NOW, &mut out).unwrap();
    (pruned, String::from_utf8(out).unwrap())
}

#[test]
fn keep_and_older_than_select_the_old_runs_and_both_must_agree() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let runs = store.runs().unwrap();
    let pick = |a: PruneArgs| -> Vec<&str> {
        selected(&runs, &a, NOW)
            .iter()
            .map(|m| m.run_id.as_str())
            .collect()
    };
    assert_eq!(
        pick(args(Some(2), None, false)),
        ["run-day10", "run-day20", "run-day30"]
    );
    // Started more than 65 days before day 100: days 10, 20 and 30.
    assert_eq!(
        pick(args(None, Some(65), false)),
        ["run-day10", "run-day20", "run-day30"]
    );
    assert_eq!(pick(args(Some(4), Some(65), false)), ["run-day10"]);
    assert_eq!(pick(args(Some(9), None, false)), Vec::<&str>::new());
}

#[test]
fn without_yes_nothing_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let (pruned, text) = run_prune(&store, &args(Some(1), None, false));
    assert_eq!(pruned.removed.len(), 4);
    assert_eq!(ids(&store).len(), 5, "a dry run removed something");
    assert!(text.contains("would remove run-day10"), "{text}");
    assert!(text.contains("add --yes"), "{text}");
}

#[test]
fn with_yes_the_selected_runs_are_removed_but_never_one_in_progress_or_with_a_spool() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    // Day 5: a run a process is still writing (its writer holds the lock).
    let writing = RunManifest::new(
        "run-day5",
        5 * DAY_MS,
        vec![],
        serde_json::Value::Null,
        false,
    );
    let writer = store.create_run(&writing).unwrap();
    // Day 20's records wait in a ClickHouse spool.
    std::fs::create_dir_all(dir.path().join("clickhouse-spool/run-day20")).unwrap();
    let (pruned, text) = run_prune(&store, &args(None, Some(65), true));
    assert_eq!(pruned.removed, ["run-day10", "run-day30"], "{text}");
    assert_eq!(pruned.kept, ["run-day5", "run-day20"], "{text}");
    assert_eq!(
        ids(&store),
        ["run-day5", "run-day20", "run-day40", "run-day50"]
    );
    assert!(text.contains("kept run-day5"), "{text}");
    assert!(text.contains("a process is writing it"), "{text}");
    writer.finish().unwrap();
}

#[test]
fn prune_needs_keep_or_older_than() {
    use clap::Parser;
    let parse = |a: &[&str]| {
        super::Cli::try_parse_from(a)
            .map(|_| ())
            .map_err(|e| e.kind())
    };
    assert_eq!(
        parse(&["mcpcensus", "runs", "prune"]),
        Err(clap::error::ErrorKind::MissingRequiredArgument)
    );
    assert!(parse(&["mcpcensus", "runs", "prune", "--keep", "3"]).is_ok());
    assert!(parse(&["mcpcensus", "runs", "prune", "--older-than", "90d", "--yes"]).is_ok());
    assert!(parse(&["mcpcensus", "runs", "--from", "d", "prune", "--keep", "1"]).is_ok());
    assert!(parse(&["mcpcensus", "runs", "prune", "--keep", "1", "--from", "d"]).is_ok());
}
