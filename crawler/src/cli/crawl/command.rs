//! The crawl command: builds the run's resources, runs the pipeline, records how it ended.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use mcpcensus_store::clickhouse::{read_dead_letters, DEAD_LETTER_FILE};
use mcpcensus_store::{now_ms, RunManifest, RunStatus, RunWriter, Store};

use super::clickhouse_done::clickhouse_done;
use super::open::{find_resumable, new_run, resume_run, Done, NewRun, OpenedRun};
use super::selection::Selection;
use crate::cli::args::CrawlArgs;
use crate::cli::clickhouse::CrawlClickHouse;
use crate::cli::setup::{build_scanner, redacted, warn_if_no_session_room};
use crate::config::{Config, LogFormat};
use crate::input::{Exclusions, LineReader, Planner, Source};
use crate::run::TeeSink;
use crate::run::{self, CrawlJob, Ending, ProgressMode, RecordSink, Scanner, Shutdown, Summary};

/// Exit code when `--max-duration` stopped the run before the input was done.
pub const EXIT_INCOMPLETE: u8 = 3;
/// Exit code when the run failed: records could not be written, or this machine kept running
/// out of resources. The manifest says why; `--resume` continues once it is fixed.
pub const EXIT_FAILED: u8 = 4;
/// Exit code after Ctrl-C (128 + SIGINT, as shells report it); SIGTERM gives 143 and SIGHUP
/// 129, the same way.
pub const EXIT_INTERRUPTED: u8 = 130;

/// The manifest count of records ClickHouse rejected for their content (set when some were).
pub const DEAD_LETTERS_COUNT: &str = "clickhouse_dead_letters";

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
    let scanner: Option<Arc<dyn Scanner>> = if args.dry_run {
        None
    } else {
        Some(Arc::new(build_scanner(&config, exclusions.clone())?))
    };
    let store = Store::open(&config.crawl.out)
        .with_context(|| format!("opening the store at {}", config.crawl.out.display()))?;
    let tee = args.out.is_some();
    let selection =
        Selection::of(&sources, &config)?.with_sinks(config.clickhouse.url.is_some(), tee);
    // Connected before the run is opened: a resume asks it which sites are done.
    let clickhouse = match &config.clickhouse.url {
        Some(url) => Some(CrawlClickHouse::connect(&config, url).await?),
        None => None,
    };
    let opened = match &args.resume {
        Some(wanted) => {
            let manifest = find_resumable(&store, wanted, args.dry_run, &selection)?;
            let by = match &clickhouse {
                None => Done::Store,
                Some(ch) => {
                    let (done, counts) =
                        clickhouse_done(ch, &store, &manifest.run_id, &selection).await?;
                    if tee {
                        Done::Both(done)
                    } else {
                        Done::ClickHouse(done, counts)
                    }
                }
            };
            resume_run(&store, manifest, &selection, by)?
        }
        None => new_run(
            &store,
            NewRun {
                run_id: args.run_id.as_deref(),
                argv,
                config: serde_json::to_value(redacted(&config))?,
                dry_run: args.dry_run,
                selection: &selection,
                provenance: crate::input::provenance(&sources)
                    .context("checksumming the inputs")?,
            },
        )?,
    };
    let OpenedRun {
        mut manifest,
        writer,
        resume,
    } = opened;
    let run_id = manifest.run_id.clone();
    let (clickhouse, sink, lock_holder) =
        build_sink(&config, &store, &manifest, writer, clickhouse, tee).await?;
    let job = CrawlJob {
        run_id: run_id.clone(),
        total_bytes: LineReader::total_bytes(&sources),
        reader: LineReader::new(sources),
        planner: Planner::new(config.input.shard, exclusions),
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
    record_end(&store, &mut manifest, &summary, dead_letters)?;
    if let Some(writer) = lock_holder {
        writer.finish()?;
    }
    if let Some(ch) = &clickhouse {
        let status = format!("{:?}", manifest.status).to_lowercase();
        ch.finish_run(&run_id, &status, summary.written.records)
            .await;
    }
    if let Some(path) = &args.stats_json {
        write_stats_json(path, &summary)?;
    }
    if !config.output.quiet || summary.ending == Ending::Failed {
        match config.output.log_format {
            LogFormat::Json => eprintln!("{}", summary_line(&summary, dead_letters)),
            LogFormat::Text => eprint!("{summary}"),
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
/// run lives; it is returned for the caller to finish.
async fn build_sink(
    config: &Config,
    store: &Store,
    manifest: &RunManifest,
    writer: RunWriter,
    clickhouse: Option<CrawlClickHouse>,
    tee: bool,
) -> anyhow::Result<(
    Option<CrawlClickHouse>,
    Box<dyn RecordSink>,
    Option<RunWriter>,
)> {
    let run_id = &manifest.run_id;
    let Some(mut ch) = clickhouse else {
        return Ok((None, Box::new(writer), None));
    };
    ch.begin(run_id, manifest.started_at).await?;
    ch.drain_leftover_spools(store, run_id).await?;
    let dead_letter = dead_letter_path(store, run_id)?;
    let ch_sink = Box::new(ch.sink(config, run_id, dead_letter).await?);
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
fn write_stats_json(path: &std::path::Path, summary: &Summary) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(&summary.to_json())? + "\n";
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// The summary as the last JSON line on stderr.
fn summary_line(summary: &Summary, dead_letters: u64) -> String {
    let mut line = serde_json::json!({
        "timestamp": humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string(),
        "level": if summary.ending == Ending::Failed { "ERROR" } else { "INFO" },
        "target": "summary",
    });
    line["summary"] = summary.to_json();
    if dead_letters > 0 {
        line["clickhouse_dead_letters"] = dead_letters.into();
    }
    line.to_string()
}

/// The final manifest: status, failure and counts (over the whole run when resumed).
fn record_end(
    store: &Store,
    manifest: &mut RunManifest,
    summary: &Summary,
    dead_letters: u64,
) -> anyhow::Result<()> {
    manifest.counts = summary.manifest_counts();
    if dead_letters > 0 {
        manifest
            .counts
            .insert(DEAD_LETTERS_COUNT.to_owned(), dead_letters);
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
