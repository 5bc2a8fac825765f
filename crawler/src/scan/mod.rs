//! The per-site scan: from a target to its record, under one deadline. Read `scanner.rs` (the
//! one entry point), then `phases.rs` (the phases in order and their one shape: each in a file
//! of its own, `resolve.rs`, `discover.rs`, `session.rs`, `endpoint_card.rs`, `deep_probe.rs`,
//! `readiness/`), then `assemble.rs` (the record, built once from what they found).

mod answer;
mod assemble;
mod deep_probe;
mod discover;
mod documents;
mod endpoint_card;
mod job;
mod locate;
mod pauses;
mod phases;
mod prober;
mod readiness;
mod registry;
mod registry_error;
mod registry_source;
mod remote_pick;
mod resolve;
mod robots;
mod scanner;
mod session;
mod settings;
mod shared_probe;
mod site;
#[cfg(test)]
mod tests;

pub use crate::discovery::{DOCUMENT_TIMEOUT, MCP_GET_TIMEOUT};
pub use endpoint_card::{DEADLINE_MARGIN, ENDPOINT_CARD_MIN_TIME};
pub use job::{Recorded, ScanFuture, Scanned, Scanner, Seat, SiteJob, Work};
pub use locate::MAX_REDIRECTS;
pub use registry::{CrawlScanner, RegistryScan, RegistryScanError};
pub use registry_source::RegistrySource;
pub use robots::{ROBOTS_CAP, ROBOTS_TIMEOUT};
pub use scanner::SiteScanner;
pub use settings::{ScanOptions, ScanSettings};
pub use shared_probe::SharedProbes;
