//! The crawl command: builds the run's resources, runs the pipeline, records how it ended.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use mcpcensus_store::{now_ms, RunManifest, RunStatus, RunWriter, Store, StoreError};
use tokio::net::TcpListener;

use super::clickhouse_done::{clickhouse_done, rows_done};
use super::ending::{dead_letter_path, Ended};
use super::open::{find, find_resumable, new_run, resume_run, Done, NewRun, OpenedRun};
use super::plan::CrawlPlan;
use super::rescan::{self, LastScans, Rescan};
use super::selection::Selection;
use crate::cli::args::CrawlArgs;
use crate::cli::clickhouse::{CrawlClickHouse, SPOOL_DIR};
use crate::cli::metrics::{Metrics, MetricsServer, MetricsSink, Sources};
use crate::cli::setup::{build_scanner, redacted, redacted_argv, warn_if_no_session_room};
use crate::config::Config;
use crate::input::{LineReader, Planner, Source};
use crate::net::Net;
use crate::run::{self, Counters, CrawlJob, RecordSink, Scanner, Shutdown};
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
    let plan = CrawlPlan::new(args)?;
    let (args, config) = (&plan.args, &plan.config);
    let (scanner, net) = scanner(&plan)?.unzip();
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
    // Connected before the run is opened: a resume asks it which sites are done.
    let clickhouse = match &config.clickhouse.url {
        Some(url) => Some(CrawlClickHouse::connect(config, url).await?),
        None => None,
    };
    let lists = plan.sources.clone();
    let (opened, sources, rescan) =
        open_run(args, argv, config, &store, lists, clickhouse.as_ref()).await?;
    let OpenedRun {
        manifest,
        writer,
        resume,
        reload,
    } = opened;
    let run_id = manifest.run_id.clone();
    let leftovers = match &clickhouse {
        Some(ch) => ch.drain_leftover_spools(&store, &run_id).await,
        None => Vec::new(),
    };
    let tee = args.out.is_some();
    let (clickhouse, sink, lock_holder) =
        build_sink(config, &store, &manifest, writer, clickhouse, tee, reload).await?;
    let total_bytes = LineReader::total_bytes(&sources);
    let reader = LineReader::new(sources);
    let counters = Arc::new(Counters::for_reader(&reader));
    let (sink, metrics_server) = match metrics_listener {
        Some(listener) => {
            let ch = clickhouse.as_ref();
            let (sink, server) = with_metrics(config, &run_id, listener, sink, &counters, net, ch)?;
            (sink, Some(server))
        }
        None => (sink, None),
    };
    let job = CrawlJob {
        run_id: run_id.clone(),
        total_bytes,
        reader,
        planner: Planner::new(config.input.shard, plan.exclusions.clone())
            .with_columns(config.input.columns()),
        scanner,
        sink: layer(sink),
        concurrency: plan.concurrency,
        max_duration: plan.max_duration,
        grace: plan.grace,
        progress: plan.progress,
        resume,
        admission: run::AdmissionSettings::default(),
        counters: Some(counters),
        second_look: plan.second_look,
    };
    tracing::info!(run_id = %run_id, out = %config.crawl.out.display(), dry_run = args.dry_run, "crawl started");
    let result = run::crawl(job, shutdown.clone()).await;
    let ended = Ended {
        store: &store,
        manifest,
        rescan,
        lock_holder,
        clickhouse,
        leftovers,
        metrics_server,
    };
    ended.finish(&plan, result, &shutdown).await
}

/// The scanner, and the network it owns for the metrics; none in a dry run.
fn scanner(plan: &CrawlPlan) -> anyhow::Result<Option<(Arc<dyn Scanner>, Net)>> {
    if plan.args.dry_run {
        return Ok(None);
    }
    warn_if_no_session_room(&plan.config);
    let sites = build_scanner(&plan.config, plan.exclusions.clone())?;
    let net = sites.net().clone();
    let scanner = CrawlScanner {
        sites,
        registry: plan.args.registry.clone(),
        shared: Arc::default(),
    };
    Ok(Some((Arc::new(scanner), net)))
}

/// The sink wrapped to count into the metrics, and the metrics server.
fn with_metrics(
    config: &Config,
    run_id: &str,
    listener: TcpListener,
    sink: Box<dyn RecordSink>,
    counters: &Arc<Counters>,
    net: Option<Net>,
    clickhouse: Option<&CrawlClickHouse>,
) -> anyhow::Result<(Box<dyn RecordSink>, MetricsServer)> {
    let metrics = Metrics::new(Sources {
        counters: counters.clone(),
        net,
        sink: clickhouse.map(|ch| ch.live.clone()),
        spool_dir: clickhouse.map(|_| config.crawl.out.join(SPOOL_DIR).join(run_id)),
    })?;
    let sink: Box<dyn RecordSink> = Box::new(MetricsSink {
        inner: sink,
        metrics: metrics.clone(),
    });
    Ok((sink, MetricsServer::start(listener, metrics)?))
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
