//! The per-site scan: resolve and guard, discovery, the capped session; all under the site
//! deadline. Every failure ends as an outcome in the record, never as an error.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mcpcensus_store::{DocumentKind, FailureKind, Outcome, Record};
use tokio::time::Instant;
use url::Url;

use super::documents::fetch_documents;
use super::endpoint_card::{fetch_endpoint_card, DEADLINE_MARGIN};
use super::job::{ScanFuture, Scanned, Scanner, Seat, SiteJob};
use super::reasons;
use super::robots::all_disallowed;
use super::site::SiteScan;
use crate::audit::audit_site;
use crate::config::{Probe, Robots};
use crate::discovery::{self as d, select_endpoint};
use crate::input::Exclusions;
use crate::net::Exchange;
use crate::net::Net;
use crate::probe::run_probe;
use crate::session::{run_session, SessionOptions, REDIRECT_REASON};

/// The deadline used when the site deadline is past what `Instant` holds: thirty years, as
/// tokio's own "never".
const NO_DEADLINE: Duration = Duration::from_secs(30 * 365 * 86_400);

/// What a scan needs besides the network.
#[derive(Debug, Clone)]
pub struct ScanSettings {
    pub site_deadline: Duration,
    pub document_cap: usize,
    pub tools_cap: std::num::NonZeroUsize,
    pub probe: Probe,
    pub robots: Robots,
}

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

    /// Warns once per crawl when it reaches an address outside the allowed ranges (the public
    /// web) without an operator contact in the User-Agent.
    fn warn_without_contact(&self, ip: std::net::IpAddr) {
        let opts = self.net.options();
        if opts.contact.is_some() || opts.allow_nets.iter().any(|n| n.contains(&ip)) {
            return;
        }
        if !self.warned_contact.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                address = %ip,
                "crawling addresses outside --allow-net without an operator contact: set \
                 net.contact (or --contact) so site owners know who to write to"
            );
        }
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

    /// The scan of an endpoint given rather than discovered (a registry entry's remote): no
    /// discovery, the survey's session and, when deep, the probe; with the full transcript.
    pub async fn scan_endpoint_with_transcript(
        &self,
        job: &SiteJob,
        run_id: &str,
        endpoint: &Url,
    ) -> (Record, Vec<Exchange>) {
        let (scanned, transcript) = self.scan_keeping(job, run_id, true, Some(endpoint)).await;
        (scanned.record, transcript)
    }

    /// The crawl's scan, stepping out of its place among the sites scanned at once while it
    /// waits its turn on a shared address.
    pub async fn scan_in_seat(&self, job: &SiteJob, run_id: &str, seat: Arc<dyn Seat>) -> Scanned {
        let how = How {
            keep: false,
            given: None,
            seat: Some(seat),
        };
        self.scan_with(job, run_id, how).await.0
    }

    /// The same scan, also keeping every request and answer in full, in the order sent
    /// (`mcpcensus check --explain`).
    pub async fn scan_with_transcript(
        &self,
        job: &SiteJob,
        run_id: &str,
    ) -> (Record, Vec<Exchange>) {
        let (scanned, transcript) = self.scan_keeping(job, run_id, true, None).await;
        (scanned.record, transcript)
    }

    pub(super) async fn scan_keeping(
        &self,
        job: &SiteJob,
        run_id: &str,
        keep: bool,
        given: Option<&Url>,
    ) -> (Scanned, Vec<Exchange>) {
        let how = How {
            keep,
            given,
            seat: None,
        };
        self.scan_with(job, run_id, how).await
    }

    async fn scan_with(
        &self,
        job: &SiteJob,
        run_id: &str,
        how: How<'_>,
    ) -> (Scanned, Vec<Exchange>) {
        let How { keep, given, seat } = how;
        let started = Instant::now();
        // Checked: a deadline past what `Instant` holds is as good as none, never a panic.
        let deadline = started
            .checked_add(self.settings.site_deadline)
            .unwrap_or(started + NO_DEADLINE);
        let record = job.record(run_id, Outcome::NotMeasured, "");
        let origin = match Url::parse(&job.target.origin) {
            Ok(u) => u,
            Err(e) => {
                let mut r = record;
                let reason = format!("origin does not parse: {e}");
                r.set_verdict(Outcome::InvalidInput, Some(FailureKind::Input), reason);
                return (r.into(), Vec::new());
            }
        };
        let mut site = SiteScan::new(record, self.net.site_client(), deadline, origin);
        if keep {
            site.keep_transcript();
        }
        if self.settings.robots != Robots::Respect {
            site.ignore_robots();
        }
        // The deadline measures the server: our own waits (DNS slots, politeness, the site's
        // turn on a shared address) move it later.
        let waits = site.client.waits().clone();
        let stop = site.stop.clone();
        // Boxed: moved into the deadline's future, an unboxed block would be stored twice
        // in this one, and every site in flight holds this one.
        let work = Box::pin(async {
            let Some(ip) = self.resolve_and_guard(&mut site).await else {
                return;
            };
            let _turn = waits.during(self.turn(ip, seat.as_deref())).await;
            self.steps(&mut site, given).await;
        });
        let finished = tokio::select! {
            biased;
            // A pause longer than the time left: the verdict is set below.
            () = stop.cancelled() => Some(()),
            done = waits.deadline(deadline, work) => done,
        };
        if let Some(reason) = site.ended_early.take() {
            site.set_verdict(Outcome::NotMeasured, Some(FailureKind::Answer), reason);
        } else if finished.is_none() || site.hit_deadline {
            let secs = self.settings.site_deadline.as_secs();
            site.set_verdict(
                Outcome::NotMeasured,
                Some(FailureKind::Deadline),
                format!("the site deadline ({secs} s) passed before the scan finished"),
            );
        }
        site.record.timings.total_ms =
            u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
        let transcript = site.take_transcript();
        let local = site.client.local_failure();
        (
            Scanned {
                record: site.record,
                local,
            },
            transcript,
        )
    }

    /// The site's turn on its address: sites sharing one take turns, so shared hosting is
    /// spread over time rather than burst. While it waits, the site gives up its place among
    /// the sites scanned at once.
    async fn turn(
        &self,
        ip: std::net::IpAddr,
        seat: Option<&dyn Seat>,
    ) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let throttle = self.net.throttle();
        if let Some(now) = throttle.site_permit_now(ip) {
            return Some(now);
        }
        if let Some(seat) = seat {
            seat.leave();
        }
        let permit = throttle.site_permit(ip).await;
        if let Some(seat) = seat {
            seat.back().await;
        }
        permit
    }

    /// Resolves the host and checks its addresses; the address the site's requests go to
    /// first, or `None` with the verdict set.
    async fn resolve_and_guard(&self, site: &mut SiteScan) -> Option<std::net::IpAddr> {
        let resolve_started = Instant::now();
        let host = site.record.host.clone().unwrap_or_default();
        let resolved = self.net.resolver().resolve_for(&host, site.client.waits());
        let addresses = match resolved.await {
            Ok(a) => a,
            Err(e) => {
                site.client.note_resolve_error(&e);
                site.set_verdict(
                    Outcome::Unreachable,
                    Some(e.failure_kind()),
                    reasons::resolve(&e),
                );
                return None;
            }
        };
        site.record.timings.resolve_ms = Some(ms(resolve_started.elapsed()));
        site.record.addresses = addresses.iter().map(|a| a.to_string()).collect();
        let refusals: Vec<_> = addresses
            .iter()
            .filter_map(|ip| self.net.guard().check(*ip).err().map(|r| (*ip, r)))
            .collect();
        if let Some(ip) = addresses
            .iter()
            .find(|ip| self.net.guard().check(**ip).is_ok())
        {
            self.warn_without_contact(*ip);
            return Some(*ip);
        }
        if let Some((ip, refusal)) = refusals.first() {
            // Every address refused, one of them opted out: the site is excluded, not unmeasured.
            let opted_out = refusals
                .iter()
                .find(|(_, r)| r.range == crate::net::BlockedRange::OptedOut);
            match opted_out {
                Some((ip, refusal)) => site.set_verdict(
                    Outcome::Excluded,
                    Some(FailureKind::OptedOut),
                    format!("excluded: {ip} is {refusal}, named by the IP-range opt-outs (--exclude-net); no connection made"),
                ),
                None => site.set_verdict(
                    Outcome::NotMeasured,
                    Some(FailureKind::Guard),
                    format!("refused by the address guard: {ip} is {refusal}"),
                ),
            }
        }
        None
    }

    async fn steps(&self, site: &mut SiteScan, given: Option<&Url>) {
        if let Some(endpoint) = given {
            site.record.endpoint = Some(endpoint.to_string());
            if endpoint.scheme() != "https" {
                site.set_verdict(
                    Outcome::NotMeasured,
                    Some(FailureKind::InvalidUrl),
                    format!("the endpoint {endpoint} is not an https URL: not opened"),
                );
            } else {
                self.open_session(site, endpoint).await;
            }
            if self.settings.probe == Probe::Deep {
                self.deep_probe(site, endpoint).await;
            }
            return;
        }
        let discovery_started = Instant::now();
        site.discovering = true;
        let excluded = |host: &str| self.exclusions.covering(host).is_some();
        let found = fetch_documents(site, self.settings.document_cap, &excluded).await;
        site.discovering = false;
        site.record.timings.discovery_ms = Some(ms(discovery_started.elapsed()));
        let mut found = match found {
            Ok(found) => found,
            Err((kind, reason)) => {
                site.set_verdict(Outcome::NotMeasured, Some(kind), reason);
                return;
            }
        };
        if let Some(e) = &found.home_failure {
            let kind = Some(e.failure_kind());
            site.set_verdict(Outcome::Unreachable, kind, reasons::no_answer(e));
            return;
        }
        if all_disallowed(site) {
            site.set_verdict(
                Outcome::Excluded,
                Some(FailureKind::Robots),
                "excluded: the site's robots.txt disallows every document the survey fetches; \
                 none was requested",
            );
            return;
        }
        // The discovery audit of the documents found; redone below with `<endpoint>/server-card`.
        audit_site(&found, &site.origin).apply_to(&mut site.record);
        site.record.surface = found.surface();
        let Some(measured) = d::Site::from_origin(&site.origin) else {
            site.set_verdict(
                Outcome::InvalidInput,
                Some(FailureKind::Input),
                "the origin has no host",
            );
            return;
        };
        let choice = select_endpoint(&measured, found.candidates(&site.origin), |host| {
            self.exclusions.covering(host).is_some()
        });
        site.record.discovered_via = choice.via;
        site.record.endpoint = choice.endpoint.as_ref().map(Url::to_string);
        let Some(endpoint) = choice.endpoint else {
            let (outcome, kind, mut reason) = without_endpoint(found.mcp_signal, &site.record);
            if let Some((url, why)) = choice.rejected.first() {
                reason.push_str(&format!(" (passed over {url}: {})", why.describe()));
            }
            site.set_verdict(outcome, Some(kind), reason);
            // The deep probe: "An address that starts with http:// is not probed: no request is
            // made. The server is recorded as not served over HTTPS and shown as To migrate."
            let plain = choice
                .rejected
                .iter()
                .find(|(_, why)| matches!(why, d::RejectReason::PlainHttp))
                .and_then(|(raw, _)| site.origin.join(raw.trim()).ok());
            if let (Probe::Deep, Some(url)) = (self.settings.probe, plain) {
                self.deep_probe(site, &url).await;
            }
            return;
        };
        if choice.excluded_subdomain {
            site.set_verdict(
                Outcome::NotMeasured,
                Some(FailureKind::OptedOut),
                format!(
                    "the endpoint {endpoint} is on a subdomain the exclusion list names; \
                     not requested"
                ),
            );
            return;
        }
        self.open_session(site, &endpoint).await;
        let cap = self.settings.document_cap;
        found.endpoint_card = Box::pin(fetch_endpoint_card(site, &endpoint, &found, cap)).await;
        audit_site(&found, &site.origin).apply_to(&mut site.record);
        site.record.surface = found.surface();
        if self.settings.probe == Probe::Deep {
            self.deep_probe(site, &endpoint).await;
        }
    }

    /// The deep probe, with its own budget of 9 requests; it ends before the site
    /// deadline, by the same margin as the endpoint card's GET.
    async fn deep_probe(&self, site: &mut SiteScan, endpoint: &Url) {
        let started = Instant::now();
        let deadline = site.deadline();
        let deadline = deadline.checked_sub(DEADLINE_MARGIN).unwrap_or(deadline);
        let keep = site.keeps_transcript();
        // Boxed, like the session: only a site with an endpoint needs their state, so the
        // scan future of every other site in flight stays small.
        let report = Box::pin(run_probe(&site.client, endpoint, deadline, keep)).await;
        report.apply_to(&mut site.record, self.settings.tools_cap.get());
        site.extend_transcript(report.exchanges);
        site.record.timings.probe_ms = Some(ms(started.elapsed()));
    }

    /// The survey's capped session; it refuses itself when under 12 s are left.
    async fn open_session(&self, site: &mut SiteScan, endpoint: &Url) {
        let started = Instant::now();
        let opts = SessionOptions {
            tools_cap: self.settings.tools_cap,
            keep_exchanges: site.keeps_transcript(),
            ..SessionOptions::default()
        };
        let report = Box::pin(run_session(&site.client, endpoint, &opts, site.deadline())).await;
        report.apply_to(&mut site.record);
        site.extend_transcript(report.exchanges);
        site.record.probe = Some(mcpcensus_store::ProbeDepth::Survey);
        site.record.timings.session_ms = Some(ms(started.elapsed()));
    }
}

