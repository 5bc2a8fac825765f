//! What each subcommand does: builds the resources it needs and calls the library.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use mcpcensus_store::{new_run_id, now_ms, RunManifest, RunStatus, Store};

use super::args::*;
use crate::config::{defaults, Config};
use crate::input::{Exclusions, LineReader, Planner, Source};
use crate::net::Net;
use crate::run::{self, CrawlJob, Ending, ProgressMode, RecordSink, Scanner, Shutdown, TeeSink};
use crate::scan::{ScanSettings, SiteScanner};

/// Exit code when `--max-duration` stopped the run before the input was done.
pub const EXIT_INCOMPLETE: u8 = 3;
/// Exit code after Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

pub async fn execute(cli: Cli, argv: Vec<String>, shutdown: Shutdown) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Crawl(args) => crawl(args, argv, shutdown).await,
        Command::Export(args) => export(args),
        Command::Runs(args) => runs(args),
        Command::Check(args) => super::check::execute(args).await,
        Command::Report(args) => report(args).await,
        Command::Load(args) => super::clickhouse::load(args).await,
        Command::Schema(SchemaArgs {
            action:
                SchemaAction::Init {
                    clickhouse,
                    database,
                },
        }) => super::clickhouse::schema_init(&clickhouse, database.as_deref()).await,
        Command::Grade(args) => super::grade::execute(&args),
    }
}

fn not_yet(what: &str, lands_with: &str) -> anyhow::Result<ExitCode> {
    bail!("`{what}` is not available in this build yet: it lands with {lands_with}")
}

async fn crawl(args: CrawlArgs, argv: Vec<String>, shutdown: Shutdown) -> anyhow::Result<ExitCode> {
    let config = args.load_config()?;
    if args.resume.is_some() {
        return not_yet("--resume", "the reliability work");
    }
    let sources: Vec<Source> = args.inputs.iter().map(|a| Source::parse(a)).collect();
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
    let run_id = new_run_id();
    let mut manifest = RunManifest::new(
        run_id.clone(),
        now_ms(),
        argv,
        serde_json::to_value(redacted(&config))?,
        args.dry_run,
    );
    // With --clickhouse, records stream there; the run's manifest stays in the embedded store,
    // and with an explicit --out its records too. The server is checked before the run starts.
    let clickhouse = match &config.clickhouse.url {
        Some(url) => Some(
            super::clickhouse::CrawlClickHouse::start(&config, url, &run_id, manifest.started_at)
                .await?,
        ),
        None => None,
    };
    let writer = store.create_run(&manifest)?;
    let sink: Box<dyn RecordSink> = match &clickhouse {
        None => Box::new(writer),
        Some(ch) => {
            let ch_sink = Box::new(ch.sink(&config, &run_id).await?);
            if args.out.is_some() {
                Box::new(TeeSink {
                    first: Box::new(writer),
                    second: ch_sink,
                })
            } else {
                writer.finish()?;
                ch_sink
            }
        }
    };
    let total_bytes = LineReader::total_bytes(&sources);
    let job = CrawlJob {
        run_id: run_id.clone(),
        reader: LineReader::new(sources),
        planner: Planner::new(config.input.shard, exclusions),
        total_bytes,
        scanner,
        sink,
        concurrency: config.crawl.concurrency.get(),
        max_duration: config.max_duration()?,
        grace: Duration::from_secs(config.crawl.shutdown_grace_secs),
        progress: ProgressMode::choose(
            config.output.quiet,
            Duration::from_secs(config.output.progress_interval_secs),
        ),
    };
    tracing::info!(run_id = %run_id, out = %config.crawl.out.display(), dry_run = args.dry_run, "crawl started");
    let result = run::crawl(job, shutdown).await;
    manifest.ended_at = Some(now_ms());
    let summary = match result {
        Ok(summary) => summary,
        Err(e) => {
            manifest.status = RunStatus::Interrupted;
            store.write_manifest(&manifest)?;
            return Err(e.into());
        }
    };
    manifest.counts = summary.manifest_counts();
    manifest.status = match summary.ending {
        Ending::Complete => RunStatus::Complete,
        Ending::Interrupted | Ending::MaxDuration => RunStatus::Interrupted,
    };
    store.write_manifest(&manifest)?;
    if let Some(ch) = &clickhouse {
        let status = format!("{:?}", manifest.status).to_lowercase();
        ch.finish_run(&run_id, &status, summary.written.records)
            .await;
    }
    if !config.output.quiet {
        eprint!("{summary}");
    }
    Ok(match summary.ending {
        Ending::Complete => ExitCode::SUCCESS,
        Ending::MaxDuration => ExitCode::from(EXIT_INCOMPLETE),
        Ending::Interrupted => ExitCode::from(EXIT_INTERRUPTED),
    })
}

