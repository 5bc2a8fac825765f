//! How a crawl ends: the final manifest, the summary (text, JSON line, `--stats-json`), the
//! dead letters, and the exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use mcpcensus_store::clickhouse::{read_dead_letters, DEAD_LETTER_FILE};
use mcpcensus_store::{now_ms, RunManifest, RunStatus, RunWriter, Store};

use super::plan::CrawlPlan;
use super::rescan::Rescan;
use super::{EXIT_FAILED, EXIT_INCOMPLETE, EXIT_INTERRUPTED};
use crate::cli::clickhouse::{CrawlClickHouse, Drained};
use crate::cli::metrics::MetricsServer;
use crate::config::LogFormat;
use crate::run::{Ending, Shutdown, Summary};

/// What is left to close once the pipeline has run.
pub(super) struct Ended<'a> {
    pub store: &'a Store,
    pub manifest: RunManifest,
    pub rescan: Option<Rescan>,
    /// The embedded store's writer kept open only to hold the run's lock.
    pub lock_holder: Option<RunWriter>,
    pub clickhouse: Option<CrawlClickHouse>,
    /// The spools of earlier runs loaded at the start.
    pub leftovers: Vec<Drained>,
    pub metrics_server: Option<MetricsServer>,
}

impl Ended<'_> {
    /// Records how the run ended, says it, and gives the exit code.
    pub async fn finish(
        self,
        plan: &CrawlPlan,
        result: Result<Summary, crate::Error>,
        shutdown: &Shutdown,
    ) -> anyhow::Result<ExitCode> {
        let Ended {
            store,
            mut manifest,
            rescan,
            lock_holder,
            clickhouse,
            leftovers,
            metrics_server,
        } = self;
        let config = &plan.config;
        let run_id = manifest.run_id.clone();
        manifest.ended_at = Some(now_ms());
        let summary = match result {
            Ok(summary) => summary,
            Err(e) => {
                manifest.status = RunStatus::Failed;
                manifest.failure = Some(format!("{e}"));
                store.write_manifest(&manifest)?;
                return Err(e.into());
            }
        };
        let dead_letters = dead_letters(store, &run_id);
        record_end(
            store,
            &mut manifest,
            &summary,
            rescan.as_ref(),
            dead_letters,
        )?;
        if let Some(writer) = lock_holder {
            writer.finish()?;
        }
        if let Some(ch) = &clickhouse {
            ch.finish_run(&manifest, summary.written.records).await;
        }
        let mut stats = summary.to_json();
        stats["counts"] = serde_json::to_value(manifest.counts.as_ref().map(|c| c.every_key()))?;
        if !leftovers.is_empty() {
            stats["clickhouse_spools_loaded"] = spools_json(&leftovers);
        }
        if let Some(path) = &plan.args.stats_json {
            write_stats_json(path, &stats)?;
        }
        if !config.output.quiet || summary.ending == Ending::Failed {
            match config.output.log_format {
                LogFormat::Json => eprintln!("{}", summary_line(&summary, stats)),
                LogFormat::Text => {
                    eprint!("{summary}");
                    if let Some(r) = &rescan {
                        eprintln!("{}", r.line());
                    }
                }
            }
        }
        if let Some(server) = metrics_server {
            server.finish(plan.metrics_linger).await;
        }
        if config.output.log_format == LogFormat::Text {
            say_dead_letters(store, &run_id, &leftovers, dead_letters)?;
        }
        Ok(ExitCode::from(match summary.ending {
            Ending::Complete => 0,
            Ending::MaxDuration => EXIT_INCOMPLETE,
            Ending::Interrupted => shutdown.exit_code(EXIT_INTERRUPTED),
            Ending::Failed => EXIT_FAILED,
        }))
    }
}

/// The records ClickHouse rejected for their content, this run's and the loaded spools'.
fn say_dead_letters(
    store: &Store,
    run_id: &str,
    leftovers: &[Drained],
    dead_letters: u64,
) -> anyhow::Result<()> {
    for d in leftovers.iter().filter(|d| d.dead_lettered > 0) {
        eprintln!(
            "ClickHouse rejected {} record(s) of the spool run {} left, for their content: \
             they are in {} with the server's errors ({} other record(s) loaded)",
            d.dead_lettered,
            d.run_id,
            d.dead_letter.display(),
            d.records
        );
    }
    if dead_letters > 0 {
        eprintln!(
            "ClickHouse rejected {dead_letters} record(s) for their content: they are in {} with \
             the server's errors (every other record was inserted)",
            dead_letter_path(store, run_id)?.display()
        );
    }
    Ok(())
}

/// The spools of earlier runs loaded at the start, for the JSON summary.
fn spools_json(leftovers: &[Drained]) -> serde_json::Value {
    leftovers
        .iter()
        .map(|d| {
            serde_json::json!({
                "run_id": d.run_id,
                "records": d.records,
                "dead_lettered": d.dead_lettered,
                "dead_letter_file": d.dead_letter.display().to_string(),
            })
        })
        .collect()
}

pub(super) fn dead_letter_path(store: &Store, run_id: &str) -> anyhow::Result<PathBuf> {
    Ok(store.run_dir(run_id)?.join(DEAD_LETTER_FILE))
}

/// Records of the run ClickHouse rejected (the whole run's, resumes included).
fn dead_letters(store: &Store, run_id: &str) -> u64 {
    match dead_letter_path(store, run_id).and_then(|p| Ok(read_dead_letters(&p)?)) {
        Ok(letters) => letters.len() as u64,
        Err(e) => {
            tracing::warn!(error = %e, "could not read the dead-letter file");
            0
        }
    }
}

/// `--stats-json`: the summary, written whole (a temporary file renamed) so a scheduler never
/// reads half of it.
fn write_stats_json(path: &std::path::Path, stats: &serde_json::Value) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(stats)? + "\n";
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// The summary (`stats`: its JSON with the manifest's counts) as the last JSON line on stderr.
fn summary_line(summary: &Summary, stats: serde_json::Value) -> String {
    let mut line = serde_json::json!({
        "timestamp": humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string(),
        "level": if summary.ending == Ending::Failed { "ERROR" } else { "INFO" },
        "target": "summary",
    });
    line["summary"] = stats;
    line.to_string()
}

/// The final manifest: status, failure and counts (over the whole run when resumed).
fn record_end(
    store: &Store,
    manifest: &mut RunManifest,
    summary: &Summary,
    rescan: Option<&Rescan>,
    dead_letters: u64,
) -> anyhow::Result<()> {
    let mut counts = summary.manifest_counts();
    if let Some(r) = rescan {
        r.fill(&mut counts);
    }
    counts.clickhouse_dead_letters = dead_letters;
    manifest.counts = Some(counts);
    // Each input's lines, so a run written by shards counts a list they all read once.
    for (name, lines) in &summary.sources_read {
        if let Some(input) = manifest
            .provenance
            .inputs
            .iter_mut()
            .find(|i| i.input == *name && i.lines.is_none())
        {
            input.lines = Some(*lines);
        }
    }
    manifest.status = match summary.ending {
        Ending::Complete => RunStatus::Complete,
        Ending::Interrupted | Ending::MaxDuration => RunStatus::Interrupted,
        Ending::Failed => RunStatus::Failed,
    };
    manifest.failure = summary.failure.clone();
    if let Some(reason) = &summary.failure {
        tracing::error!(run_id = %manifest.run_id, reason = %reason, "the run failed");
    }
    store.write_manifest(manifest)?;
    Ok(())
}
