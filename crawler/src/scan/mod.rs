//! The per-site scan: the state machine from a target to its record, under one deadline.

mod log;
mod reasons;
mod scanner;
mod site;

pub use scanner::{ScanSettings, SiteScanner};
pub use site::{ACCEPT_LANGUAGE, DISCOVERY_ACCEPT};
