//! The `mcpcensus` binary: parses arguments, sets up logging, runs the command.

use std::process::ExitCode;

use clap::Parser;
use mcpcensus::cli::Cli;

/// A crawl allocates and frees many small buffers per site on every worker thread; mimalloc's
/// thread-local free lists cost less CPU per site than the system allocator. The
/// `system-allocator` feature leaves it out, so that heap profilers (massif, heaptrack) see
/// every allocation.
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    mcpcensus::cli::process::init_logging(&cli);
    let argv: Vec<String> = std::env::args().collect();
    mcpcensus::cli::process::run(cli, argv)
}
