//! Registry names (`check NAME --registry URL`, `registry:NAME` crawl input): the name is
//! looked up in the official MCP registry and its entry's remotes scanned as given (no
//! discovery), streamable HTTP first, then legacy SSE, until one is live (`remote_pick.rs`); a
//! template URL is recorded without a request; in a crawl, each endpoint URL is probed once
//! for every entry naming it (`shared_probe.rs`). An entry with only a repository is a stdio
//! server, recorded as not probeable with no request made to it. A crawl looks the names up
//! again on every run, as the weekly re-probe of registry servers does; its intake makes the
//! lookup (or lists the whole registry for `registry:*`, `registry_source.rs`), so a scan
//! holds its place only for the remote's own scan. `check NAME` looks the name up inside the
//! site deadline its (first remote's) scan then runs under; the crawl's intake waits at most a
//! site deadline of the server's time for each lookup.

use std::sync::Arc;

use mcpcensus_store::{endpoint_key, FailureKind, Record};
use url::Url;

use super::job::{Recorded, ScanFuture, Scanned, Scanner, Seat, SiteJob, Work};
use super::registry_error::lookup_timed_out;
pub use super::registry_error::RegistryScanError;
use super::registry_source::RegistrySource;
use super::remote_pick::{Picked, RemotePick};
use super::scanner::SiteScanner;
use super::settings::ScanOptions;
use super::shared_probe::{copy_for, Shared, SharedProbes};
use crate::input::{Planned, Planner, RawLine, Shard};
use crate::net::{LocalResource, ServerDeadline};
use crate::probe::{self, Remote, Resolved};
use crate::verdict::Verdict;

/// A registry name's scan: the record (or why there is none) and the typed flag of a local
/// resource that ran out in the lookup or the scan.
#[derive(Debug)]
pub struct RegistryScan {
    pub result: Result<Picked, RegistryScanError>,
    pub local: Option<LocalResource>,
}

impl SiteScanner {
    /// Looks `job`'s registry name up at `registry` and scans the entry's remotes
    /// (`keep`: with the transcript). The opt-out list applies to the remote's origin.
    pub async fn scan_registry(
        &self,
        job: &SiteJob,
        name: &str,
        registry: &str,
        run_id: &str,
        keep: bool,
    ) -> RegistryScan {
        // One site deadline for the lookup and the scan after it: the lookup's time is the
        // check's, not a second deadline's.
        let budget = self.settings().site_deadline;
        let deadline = ServerDeadline::after(budget, Arc::default());
        let client = self.net().site_client_counting(deadline.waits().clone());
        let resolved = deadline
            .run(probe::resolve(&client, registry, name))
            .await
            .unwrap_or_else(|| Err(lookup_timed_out(registry, budget)));
        let mut local = None;
        let result = match resolved {
            Ok(resolved) => {
                let opts = ScanOptions {
                    transcript: keep,
                    deadline: Some(deadline),
                    ..ScanOptions::default()
                };
                self.scan_resolved(job, name, resolved, run_id, opts, &mut local)
                    .await
            }
            Err(e) => Err(e.into()),
        };
        RegistryScan {
            result,
            local: client.local_failure().or(local),
        }
    }

    /// Scans a name's entry as resolved: a stdio record, or its remotes as given, each in
    /// turn until one is live (`remote_pick.rs`); the record is the remote's that decided.
    async fn scan_resolved(
        &self,
        job: &SiteJob,
        name: &str,
        resolved: Resolved,
        run_id: &str,
        mut opts: ScanOptions,
        local: &mut Option<LocalResource>,
    ) -> Result<Picked, RegistryScanError> {
        // A deadline the lookup ran inside is the first remote's scan's: each later remote is
        // a site of its own, with its own deadline, as in a crawl.
        let mut lookup_deadline = opts.deadline.take();
        let remotes = match resolved {
            Resolved::Stdio(repository) => {
                let mut r = probe::stdio_record(run_id, name, &repository);
                r.input.clone_from(&job.input);
                r.input_line = job.input_line;
                return Ok(Picked::alone(r));
            }
            Resolved::Remotes(remotes) => remotes,
        };
        let mut pick = RemotePick::new(remotes.len());
        for (i, remote) in remotes.iter().enumerate() {
            let scanned = match remote.to_url() {
                None if remote.is_template() => {
                    Ok(Picked::alone(template_record(job, run_id, remote)))
                }
                None => Err(RegistryScanError::NotUsable(remote.url.clone())),
                Some(url) => {
                    let opts = ScanOptions {
                        deadline: lookup_deadline.take(),
                        ..opts.clone()
                    };
                    Box::pin(self.scan_remote(job, url, run_id, opts, local)).await
                }
            };
            if pick.offer(i, remote, scanned) {
                break;
            }
        }
        pick.finish()
    }

