//! The command line: arguments and the commands they run.

mod args;
mod commands;

pub use args::*;
pub use commands::{execute, execute_argv, EXIT_INCOMPLETE, EXIT_INTERRUPTED};
