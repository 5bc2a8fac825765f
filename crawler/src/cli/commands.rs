//! What each subcommand does: builds the resources it needs and calls the library.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use mcpcensus_store::Store;

use super::args::*;
use crate::config::{defaults, Config};
use crate::input::Exclusions;
use crate::net::Net;
use crate::run::Shutdown;
use crate::scan::{ScanSettings, SiteScanner};

pub async fn execute(cli: Cli, argv: Vec<String>, shutdown: Shutdown) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Crawl(args) => super::crawl::crawl(args, argv, shutdown).await,
        Command::Export(args) => super::export::execute(args),
        Command::Runs(args) => runs(args),
        Command::Check(args) => super::check::execute(args).await,
        Command::Report(args) => super::report::report(args).await,
        Command::Load(args) => super::clickhouse::load(args).await,
        Command::Schema(SchemaArgs {
            action:
                SchemaAction::Init {
                    clickhouse,
                    database,
                    cluster,
                    nodes,
                },
        }) => match cluster {
            None => super::clickhouse::schema_init(&clickhouse, database.as_deref()).await,
            Some(cluster) => {
                let db = database.as_deref();
                super::clickhouse::schema_init_cluster(&clickhouse, db, &cluster, &nodes).await
            }
        },
        Command::Grade(args) => super::grade::execute(&args),
    }
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
pub(super) fn redacted(config: &Config) -> Config {
    let mut c = config.clone();
    if c.clickhouse.password_file.is_some() {
        c.clickhouse.password_file = Some("<redacted>".into());
    }
    c
}

pub(super) fn open_store(from: Option<&std::path::Path>) -> anyhow::Result<Store> {
    let dir = from.unwrap_or(std::path::Path::new(defaults::OUT_DIR));
    if !dir.is_dir() {
        bail!("no store at {} (use --from DIR)", dir.display());
    }
    Store::open(dir).with_context(|| format!("opening the store at {}", dir.display()))
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

/// `crawl ARGS...` with its sink wrapped by `layer` (tests inject faults this way).
pub async fn execute_argv_with_sink(
    argv: Vec<String>,
    shutdown: Shutdown,
    layer: super::crawl::SinkLayer,
) -> anyhow::Result<ExitCode> {
    use clap::Parser;
    let cli = Cli::try_parse_from(&argv)?;
    match cli.command {
        Command::Crawl(args) => super::crawl::crawl_with(args, argv, shutdown, layer).await,
        _ => bail!("only `crawl` takes a sink layer"),
    }
}
