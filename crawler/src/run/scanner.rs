//! What the pipeline asks of a site scanner (the network scan lands behind this).

use std::future::Future;
use std::pin::Pin;

use mcpcensus_store::Record;

use super::intake::SiteJob;

pub type ScanFuture<'a> = Pin<Box<dyn Future<Output = Record> + Send + 'a>>;

/// Scans one site and always returns its record: every failure is an outcome, never an
/// error, so one bad site cannot stop a run.
pub trait Scanner: Send + Sync + 'static {
    fn scan<'a>(&'a self, job: &'a SiteJob, run_id: &'a str) -> ScanFuture<'a>;
}