/// The verdict when no document names an endpoint the scan opens and `/mcp` gave no signal.
///
/// The survey: "It is out of scope when no document names an endpoint the scan opens and /mcp
/// answered without signalling MCP." A `/mcp` that did not answer at all is therefore not out
/// of scope: the check is not measured ("no answer"). A 3xx is not followed: "a 3xx answer is
/// reported as "redirects; not followed", and the check is not measured". Any other answer
/// without a signal (a 401 included: "A 401 does not count") is out of scope.
fn without_endpoint(
    signal: Option<d::McpSignal>,
    record: &Record,
) -> (Outcome, FailureKind, String) {
    use d::{McpSignal, NoSignalReason};
    match signal {
        Some(McpSignal::NoSignal {
            why: NoSignalReason::Redirect,
        }) => (
            Outcome::NotMeasured,
            FailureKind::Redirect,
            REDIRECT_REASON.to_owned(),
        ),
        Some(McpSignal::NoSignal {
            why: NoSignalReason::NoAnswer,
        }) => {
            let logged = record
                .requests
                .iter()
                .rev()
                .find(|q| q.purpose == DocumentKind::McpPath.as_str());
            let kind = logged
                .and_then(|q| q.error_kind)
                .unwrap_or(FailureKind::NoEndpoint);
            let detail = record
                .documents
                .iter()
                .rev()
                .find(|doc| doc.kind == DocumentKind::McpPath)
                .and_then(|doc| doc.note.as_deref())
                .map(|note| format!(" ({note})"))
                .unwrap_or_default();
            (
                Outcome::NotMeasured,
                kind,
                format!(
                    "no document names an endpoint the scan opens, and the GET of /mcp got \
                     no answer{detail}: not measured"
                ),
            )
        }
        _ => (
            Outcome::OutOfScope,
            FailureKind::NoEndpoint,
            "out of scope: no document names an endpoint the scan opens, \
             and /mcp answered without signalling MCP"
                .to_owned(),
        ),
    }
}

fn ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

/// How one scan runs: keeping a transcript, against an endpoint given rather than
/// discovered, holding a place in the crawl.
struct How<'a> {
    keep: bool,
    given: Option<&'a Url>,
    seat: Option<Arc<dyn Seat>>,
}

impl Scanner for SiteScanner {
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        seat: Arc<dyn Seat>,
    ) -> ScanFuture<'a> {
        Box::pin(self.scan_in_seat(job, run_id, seat))
    }

    fn dns_stalls(&self) -> u64 {
        self.net.resolver().stalls()
    }
}
