//! Opening the run a crawl writes to: a new one, or an earlier one to resume (its torn tail
//! cut, its placeholders dropped, and the lines it already has collected in one pass).

use anyhow::{bail, Context};
use mcpcensus_store::{
    new_run_id, now_ms, validate_run_id, Outcome, Provenance, RunManifest, RunStatus, RunWriter,
    Store,
};

use super::selection::Selection;
use crate::run::{DoneSet, WrittenCounts};

/// The run a crawl writes to.
pub struct OpenedRun {
    pub manifest: RunManifest,
    pub writer: RunWriter,
    /// Set when resuming.
    pub resume: Option<(DoneSet, WrittenCounts)>,
    /// Resuming with the store and ClickHouse: the store's records ClickHouse lacks, to be
    /// loaded into it before the crawl goes on (empty when it has them all).
    pub reload: Option<DoneSet>,
}

/// A new run: `run_id` given (the shards of one census share it) or a fresh one.
pub struct NewRun<'a> {
    pub run_id: Option<&'a str>,
    pub argv: Vec<String>,
    pub config: serde_json::Value,
    pub dry_run: bool,
    pub selection: &'a Selection,
    pub provenance: Provenance,
    pub label: Option<String>,
}

pub fn new_run(store: &Store, new: NewRun<'_>) -> anyhow::Result<OpenedRun> {
    if let Some(label) = &new.label {
        validate_label(label)?;
    }
    let run_id = match new.run_id {
        Some(id) => {
            validate_run_id(id)?;
            id.to_owned()
        }
        None => new_run_id(),
    };
    let mut manifest = RunManifest::new(run_id, now_ms(), new.argv, new.config, new.dry_run);
    manifest.selection = Some(serde_json::to_value(new.selection)?);
    manifest.provenance = new.provenance;
    manifest.label = new.label;
    let writer = store.create_run(&manifest)?;
    Ok(OpenedRun {
        manifest,
        writer,
        resume: None,
        reload: None,
    })
}

/// Run `wanted` (`latest`: the newest unfinished one), after checking it can be resumed by
/// this invocation (not complete, same dry-run mode, same sites selected).
pub fn find_resumable(
    store: &Store,
    wanted: &str,
    dry_run: bool,
    selection: &Selection,
    label: Option<&str>,
) -> anyhow::Result<RunManifest> {
    let manifest = find(store, wanted)?;
    if let Some(label) = label.filter(|l| manifest.label.as_deref() != Some(*l)) {
        bail!(
            "run {} is labelled {}, not {label:?}: a resumed run keeps its label",
            manifest.run_id,
            manifest
                .label
                .as_deref()
                .map_or("(none)".to_owned(), |l| format!("{l:?}"))
        );
    }
    if manifest.status == RunStatus::Complete {
        bail!(
            "run {} is complete: nothing to resume (start a new run without --resume)",
            manifest.run_id
        );
    }
    if manifest.dry_run != dry_run {
        bail!(
            "run {} was {}a dry run: resume it with{} --dry-run",
            manifest.run_id,
            if manifest.dry_run { "" } else { "not " },
            if manifest.dry_run { "" } else { "out" }
        );
    }
    selection
        .check_same_as(manifest.selection.as_ref())
        .with_context(|| format!("cannot resume run {}", manifest.run_id))?;
    Ok(manifest)
}

/// Which sites of a resumed run are done, by where its records go.
pub enum Done {
    /// The embedded store alone: its records.
    Store,
    /// ClickHouse alone: the rows it acknowledged (and the records it rejected).
    ClickHouse(DoneSet, WrittenCounts),
    /// Both: the store is the durable copy. A record only the store has is kept and loaded
    /// into ClickHouse again (an emptied or wrong database never costs a record or a scan); a
    /// row only ClickHouse has is scanned again (its new row replaces it: same key, FINAL).
    Both(DoneSet),
}

/// Reopens `manifest`'s run (its torn tail cut, its placeholders dropped) and collects the
/// lines it already has in one pass over the store.
pub fn resume_run(
    store: &Store,
    mut manifest: RunManifest,
    selection: &Selection,
    by: Done,
) -> anyhow::Result<OpenedRun> {
    let mut done = selection.done_set();
    let mut counts = WrittenCounts::default();
    let (mut clickhouse, from_clickhouse) = match by {
        Done::Store => (None, None),
        Done::Both(ch) => (Some(ch), None),
        Done::ClickHouse(ch, ch_counts) => (None, Some((ch, ch_counts))),
    };
    let mut reload = clickhouse.as_ref().map(|_| selection.done_set());
    // Placeholders of a stopped run are dropped: those sites are scanned now. So is a second
    // record of one line.
    let (writer, pass) = store.resume_run_keeping(&manifest.run_id, |r| {
        if r.outcome == Outcome::NotStarted {
            return false;
        }
        let kept = done.insert(r.input_line, &r.input);
        if kept {
            counts.add(r);
            if let (Some(ch), Some(reload)) = (&mut clickhouse, &mut reload) {
                if !ch.take(r.input_line, &r.input) {
                    reload.insert(r.input_line, &r.input);
                }
            }
        }
        kept
    })?;
    tracing::info!(
        run_id = %manifest.run_id,
        kept = pass.kept,
        dropped = pass.dropped,
        rewritten_segments = pass.rewritten_segments,
        torn_tail_cut = writer.repaired().is_some(),
        "resuming"
    );
    if let (Some(ch), Some(reload)) = (&clickhouse, &reload) {
        // Rescanned, their new ClickHouse row replaces the old one (same key; read with FINAL).
        let only_in_clickhouse = ch.len().saturating_sub(done.len() - reload.len());
        tracing::info!(
            only_in_store = reload.len(),
            only_in_clickhouse,
            "records only the store has are loaded into ClickHouse again; sites only \
             ClickHouse has are scanned again"
        );
    }
    manifest.status = RunStatus::Running;
    // Every segment read above is this build's schema (another is refused), as are those to come.
    manifest.schema_version = mcpcensus_store::SCHEMA_VERSION;
    manifest.ended_at = None;
    manifest.failure = None;
    store.write_manifest(&manifest)?;
    Ok(OpenedRun {
        manifest,
        writer,
        resume: Some(from_clickhouse.unwrap_or((done, counts))),
        reload: reload.filter(|r| !r.is_empty()),
    })
}

pub fn find(store: &Store, wanted: &str) -> anyhow::Result<RunManifest> {
    if wanted != "latest" {
        return store
            .manifest(wanted)
            .with_context(|| format!("no run {wanted} in {}", store.root().display()));
    }
    store
        .runs()?
        .into_iter()
        .rev()
        .find(|m| m.status != RunStatus::Complete)
        .with_context(|| format!("no unfinished run in {} to resume", store.root().display()))
}

/// The longest `--label`.
pub const MAX_LABEL_CHARS: usize = 64;

/// A label is a short, printable name: it heads a group in reports and goes into ClickHouse.
pub fn validate_label(label: &str) -> anyhow::Result<()> {
    if label.trim().is_empty() {
        bail!("--label is empty");
    }
    if label.chars().count() > MAX_LABEL_CHARS {
        bail!("--label is longer than {MAX_LABEL_CHARS} characters");
    }
    if label.chars().any(char::is_control) {
        bail!("--label contains a control character");
    }
    Ok(())
}
