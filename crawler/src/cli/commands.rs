//! What each subcommand does: builds the resources it needs and calls the library.

use std::process::ExitCode;

use anyhow::bail;

use super::args::*;
use super::setup::clickhouse_url;
use crate::config::Config;
use crate::run::Shutdown;

pub async fn execute(cli: Cli, argv: Vec<String>, shutdown: Shutdown) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Crawl(args) => super::crawl::crawl(args, argv, shutdown).await,
        Command::Export(args) => super::export::execute(args),
        Command::Runs(args) => super::runs::execute(args),
        Command::Check(args) => super::check::execute(args).await,
        Command::Report(args) => super::report::report(args).await,
        Command::Load(args) => super::clickhouse::load(args).await,
        Command::Schema(SchemaArgs { action, config }) => {
            schema(action, &ConfigFile { config }.load()?).await
        }
        Command::Grade(args) => super::grade::execute(&args),
        Command::Completions(args) => super::manual::completions(args.shell),
        Command::Man => super::manual::man(),
    }
}

async fn schema(action: SchemaAction, config: &Config) -> anyhow::Result<ExitCode> {
    use super::clickhouse::{schema_init, schema_init_cluster, schema_print, set_ca_file};
    let mut settings = config.clickhouse.clone();
    match action {
        SchemaAction::Init {
            clickhouse,
            database,
            cluster: None,
            clickhouse_ca_file,
            ..
        } => {
            set_ca_file(&mut settings, clickhouse_ca_file.as_ref());
            let url = clickhouse_url(clickhouse.as_deref(), config)?;
            schema_init(&url, database.as_deref(), &settings).await
        }
        SchemaAction::Init {
            clickhouse,
            database,
            cluster: Some(cluster),
            nodes,
            clickhouse_ca_file,
        } => {
            set_ca_file(&mut settings, clickhouse_ca_file.as_ref());
            let url = clickhouse_url(clickhouse.as_deref(), config)?;
            schema_init_cluster(&url, database.as_deref(), &cluster, &nodes, &settings).await
        }
        SchemaAction::Print {
            database,
            cluster,
            per_node,
        } => schema_print(
            database.as_deref().or(Some(&settings.database)),
            cluster.as_deref(),
            per_node,
        ),
    }
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
