//! What each subcommand does: builds the resources it needs and calls the library.

use std::io::Write;
use std::process::ExitCode;

use anyhow::bail;

use super::args::*;
use super::setup::open_store;
use crate::run::Shutdown;

pub async fn execute(cli: Cli, argv: Vec<String>, shutdown: Shutdown) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Crawl(args) => super::crawl::crawl(args, argv, shutdown).await,
        Command::Export(args) => super::export::execute(args),
        Command::Runs(args) => runs(args),
        Command::Check(args) => super::check::execute(args).await,
        Command::Report(args) => super::report::report(args).await,
        Command::Load(args) => super::clickhouse::load(args).await,
        Command::Schema(SchemaArgs { action }) => schema(action).await,
        Command::Grade(args) => super::grade::execute(&args),
    }
}

async fn schema(action: SchemaAction) -> anyhow::Result<ExitCode> {
    use super::clickhouse::{schema_init, schema_init_cluster, schema_print};
    match action {
        SchemaAction::Init {
            clickhouse,
            database,
            cluster: None,
            ..
        } => schema_init(&clickhouse, database.as_deref()).await,
        SchemaAction::Init {
            clickhouse,
            database,
            cluster: Some(cluster),
            nodes,
        } => schema_init_cluster(&clickhouse, database.as_deref(), &cluster, &nodes).await,
        SchemaAction::Print {
            database,
            cluster,
            per_node,
        } => schema_print(database.as_deref(), cluster.as_deref(), per_node),
    }
}

fn runs(args: RunsArgs) -> anyhow::Result<ExitCode> {
    let store = open_store(args.from.as_deref())?;
    let mut out = std::io::stdout().lock();
    for m in store.runs()? {
        let records = m.counts.as_ref().map_or(0, |c| c.records_written);
        writeln!(
            out,
            "{}  {:<11}  {}{} records",
            m.run_id,
            m.status.as_str(),
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
