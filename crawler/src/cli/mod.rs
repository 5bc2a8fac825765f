//! The command line: arguments and the commands they run.

mod args;
mod args_config;
#[cfg(test)]
mod args_tests;
pub mod check;
mod clickhouse;
mod commands;
#[cfg(test)]
mod config_file_tests;
mod crawl;
#[cfg(test)]
mod deploy_tests;
mod explain;
mod export;
mod grade;
mod json_line;
mod manual;
#[cfg(test)]
mod manual_tests;
pub mod metrics;
#[cfg(test)]
mod newcomer_tests;
pub mod process;
mod report;
#[cfg(test)]
mod report_tests;
mod runs;
#[cfg(test)]
mod runs_tests;
mod setup;
mod signals;
#[cfg(test)]
mod test_files;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod toolchain_tests;

pub use args::*;
pub use commands::{execute, execute_argv, execute_argv_with_sink};
pub use crawl::{SinkLayer, EXIT_FAILED, EXIT_INCOMPLETE, EXIT_INTERRUPTED};
