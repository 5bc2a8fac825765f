//! The crawl command: builds the run's resources, runs the pipeline, records how it ended.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use mcpcensus_store::clickhouse::{read_dead_letters, DEAD_LETTER_FILE};
use mcpcensus_store::{now_ms, RunManifest, RunStatus, RunWriter, Store, StoreError};

use super::clickhouse_done::{clickhouse_done, rows_done};
use super::open::{find, find_resumable, new_run, resume_run, Done, NewRun, OpenedRun};
use super::rescan::{self, LastScans, Rescan};
use super::selection::Selection;
use crate::cli::args::CrawlArgs;
use crate::cli::clickhouse::{CrawlClickHouse, Drained, SPOOL_DIR};
use crate::cli::metrics::{Metrics, MetricsServer, MetricsSink, Sources};
use crate::cli::setup::{build_scanner, redacted, redacted_argv, warn_if_no_session_room};
use crate::config::{Config, LogFormat};
use crate::input::{Exclusions, LineReader, Planner, Source};
use crate::run::{
    self, Counters, CrawlJob, Ending, ProgressMode, RecordSink, Scanner, Shutdown, Summary,
};
use crate::run::{DoneSet, TeeSink};
use crate::scan::CrawlScanner;

/// Exit code when `--max-duration` stopped the run before the input was done.
pub const EXIT_INCOMPLETE: u8 = 3;
/// Exit code when the run failed: records could not be written, or this machine kept running
/// out of resources. The manifest says why; `--resume` continues once it is fixed.
pub const EXIT_FAILED: u8 = 4;
/// Exit code after Ctrl-C (128 + SIGINT, as shells report it); SIGTERM gives 143 and SIGHUP
/// 129, the same way.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Wraps the sink the crawl built (tests put a faulty one around it).
pub type SinkLayer = Box<dyn FnOnce(Box<dyn RecordSink>) -> Box<dyn RecordSink> + Send>;

pub async fn crawl(
    args: CrawlArgs,
    argv: Vec<String>,
    shutdown: Shutdown,
) -> anyhow::Result<ExitCode> {
    crawl_with(args, argv, shutdown, Box::new(|sink| sink)).await
}

