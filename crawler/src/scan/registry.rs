//! Registry names (`check NAME --registry URL`, `registry:NAME` crawl input): the name is
//! looked up in the official MCP registry and its entry's first remote scanned as given (no
//! discovery); an entry with only a repository is a stdio server, recorded as not probeable
//! with no request made to it. A crawl looks the names up again on every run, as the weekly
//! re-probe of registry servers does.

use std::sync::Arc;

use mcpcensus_store::{Outcome, Record};
use url::Url;

use super::job::{ScanFuture, Scanner, Seat, SiteJob, Work};
use super::scanner::SiteScanner;
use crate::input::{Planned, Planner, RawLine, Shard};
use crate::net::Exchange;
use crate::probe::{self, RegistryError, Resolved};

/// Why a registry name gave no scan.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryScanError {
    #[error(transparent)]
    Lookup(#[from] RegistryError),
    #[error("the registry entry's remote {0} is not a usable address")]
    NotUsable(Url),
}

impl SiteScanner {
    /// Looks `job`'s registry name up at `registry` and scans the entry's first remote
    /// (`keep`: with the transcript). The opt-out list applies to the remote's origin.
    pub async fn scan_registry(
        &self,
        job: &SiteJob,
        name: &str,
        registry: &str,
        run_id: &str,
        keep: bool,
    ) -> Result<(Record, Vec<Exchange>), RegistryScanError> {
        let client = self.net().site_client();
        let endpoint = match probe::resolve(&client, registry, name).await? {
            Resolved::Stdio(repository) => {
                let mut r = probe::stdio_record(run_id, name, &repository);
                r.input.clone_from(&job.input);
                r.input_line = job.input_line;
                return Ok((r, Vec::new()));
            }
            Resolved::Remote(url) => url,
        };
        let mut planner = Planner::new(Shard::ALL, self.shared_exclusions());
        let planned = planner.plan(RawLine::Text(&endpoint.origin().ascii_serialization()));
        if matches!(
            planned,
            Planned::Skip | Planned::Invalid { .. } | Planned::Registry { .. }
        ) {
            return Err(RegistryScanError::NotUsable(endpoint));
        }
        Ok(
            match Work::from_planned(planned, &job.input, job.input_line, run_id) {
                None => return Err(RegistryScanError::NotUsable(endpoint)),
                Some(Work::Done(record)) => (*record, Vec::new()),
                Some(Work::Scan(site)) => {
                    self.scan_keeping(&site, run_id, keep, Some(&endpoint))
                        .await
                }
            },
        )
    }
}

/// The crawl's scanner: sites as [`SiteScanner`] scans them, registry names looked up at
/// `registry` (without one, a registry name is recorded as invalid input).
pub struct CrawlScanner {
    pub sites: SiteScanner,
    pub registry: Option<String>,
}

impl CrawlScanner {
    async fn scan_job(&self, job: &SiteJob, run_id: &str, seat: Arc<dyn Seat>) -> Record {
        let Some(name) = &job.registry else {
            return self.sites.scan_in_seat(job, run_id, seat).await;
        };
        let Some(registry) = &self.registry else {
            return job.record(
                run_id,
                Outcome::InvalidInput,
                "a registry name: crawl with --registry URL to look it up",
            );
        };
        match self
            .sites
            .scan_registry(job, name, registry, run_id, false)
            .await
        {
            Ok((record, _)) => record,
            Err(e) => job.record(
                run_id,
                Outcome::NotMeasured,
                format!("registry lookup failed: {e}"),
            ),
        }
    }
}

impl Scanner for CrawlScanner {
    // The place is handed on: a site waiting its turn on a shared address gives it up.
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        seat: Arc<dyn Seat>,
    ) -> ScanFuture<'a> {
        Box::pin(self.scan_job(job, run_id, seat))
    }

    fn dns_stalls(&self) -> u64 {
        self.sites.dns_stalls()
    }
}
