//! The command line: arguments and the commands they run.

mod args;
#[cfg(test)]
mod args_tests;
pub mod check;
mod clickhouse;
mod commands;
mod crawl;
#[cfg(test)]
mod deploy_tests;
mod explain;
mod export;
mod grade;
mod json_line;
pub mod metrics;
pub mod process;
mod report;
#[cfg(test)]
mod report_tests;
mod setup;
mod signals;
#[cfg(test)]
mod tests;

pub use args::*;
pub use commands::{execute, execute_argv, execute_argv_with_sink};
pub use crawl::{SinkLayer, EXIT_FAILED, EXIT_INCOMPLETE, EXIT_INTERRUPTED};
