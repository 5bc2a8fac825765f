//! The command line: arguments and the commands they run.

mod args;
pub mod check;
mod clickhouse;
mod commands;
#[cfg(test)]
mod deploy_tests;
mod explain;
mod export;
mod grade;
mod report;
#[cfg(test)]
mod tests;

pub use args::*;
pub use commands::{execute, execute_argv, EXIT_INCOMPLETE, EXIT_INTERRUPTED};
