//! The per-site scan: the state machine from a target to its record, under one deadline.

mod documents;
mod endpoint_card;
mod job;
mod reasons;
mod scanner;
mod site;

pub use documents::{DOCUMENT_TIMEOUT, MCP_GET_TIMEOUT};
pub use endpoint_card::{DEADLINE_MARGIN, ENDPOINT_CARD_MIN_TIME};
pub use job::{ScanFuture, Scanner, SiteJob, Work};
pub use scanner::{ScanSettings, SiteScanner};