    /// Scans one remote URL as given (no discovery).
    async fn scan_remote(
        &self,
        job: &SiteJob,
        endpoint: Url,
        run_id: &str,
        opts: ScanOptions,
        local: &mut Option<LocalResource>,
    ) -> Result<Picked, RegistryScanError> {
        if let Err(rule) = probe::server_urls::registry_remote_rule(&endpoint) {
            return Err(RegistryScanError::Refused(endpoint.to_string(), rule));
        }
        let mut planner = Planner::new(Shard::ALL, self.shared_exclusions());
        let planned = planner.plan(RawLine::Text(&endpoint.origin().ascii_serialization()));
        if matches!(
            planned,
            Planned::Skip | Planned::Invalid { .. } | Planned::Registry { .. }
        ) {
            return Err(RegistryScanError::NotUsable(endpoint.to_string()));
        }
        match Work::from_planned(planned, &job.input, job.input_line, run_id) {
            None => Err(RegistryScanError::NotUsable(endpoint.to_string())),
            Some(Work::Done(record)) => Ok(Picked::alone(*record)),
            Some(Work::Scan(site)) => match opts.shared.clone() {
                None => self.scan_given(&site, endpoint, run_id, opts, local).await,
                Some(shared) => {
                    let key =
                        endpoint_key(endpoint.as_str()).unwrap_or_else(|| endpoint.to_string());
                    let cell = shared.cell(key, job.second_look);
                    let mut mine = None;
                    let slot = &mut mine;
                    let site = &site;
                    let probed = cell
                        .get_or_try_init(move || async move {
                            let p = self.scan_given(site, endpoint, run_id, opts, local).await;
                            // A held scan requested nothing: not the URL's probe.
                            let shared = p.as_ref().ok().map(|p| Shared {
                                record: p.record.clone(),
                                transient: p.transient,
                            });
                            *slot = Some(p);
                            shared.ok_or(())
                        })
                        .await;
                    match (mine, probed) {
                        (Some(p), _) => p,
                        (None, Ok(s)) => Ok(Picked {
                            record: copy_for(s, &job.input, job.input_line),
                            transcript: Vec::new(),
                            transient: s.transient,
                        }),
                        // Only the scan that held fails the cell, and it is `mine`.
                        (None, Err(())) => unreachable!("a failed cell is the caller's own"),
                    }
                }
            },
        }
    }

    /// Scans one usable remote URL: the survey's session and, when asked or needed, the
    /// probers' reading.
    async fn scan_given(
        &self,
        site: &SiteJob,
        endpoint: Url,
        run_id: &str,
        opts: ScanOptions,
        local: &mut Option<LocalResource>,
    ) -> Result<Picked, RegistryScanError> {
        let opts = ScanOptions {
            endpoint: Some(endpoint),
            ..opts
        };
        let scanned = match self.scan_site(site, run_id, opts).await {
            Scanned::Recorded(scanned) => scanned,
            Scanned::Held(ip) => return Err(RegistryScanError::Held(ip)),
        };
        *local = scanned.local;
        Ok(Picked {
            record: scanned.record,
            transcript: scanned.transcript,
            transient: scanned.transient,
        })
    }
}

/// The record of a remote whose URL is a template: nothing requested.
fn template_record(job: &SiteJob, run_id: &str, remote: &Remote) -> Record {
    let reason = format!(
        "the registry entry's remote {} holds unexpanded {{...}} placeholders: a template, \
         not requested",
        remote.url
    );
    let mut r = job.record(run_id, Verdict::not_measured(FailureKind::Template, reason));
    r.endpoint = Some(remote.url.clone());
    r
}

/// The crawl's scanner: sites as [`SiteScanner`] scans them, registry names looked up at
/// `registry` (without one, a registry name is recorded as invalid input).
pub struct CrawlScanner {
    pub sites: SiteScanner,
    pub registry: Option<String>,
    /// One probe per endpoint URL for the whole crawl.
    pub shared: Arc<SharedProbes>,
}

impl CrawlScanner {
    async fn scan_job(&self, job: &SiteJob, run_id: &str, seat: Arc<dyn Seat>) -> Scanned {
        let Some(name) = &job.registry else {
            let opts = ScanOptions {
                seat: Some(seat),
                ..ScanOptions::default()
            };
            return self.sites.scan_site(job, run_id, opts).await;
        };
        let Some(resolved) = job.listed.as_deref().cloned() else {
            let reason = "a registry name: crawl with --registry URL to look it up";
            return job.record(run_id, Verdict::invalid_input(reason)).into();
        };
        let mut local = None;
        let opts = ScanOptions {
            seat: Some(seat),
            shared: Some(self.shared.clone()),
            ..ScanOptions::default()
        };
        // Boxed: a registry job's scan is larger than a site's, and inline every site's job
        // future (each site in flight holds one) would be that size.
        let result = Box::pin(
            self.sites
                .scan_resolved(job, name, resolved, run_id, opts, &mut local),
        )
        .await;
        match result {
            Ok(picked) => Scanned::Recorded(Recorded {
                record: picked.record,
                local,
                transcript: Vec::new(),
                // A remote's failure that may pass gets its second look, as a site's does.
                transient: picked.transient,
            }),
            Err(RegistryScanError::Held(ip)) => Scanned::Held(ip),
            // The registry's own failure: its lookup is not the listed server's verdict.
            Err(e) => Scanned::Recorded(Recorded {
                record: job.record(
                    run_id,
                    Verdict::not_measured(e.failure_kind(), format!("registry lookup failed: {e}")),
                ),
                local,
                transcript: Vec::new(),
                transient: false,
            }),
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

    fn registry_source(&self) -> Option<RegistrySource> {
        let registry = self.registry.as_deref()?;
        let deadline = self.sites.settings().site_deadline;
        Some(RegistrySource::new(self.sites.net(), registry, deadline))
    }
}
