//! The `mcpcensus` binary: parses arguments, sets up logging and signals, runs the command.

use std::process::ExitCode;

use clap::Parser;
use mcpcensus::cli::{execute, Cli};
use mcpcensus::run::Shutdown;

/// A crawl allocates and frees many small buffers per site on every worker thread; mimalloc's
/// thread-local free lists cost less CPU per site than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(&cli);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let argv: Vec<String> = std::env::args().collect();
    runtime.block_on(async move {
        let shutdown = Shutdown::default();
        tokio::spawn(watch_signals(shutdown.clone()));
        match execute(cli, argv, shutdown).await {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        }
    })
}

/// First Ctrl-C: stop intake and let in-flight sites finish. Second: cut them now.
async fn watch_signals(shutdown: Shutdown) {
    if tokio::signal::ctrl_c().await.is_err() {
        return;
    }
    eprintln!("\nstopping: finishing sites in flight (Ctrl-C again to cut them)");
    shutdown.stop.cancel();
    if tokio::signal::ctrl_c().await.is_ok() {
        shutdown.cut.cancel();
    }
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
