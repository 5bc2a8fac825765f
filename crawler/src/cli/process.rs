//! The process around a command: the async runtime, the signal watcher, the exit code. The
//! binary's `main` and tests that run the crawler as a child process both call [`run`].

use std::process::ExitCode;

use super::args::Cli;
use super::commands::execute;
use crate::run::Shutdown;

/// Runs `cli` (parsed from `argv`) to its end.
pub fn run(cli: Cli, argv: Vec<String>) -> ExitCode {
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
    runtime.block_on(async move {
        let shutdown = Shutdown::default();
        tokio::spawn(super::signals::watch(shutdown.clone()));
        match execute(cli, argv, shutdown).await {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::FAILURE
            }
        }
    })
}

/// Parses `argv` (program name first) and runs it, as the binary does; a usage error prints
/// clap's message and gives exit code 2.
pub fn run_argv(argv: Vec<String>) -> ExitCode {
    use clap::Parser;
    match Cli::try_parse_from(&argv) {
        Ok(cli) => run(cli, argv),
        Err(e) => {
            let _ = e.print();
            ExitCode::from(2)
        }
    }
}
