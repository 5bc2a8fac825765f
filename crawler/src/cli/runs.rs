//! `mcpcensus runs`: the runs of an embedded store, and `runs prune`, which removes old ones.
//! Pruning lists what it would remove unless told `--yes`, and never removes a run a process
//! is writing (its lock is held) or one whose ClickHouse spool was not loaded yet.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use mcpcensus_store::{format_timestamp, now_ms, RunManifest, Store};

use super::args::{PruneArgs, RunsAction, RunsArgs};
use super::clickhouse::SPOOL_DIR;
use super::setup::open_store;

pub fn execute(args: RunsArgs) -> anyhow::Result<ExitCode> {
    let store = open_store(args.from.as_deref(), &args.config.load()?)?;
    let mut out = std::io::stdout().lock();
    match &args.action {
        None => write_runs(&store, &mut out)?,
        Some(RunsAction::Prune(prune)) => {
            self::prune(&store, prune, now_ms(), &mut out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One line a run, oldest first.
pub fn write_runs(store: &Store, out: &mut dyn Write) -> anyhow::Result<()> {
    for m in store.runs()? {
        writeln!(out, "{}", describe(&m))?;
    }
    Ok(())
}

fn describe(m: &RunManifest) -> String {
    let records = m.counts.as_ref().map_or(0, |c| c.records_written);
    format!(
        "{}  {:<11}  {}{} records",
        m.run_id,
        m.status.as_str(),
        if m.dry_run { "dry run, " } else { "" },
        records
    )
}

/// The runs `args` selects, oldest first: those past the newest `keep` and started before
/// `now_ms - older_than` (both when both are given).
pub fn selected<'a>(
    runs: &'a [RunManifest],
    args: &PruneArgs,
    now_ms: u64,
) -> Vec<&'a RunManifest> {
    let beyond_keep = runs.len().saturating_sub(args.keep.unwrap_or(0));
    let cutoff = args
        .older_than
        .map(|age| now_ms.saturating_sub(millis(age)));
    runs.iter()
        .take(beyond_keep)
        .filter(|m| cutoff.is_none_or(|c| m.started_at < c))
        .collect()
}

fn millis(d: Duration) -> u64 {
    d.as_millis().try_into().unwrap_or(u64::MAX)
}

/// Why a run a process is writing is kept.
const WRITING: &str = "a process is writing it";

/// What pruning did (or, without `--yes`, would do).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    pub removed: Vec<String>,
    pub kept: Vec<String>,
}

/// Prunes `store` as `args` says, writing a line per selected run and a closing line.
pub fn prune(
    store: &Store,
    args: &PruneArgs,
    now_ms: u64,
    out: &mut dyn Write,
) -> anyhow::Result<Pruned> {
    let runs = store.runs()?;
    let mut pruned = Pruned::default();
    for m in selected(&runs, args, now_ms) {
        let started = format_timestamp(m.started_at);
        let spool = store.root().join(SPOOL_DIR).join(&m.run_id);
        let kept_because = if spool.is_dir() {
            Some("its ClickHouse spool is not loaded yet (mcpcensus load)")
        } else if args.yes {
            // Removal takes the run's lock, so a run being written stays.
            (!store.remove_run(&m.run_id)?).then_some(WRITING)
        } else {
            store.try_lock_run(&m.run_id)?.is_none().then_some(WRITING)
        };
        match kept_because {
            Some(why) => {
                writeln!(out, "kept {}: {why}", describe(m))?;
                pruned.kept.push(m.run_id.clone());
            }
            None => {
                let verb = if args.yes { "removed" } else { "would remove" };
                writeln!(out, "{verb} {}, started {started}", describe(m))?;
                pruned.removed.push(m.run_id.clone());
            }
        }
    }
    let n = pruned.removed.len();
    if args.yes {
        writeln!(out, "{n} run(s) removed, {} left", runs.len() - n)?;
    } else {
        writeln!(
            out,
            "{n} run(s) would be removed ({} left); nothing was removed: add --yes to remove them",
            runs.len() - n
        )?;
    }
    Ok(pruned)
}