pub async fn crawl_with(
    args: CrawlArgs,
    argv: Vec<String>,
    shutdown: Shutdown,
    layer: SinkLayer,
) -> anyhow::Result<ExitCode> {
    let config = args.load_config()?;
    let sources = sources(&args.inputs)?;
    if !args.dry_run {
        warn_if_no_session_room(&config);
    }
    let exclusions = Arc::new(Exclusions::load(&config.input.exclude)?);
    let (scanner, net): (Option<Arc<dyn Scanner>>, _) = if args.dry_run {
        (None, None)
    } else {
        let sites = build_scanner(&config, exclusions.clone())?;
        let net = sites.net().clone();
        let scanner = CrawlScanner {
            sites,
            registry: args.registry.clone(),
            shared: Arc::default(),
        };
        (Some(Arc::new(scanner)), Some(net))
    };
    let metrics_linger = args.metrics_linger.unwrap_or(Duration::ZERO);
    let metrics_listener = match args.metrics {
        Some(addr) => Some(MetricsServer::bind(addr).await?),
        None => None,
    };
    let store = Store::open(&config.crawl.out)
        .with_context(|| format!("opening the store at {}", config.crawl.out.display()))?;
    if let Some(id) = args.run_id.as_deref().filter(|_| args.resume_or_start) {
        if let Some(m) = recorded(&store, id)?.filter(|m| m.status == RunStatus::Complete) {
            // A retried pod whose run had finished: nothing is left to do, and that is success.
            tracing::info!(run_id = %m.run_id, "the run is complete: nothing to resume");
            return Ok(ExitCode::SUCCESS);
        }
    }
    let tee = args.out.is_some();
    // Connected before the run is opened: a resume asks it which sites are done.
    let clickhouse = match &config.clickhouse.url {
        Some(url) => Some(CrawlClickHouse::connect(&config, url).await?),
        None => None,
    };
    let (opened, sources, rescan) =
        open_run(&args, argv, &config, &store, sources, clickhouse.as_ref()).await?;
    let OpenedRun {
        mut manifest,
        writer,
        resume,
        reload,
    } = opened;
    let run_id = manifest.run_id.clone();
    let leftovers = match &clickhouse {
        Some(ch) => ch.drain_leftover_spools(&store, &run_id).await,
        None => Vec::new(),
    };
    let (clickhouse, sink, lock_holder) =
        build_sink(&config, &store, &manifest, writer, clickhouse, tee, reload).await?;
    let total_bytes = LineReader::total_bytes(&sources);
    let reader = LineReader::new(sources);
    let counters = Arc::new(Counters::for_reader(&reader));
    let (sink, metrics_server) = match metrics_listener {
        Some(listener) => {
            let metrics = Metrics::new(Sources {
                counters: counters.clone(),
                net,
                sink: clickhouse.as_ref().map(|ch| ch.live.clone()),
                spool_dir: clickhouse
                    .as_ref()
                    .map(|_| config.crawl.out.join(SPOOL_DIR).join(&run_id)),
            })?;
            let sink: Box<dyn RecordSink> = Box::new(MetricsSink {
                inner: sink,
                metrics: metrics.clone(),
            });
            (sink, Some(MetricsServer::start(listener, metrics)?))
        }
        None => (sink, None),
    };
    let job = CrawlJob {
        run_id: run_id.clone(),
        total_bytes,
        reader,
        planner: Planner::new(config.input.shard, exclusions).with_columns(config.input.columns()),
        scanner,
        sink: layer(sink),
        concurrency: if args.dry_run {
            config.crawl.concurrency.get()
        } else {
            super::limits::fit_concurrency(
                config.crawl.concurrency.get(),
                config.output.log_format == LogFormat::Json,
            )?
        },
        max_duration: config.max_duration()?,
        grace: Duration::from_secs(config.crawl.shutdown_grace_secs),
        progress: progress_mode(&config),
        resume,
        admission: run::AdmissionSettings::default(),
        counters: Some(counters),
        second_look: if args.dry_run {
            None
        } else {
            config.second_look()?
        },
    };
    tracing::info!(run_id = %run_id, out = %config.crawl.out.display(), dry_run = args.dry_run, "crawl started");
    let result = run::crawl(job, shutdown.clone()).await;
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
    let dead_letters = dead_letters(&store, &run_id);
    record_end(
        &store,
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
    if let Some(path) = &args.stats_json {
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
        server.finish(metrics_linger).await;
    }
    if config.output.log_format == LogFormat::Text {
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
    }
    if dead_letters > 0 && config.output.log_format == LogFormat::Text {
        eprintln!(
            "ClickHouse rejected {dead_letters} record(s) for their content: they are in {} with \
             the server's errors (every other record was inserted)",
            dead_letter_path(&store, &run_id)?.display()
        );
    }
    Ok(ExitCode::from(match summary.ending {
        Ending::Complete => 0,
        Ending::MaxDuration => EXIT_INCOMPLETE,
        Ending::Interrupted => shutdown.exit_code(EXIT_INTERRUPTED),
        Ending::Failed => EXIT_FAILED,
    }))
}

/// The run's sink: the embedded store, ClickHouse, or both (`tee`: an explicit `--out`).
/// With --clickhouse, records stream there; the run's manifest stays in the embedded store,
/// and with an explicit --out its records too. The server is checked before the run starts.
/// Without --out the store's writer stays open (unused) so the run's lock is held while the
/// run lives; it is returned for the caller to finish. `reload`: the store's records
/// ClickHouse lacks (a resumed tee run), loaded into it before the crawl goes on.
async fn build_sink(
    config: &Config,
    store: &Store,
    manifest: &RunManifest,
    writer: RunWriter,
    clickhouse: Option<CrawlClickHouse>,
    tee: bool,
    reload: Option<DoneSet>,
) -> anyhow::Result<(
    Option<CrawlClickHouse>,
    Box<dyn RecordSink>,
    Option<RunWriter>,
)> {
    let run_id = &manifest.run_id;
    let Some(ch) = clickhouse else {
        return Ok((None, Box::new(writer), None));
    };
    ch.begin(manifest).await?;
    let dead_letter = dead_letter_path(store, run_id)?;
    let mut ch_sink = Box::new(ch.sink(config, run_id, dead_letter).await?);
    if let Some(reload) = reload {
        ch_sink = super::reload::reload(store, run_id, reload, ch_sink).await?;
    }
    if tee {
        let sink = Box::new(TeeSink {
            first: Box::new(writer),
            second: ch_sink,
        });
        Ok((Some(ch), sink, None))
    } else {
        Ok((Some(ch), ch_sink, Some(writer)))
    }
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

fn dead_letter_path(store: &Store, run_id: &str) -> anyhow::Result<PathBuf> {
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

fn sources(inputs: &[String]) -> anyhow::Result<Vec<Source>> {
    let sources: Vec<Source> = inputs.iter().map(|a| Source::parse(a)).collect();
    if sources.iter().filter(|s| **s == Source::Stdin).count() > 1 {
        bail!("standard input (-) can be read only once");
    }
    for s in &sources {
        if let Source::File(p) = s {
            if !p.is_file() {
                bail!("input {} is not a readable file", p.display());
            }
        }
    }
    Ok(sources)
}

fn progress_mode(config: &Config) -> ProgressMode {
    let every = Duration::from_secs(config.output.progress_interval_secs);
    let mode = ProgressMode::choose(config.output.quiet, every);
    match config.output.log_format {
        LogFormat::Json => mode.json(every),
        LogFormat::Text => mode,
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

/// Opens the run (new, resumed, or a new re-scan with its target list pinned) and returns it
/// with the sources the crawl reads.
async fn open_run(
    args: &CrawlArgs,
    argv: Vec<String>,
    config: &Config,
    store: &Store,
    lists: Vec<Source>,
    clickhouse: Option<&CrawlClickHouse>,
) -> anyhow::Result<(OpenedRun, Vec<Source>, Option<Rescan>)> {
    let tee = args.out.is_some();
    let sinks = |selection: Selection| selection.with_sinks(clickhouse.is_some(), tee);
    if let Some(wanted) = resume_target(args, store)? {
        let recorded = find(store, &wanted)?;
        let rescan = Selection::recorded_rescan(recorded.selection.as_ref())?;
        let sources = match &rescan {
            Some(r) => vec![rescan::pinned_for_resume(
                store.run_dir(&recorded.run_id)?,
                r,
                &Selection::files(&lists)?,
                args.rescan_older_than.as_deref(),
            )?],
            None => lists,
        };
        let mut selection = sinks(Selection::of(&sources, config)?);
        selection.rescan.clone_from(&rescan);
        let manifest = find_resumable(
            store,
            &recorded.run_id,
            args.dry_run,
            &selection,
            args.label.as_deref(),
        )?;
        let by = match clickhouse {
            None => Done::Store,
            Some(ch) => {
                let (done, counts) =
                    clickhouse_done(ch, store, &manifest.run_id, &selection).await?;
                if tee {
                    Done::Both(done)
                } else {
                    Done::ClickHouse(done, counts)
                }
            }
        };
        let opened = resume_run(store, manifest, &selection, by)?;
        return Ok((opened, sources, rescan));
    }
    let mut rescan = match &args.rescan_older_than {
        Some(older_than) => Some(start_rescan(older_than, config, store, &lists).await?),
        None => None,
    };
    let selection = sinks(Selection::of(&lists, config)?);
    let mut opened = new_run(
        store,
        NewRun {
            run_id: args.run_id.as_deref(),
            argv: redacted_argv(&argv),
            config: serde_json::to_value(redacted(config))?,
            dry_run: args.dry_run,
            selection: &selection,
            provenance: crate::input::provenance(&lists).context("checksumming the inputs")?,
            label: args.label.clone(),
        },
    )?;
    let Some((r, last)) = rescan.as_mut() else {
        if let Some(ch) = clickhouse.filter(|_| args.resume_or_start && !tee) {
            // A retried shard on a fresh disk: what an earlier attempt of this run id put into
            // ClickHouse is done. (A re-scan needs no such set: the sites an earlier attempt
            // scanned are fresh now, so they are not among its targets.)
            let run_id = opened.manifest.run_id.clone();
            opened.resume = Some(rows_done(ch, store, &run_id, &selection).await?);
        }
        return Ok((opened, lists, None));
    };
    // The target list is written once, into the run, and is the run's input from now on.
    let path = store
        .run_dir(&opened.manifest.run_id)?
        .join(rescan::TARGETS_FILE);
    rescan::write_targets(&path, last, &lists, &config.input.columns(), r)?;
    let pinned = vec![Source::File(path)];
    let mut selection = sinks(Selection::of(&pinned, config)?);
    selection.rescan = Some(r.clone());
    let mut read = lists;
    read.extend(pinned.iter().cloned());
    opened.manifest.selection = Some(serde_json::to_value(&selection)?);
    opened.manifest.provenance =
        crate::input::provenance(&read).context("checksumming the inputs")?;
    store.write_manifest(&opened.manifest)?;
    tracing::info!(
        stale = r.stale,
        new = r.new,
        fresh_skipped = r.fresh_skipped,
        "re-scan targets"
    );
    Ok((opened, pinned, rescan.map(|(r, _)| r)))
}

/// The run to resume: `--resume`'s, or with `--resume-or-start` the `--run-id` when the store
/// holds it (a run it lacks is started under that id).
fn resume_target(args: &CrawlArgs, store: &Store) -> anyhow::Result<Option<String>> {
    if let Some(wanted) = &args.resume {
        return Ok(Some(wanted.clone()));
    }
    match args.run_id.as_deref().filter(|_| args.resume_or_start) {
        Some(id) => Ok(recorded(store, id)?.map(|m| m.run_id)),
        None => Ok(None),
    }
}

/// Run `run_id`'s manifest, or None when the store has no such run.
fn recorded(store: &Store, run_id: &str) -> anyhow::Result<Option<RunManifest>> {
    match store.manifest(run_id) {
        Ok(m) => Ok(Some(m)),
        Err(StoreError::RunNotFound { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The re-scan's pass over the store (ClickHouse with --clickhouse, else the embedded one).
async fn start_rescan(
    older_than: &str,
    config: &Config,
    store: &Store,
    lists: &[Source],
) -> anyhow::Result<(Rescan, LastScans)> {
    let cutoff_ms = rescan::cutoff(older_than, now_ms())?;
    let (last, from) = match &config.clickhouse.url {
        Some(url) => {
            let mut last = LastScans::of_shard(config.input.shard);
            crate::cli::clickhouse::last_scans(config, url, |o, at, rank| last.see(o, at, rank))
                .await?;
            (last, "clickhouse")
        }
        None => (
            LastScans::from_store(store, config.input.shard)?,
            "embedded",
        ),
    };
    tracing::info!(sites = last.len(), store = from, "read the last scans");
    let rescan = Rescan {
        older_than: older_than.to_owned(),
        cutoff_ms,
        store: from.to_owned(),
        lists: Selection::files(lists)?,
        ..Rescan::default()
    };
    Ok((rescan, last))
}
