//! The `mcpcensus` binary: parses arguments, sets up logging, runs the command.

use std::process::ExitCode;

use clap::Parser;
use mcpcensus::cli::Cli;

/// A crawl allocates and frees many small buffers per site on every worker thread; mimalloc's
/// thread-local free lists cost less CPU per site than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(&cli);
    let argv: Vec<String> = std::env::args().collect();
    mcpcensus::cli::process::run(cli, argv)
}

fn init_logging(cli: &Cli) {
    use mcpcensus::cli::Command;
    use mcpcensus::config::LogFormat;
    let (quiet, format) = match &cli.command {
        Command::Crawl(a) => (a.scan.quiet, a.scan.log_format),
        Command::Check(a) => (a.scan.quiet, a.scan.log_format),
        _ => (false, None),
    };
    let default = if quiet { "warn" } else { "info" };
    let filter = tracing_subscriber::EnvFilter::try_from_env("MCPCENSUS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    match format {
        Some(LogFormat::Json) => builder.json().init(),
        _ => builder.init(),
    }
}
