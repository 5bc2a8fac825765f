//! `mcpcensus crawl`: a new run or a resumed one, its sinks, and how it ends.

mod clickhouse_done;
mod command;
mod ending;
pub mod limits;
mod open;
mod plan;
mod reload;
mod rescan;
mod selection;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_rescan;
#[cfg(test)]
mod tests_resume;

pub use command::{crawl, crawl_with, SinkLayer, EXIT_FAILED, EXIT_INCOMPLETE, EXIT_INTERRUPTED};
