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