/// Says so when the site deadline cannot hold the session's 12 s.
pub(super) fn warn_if_no_session_room(config: &Config) {
    if config.crawl.site_deadline_secs <= crate::session::SESSION_BUDGET.as_secs() {
        tracing::warn!(
            site_deadline_secs = config.crawl.site_deadline_secs,
            "the site deadline leaves no room for the 12 s MCP session: endpoints found will be \
             recorded as not measured"
        );
    }
}

/// The network and the scanner, from the configuration.
pub fn build_scanner(config: &Config, exclusions: Arc<Exclusions>) -> anyhow::Result<SiteScanner> {
    let net = Net::with_opt_out(config.net_options()?, exclusions.clone())
        .context("setting up the network")?;
    let settings = ScanSettings {
        site_deadline: Duration::from_secs(config.crawl.site_deadline_secs),
        document_cap: config.crawl.document_cap_bytes.get(),
        tools_cap: config.crawl.tools_cap,
        probe: config.crawl.probe,
        robots: config.net.robots,
    };
    Ok(SiteScanner::new(net, settings, exclusions))
}

/// The config as recorded in the manifest: never a secret.
fn redacted(config: &Config) -> Config {
    let mut c = config.clone();
    if c.clickhouse.password_file.is_some() {
        c.clickhouse.password_file = Some("<redacted>".into());
    }
    c
}

fn open_store(from: Option<&std::path::Path>) -> anyhow::Result<Store> {
    let dir = from.unwrap_or(std::path::Path::new(defaults::OUT_DIR));
    if !dir.is_dir() {
        bail!("no store at {} (use --from DIR)", dir.display());
    }
    Store::open(dir).with_context(|| format!("opening the store at {}", dir.display()))
}

fn export(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let store = open_store(args.from.as_deref())?;
    let run_id = match args.run {
        Some(id) => id,
        None => {
            store
                .latest_run()?
                .context("the store holds no run")?
                .run_id
        }
    };
    let mut reader = store.read_run(&run_id)?;
    let out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let written = match args.format {
        ExportFormat::Jsonl => mcpcensus_store::write_jsonl(&mut reader, out)?,
    };
    for damage in reader.damage() {
        eprintln!("warning: {damage:?}");
    }
    tracing::info!(run_id = %run_id, records = written, "exported");
    Ok(ExitCode::SUCCESS)
}

fn runs(args: RunsArgs) -> anyhow::Result<ExitCode> {
    let store = open_store(args.from.as_deref())?;
    let mut out = std::io::stdout().lock();
    for m in store.runs()? {
        let records = m.counts.get("records_written").copied().unwrap_or(0);
        writeln!(
            out,
            "{}  {:<11}  {}{} records",
            m.run_id,
            format!("{:?}", m.status).to_lowercase(),
            if m.dry_run { "dry run, " } else { "" },
            records
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Parses `argv` (program name first) and runs it: the binary's path without `main`, for
/// tests that drive the real command line.
pub async fn execute_argv(argv: Vec<String>, shutdown: Shutdown) -> anyhow::Result<ExitCode> {
    use clap::Parser;
    let cli = Cli::try_parse_from(&argv)?;
    execute(cli, argv, shutdown).await
}

async fn report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let settings = mcpcensus_analysis::ReportSettings::default();
    let report = match &args.clickhouse {
        Some(url) => {
            let conn = super::clickhouse::connect_for_report(url, args.database.as_deref()).await?;
            mcpcensus_analysis::build_clickhouse(
                &conn,
                args.run.as_deref(),
                args.compare.as_deref(),
                settings,
            )
            .await?
        }
        None => {
            let store = open_store(args.from.as_deref())?;
            mcpcensus_analysis::build(
                &store,
                args.run.as_deref(),
                args.compare.as_deref(),
                settings,
            )?
        }
    };
    let text = match args.format {
        ReportFormat::Text => mcpcensus_analysis::render::text::render(&report),
        ReportFormat::Json => mcpcensus_analysis::render::json(&report),
        ReportFormat::Html => mcpcensus_analysis::render::html::render(&report),
    };
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}
