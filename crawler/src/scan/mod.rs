//! The per-site scan: the state machine from a target to its record, under one deadline.

mod answer;
mod documents;
mod endpoint_card;
mod job;
mod locate;
mod reasons;
mod registry;
mod robots;
mod scanner;
mod site;
#[cfg(test)]
mod tests;

pub use answer::DOCUMENT_TIMEOUT;
pub use documents::MCP_GET_TIMEOUT;
pub use endpoint_card::{DEADLINE_MARGIN, ENDPOINT_CARD_MIN_TIME};
pub use job::{ScanFuture, Scanned, Scanner, Seat, SiteJob, Work};
pub use locate::MAX_REDIRECTS;
pub use registry::{CrawlScanner, RegistryScan, RegistryScanError};
pub use robots::{ROBOTS_CAP, ROBOTS_TIMEOUT};
pub use scanner::{ScanSettings, SiteScanner};
