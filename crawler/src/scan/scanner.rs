//! The per-site scan's one entry point ([`SiteScanner::scan_site`]): the phases
//! (`phases.rs`) under the site deadline, then the record assembled from what they found
//! (`assemble.rs`). Every failure ends as an outcome in the record, never as an error.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use tokio::time::Instant;
use url::Url;

use super::assemble::assemble;
use super::job::{ScanFuture, Scanned, Scanner, Seat, SiteJob};
use super::phases::{Context, Phases};
use super::settings::{ScanOptions, ScanSettings};
use super::site::SiteScan;
use crate::config::Robots;
use crate::input::Exclusions;
use crate::net::{Net, ServerDeadline};
use crate::verdict::Verdict;

#[derive(Debug, Clone)]
pub struct SiteScanner {
    net: Net,
    settings: ScanSettings,
    exclusions: Arc<Exclusions>,
    /// Set once the crawl warned that it reaches public addresses without a contact.
    warned_contact: Arc<AtomicBool>,
}

impl SiteScanner {
    pub fn new(net: Net, settings: ScanSettings, exclusions: Arc<Exclusions>) -> SiteScanner {
        SiteScanner {
            net,
            settings,
            exclusions,
            warned_contact: Arc::default(),
        }
    }

    /// The settings the scans use.
    pub fn settings(&self) -> &ScanSettings {
        &self.settings
    }

    pub fn exclusions(&self) -> &Exclusions {
        &self.exclusions
    }

    pub(super) fn shared_exclusions(&self) -> Arc<Exclusions> {
        self.exclusions.clone()
    }

    /// The network the scans use (for lookups made on a scan's behalf, such as a registry's).
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// Scans one site (or, with `opts.endpoint`, one endpoint given rather than discovered)
    /// and returns its record: the one way into a scan.
    pub async fn scan_site(&self, job: &SiteJob, run_id: &str, opts: ScanOptions) -> Scanned {
        let started = Instant::now();
        // The deadline measures the server: our own waits (DNS slots, politeness, the site's
        // turn on a shared address) move it later.
        let deadline = opts
            .deadline
            .clone()
            .unwrap_or_else(|| ServerDeadline::after(self.settings.site_deadline, Arc::default()));
        let record = job.record(run_id, Verdict::pending());
        let origin = match Url::parse(&job.target.origin) {
            Ok(u) => u,
            Err(e) => {
                let mut r = record;
                let reason = format!("origin does not parse: {e}");
                Verdict::invalid_input(reason).write_to(&mut r);
                return r.into();
            }
        };
        let client = self.net.site_client_counting(deadline.waits().clone());
        let mut site = SiteScan::new(record, client, deadline.clone(), origin);
        if opts.transcript {
            site.keep_transcript();
        }
        if self.settings.robots != Robots::Respect {
            site.ignore_robots();
        }
        if self.settings.readiness {
            site.keep_robots_body();
        }
        let stop = site.stop_token();
        let mut phases = Phases::default();
        // Boxed: moved into the deadline's future, an unboxed one would be stored twice in
        // this one, and every site in flight holds this one.
        let ctx = Context {
            net: &self.net,
            settings: &self.settings,
            exclusions: &self.exclusions,
            warned_contact: &self.warned_contact,
        };
        let work = Box::pin(ctx.phases(&mut site, &opts, &mut phases));
        let ended = tokio::select! {
            biased;
            // A pause longer than the time left: the verdict is set in `assemble`.
            () = stop.cancelled() => None,
            done = deadline.run(work) => done,
        };
        if ended.is_none() {
            ctx.named_so_far(&mut phases);
        }
        assemble(
            site.into_logs(),
            phases,
            ended,
            self.settings.site_deadline,
            self.settings.tools_cap.get(),
            started.elapsed(),
        )
    }
}

impl Scanner for SiteScanner {
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        seat: Arc<dyn Seat>,
    ) -> ScanFuture<'a> {
        let opts = ScanOptions {
            seat: Some(seat),
            ..ScanOptions::default()
        };
        Box::pin(self.scan_site(job, run_id, opts))
    }

    fn dns_stalls(&self) -> u64 {
        self.net.resolver().stalls()
    }
}
