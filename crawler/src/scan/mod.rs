//! The per-site scan: the state machine from a target to its record, under one deadline.

mod discover;
mod endpoint_card;
mod log;
mod reasons;
mod scanner;
mod site;

pub use discover::{Discovery, FetchedCard, FetchedCatalog, DOCUMENT_TIMEOUT, MCP_GET_TIMEOUT};
pub use endpoint_card::{DEADLINE_MARGIN, ENDPOINT_CARD_MIN_TIME};
pub use scanner::{ScanSettings, SiteScanner};
