//! The command line: arguments and the commands they run.

mod args;
mod commands;

pub use args::*;
pub use commands::execute;
