//! The process around a command: logging, the async runtime, the signal watcher, the exit code.
//! The binary's `main` and tests that run the crawler as a child process both call [`run_argv`]
//! or [`init_logging`] and [`run`].

use std::process::ExitCode;

use mcpcensus_store::clickhouse::redact_url;
use mcpcensus_store::inert::terminal_text;

use super::args::{Cli, Command};
use super::commands::execute;
use super::json_line::json_line;
use crate::config::LogFormat;
use crate::run::Shutdown;

/// Runs `cli` (parsed from `argv`) to its end.
pub fn run(cli: Cli, argv: Vec<String>) -> ExitCode {
    without_huge_pages();
    let json = log_format(&cli).1 == Some(LogFormat::Json);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            say_error(json, &format!("cannot start the async runtime: {e}"));
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let shutdown = Shutdown::default();
        tokio::spawn(super::signals::watch(shutdown.clone(), json));
        match execute(cli, argv, shutdown).await {
            Ok(code) => code,
            Err(e) => {
                // A ClickHouse URL in the chain (a server's or a library's text) loses its password.
                say_error(json, &redact_url(&format!("{e:#}")));
                ExitCode::FAILURE
            }
        }
    })
}

/// Transparent huge pages off for this process. As sites come and go the allocator hands
/// freed pages back to the kernel and faults them in again; with huge pages each such fault
/// takes and zeroes 2 MiB, so the crawl held a quarter more memory for the same sites
/// (BENCHMARKS.md). Best effort: a kernel without the setting leaves things as they were.
pub fn without_huge_pages() {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::thread::disable_transparent_huge_pages(true) {
        tracing::debug!("transparent huge pages left as they are: {e}");
    }
}

/// Parses `argv` (program name first), sets up logging and runs it, as the binary does; a
/// usage error prints clap's message and gives exit code 2.
pub fn run_argv(argv: Vec<String>) -> ExitCode {
    use clap::Parser;
    match Cli::try_parse_from(&argv) {
        Ok(cli) => {
            init_logging(&cli);
            run(cli, argv)
        }
        Err(e) => {
            let _ = e.print();
            ExitCode::from(2)
        }
    }
}

/// Log lines on stderr: text or JSON (`--log-format`), info unless quiet, `MCPCENSUS_LOG`
/// overrides the level. A second call (tests running several commands) keeps the first setup.
pub fn init_logging(cli: &Cli) {
    let (quiet, format) = log_format(cli);
    let default = if quiet { "warn" } else { "info" };
    let filter = tracing_subscriber::EnvFilter::try_from_env("MCPCENSUS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let json = format == Some(LogFormat::Json);
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(!json && std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

fn log_format(cli: &Cli) -> (bool, Option<LogFormat>) {
    match &cli.command {
        Command::Crawl(a) => (a.scan.quiet, a.scan.log_format),
        Command::Check(a) => (a.scan.quiet, a.scan.log_format),
        _ => (false, None),
    }
}

/// The error that ends the process, as a text line or, in JSON mode, a JSON line.
fn say_error(json: bool, message: &str) {
    // An error can quote a server (a registry's answer, a record): shown inert.
    let message = &terminal_text(message);
    if json {
        eprintln!("{}", json_line("ERROR", message));
    } else {
        eprintln!("error: {message}");
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::process::ExitCode;

    #[test]
    fn a_command_runs_without_transparent_huge_pages() {
        let argv = ["mcpcensus", "schema", "print"].map(String::from).to_vec();
        assert_eq!(super::run_argv(argv), ExitCode::SUCCESS);
        let disabled = rustix::thread::transparent_huge_pages_are_disabled();
        assert_eq!(disabled.ok(), Some(true));
    }
}
