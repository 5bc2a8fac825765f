//! `--resume-or-start` (a retried shard of a scheduled census): it starts the named run on an
//! empty store, resumes it when the store holds it unfinished, and does nothing once it is
//! complete. Dry runs, so no network is needed.

use std::path::Path;
use std::process::ExitCode;

use mcpcensus_store::{RunStatus, Store};

use crate::cli::execute_argv;
use crate::run::Shutdown;

const RUN: &str = "census-0b7c1e2a";

async fn crawl(dir: &Path, flags: &[&str]) -> anyhow::Result<ExitCode> {
    let list = dir.join("list.txt");
    // Written once: a resume refuses a list changed since (its modification time too).
    if !list.exists() {
        std::fs::write(&list, "a.test\nb.test\nc.test\n").unwrap();
    }
    let out = dir.join("store");
    let mut argv: Vec<String> = ["mcpcensus", "crawl", "--dry-run", "--quiet", "--out"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    argv.push(out.display().to_string());
    argv.push(list.display().to_string());
    argv.extend(flags.iter().map(|s| (*s).to_owned()));
    execute_argv(argv, Shutdown::default()).await
}

fn records(dir: &Path) -> usize {
    Store::open(dir.join("store"))
        .unwrap()
        .read_run(RUN)
        .unwrap()
        .count()
}

#[tokio::test]
async fn resume_alone_fails_on_a_store_without_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let e = crawl(dir.path(), &["--resume", RUN]).await.unwrap_err();
    assert!(format!("{e:#}").contains(RUN), "{e:#}");
}

#[tokio::test]
async fn resume_or_start_starts_the_run_on_an_empty_store() {
    let dir = tempfile::tempdir().unwrap();
    let code = crawl(dir.path(), &["--run-id", RUN, "--resume-or-start"])
        .await
        .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let store = Store::open(dir.path().join("store")).unwrap();
    let runs = store.runs().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(
        (runs[0].run_id.as_str(), runs[0].status),
        (RUN, RunStatus::Complete)
    );
    assert_eq!(records(dir.path()), 3);
}

#[tokio::test]
async fn resume_or_start_resumes_an_unfinished_run_and_leaves_a_complete_one() {
    let dir = tempfile::tempdir().unwrap();
    let flags = ["--run-id", RUN, "--resume-or-start"];
    crawl(dir.path(), &flags).await.unwrap();
    let store = Store::open(dir.path().join("store")).unwrap();
    let done = store.manifest(RUN).unwrap();

    // Complete: a retried pod does nothing and succeeds.
    assert_eq!(crawl(dir.path(), &flags).await.unwrap(), ExitCode::SUCCESS);
    assert_eq!(store.manifest(RUN).unwrap().ended_at, done.ended_at);
    assert_eq!(records(dir.path()), 3);

    // Unfinished: it is resumed, not started again (that would fail: the run exists).
    let mut stopped = done.clone();
    stopped.status = RunStatus::Interrupted;
    store.write_manifest(&stopped).unwrap();
    assert_eq!(crawl(dir.path(), &flags).await.unwrap(), ExitCode::SUCCESS);
    let resumed = store.manifest(RUN).unwrap();
    assert_eq!(resumed.status, RunStatus::Complete);
    assert_eq!(store.runs().unwrap().len(), 1);
    assert_eq!(records(dir.path()), 3, "each line keeps one record");
}

#[test]
fn resume_or_start_needs_a_run_id() {
    use clap::Parser;
    let e = crate::cli::Cli::try_parse_from(["mcpcensus", "crawl", "l.txt", "--resume-or-start"])
        .unwrap_err();
    assert_eq!(e.kind(), clap::error::ErrorKind::MissingRequiredArgument);
}
