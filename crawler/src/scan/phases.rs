//! The scan, phase by phase, each returning its value or the verdict that ends the scan:
//!
//! resolve and guard → locate (redirects, robots.txt) → documents → choose the endpoint →
//! session → endpoint card → deep probe → readiness (when asked for: after the survey's
//! phases however they ended, once the documents are in).
//!
//! Requests log themselves as they end (`SiteScan`); everything else in the record is
//! assembled once from [`Phases`] when the scan ends (`assemble.rs`), so a scan cut short by
//! its deadline keeps what the phases before found.

use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use mcpcensus_store::{DiscoveredVia, FailureKind, Readiness, Timings};
use tokio::time::Instant;
use url::Url;

use super::endpoint_card::fetch_endpoint_card;
use super::job::Turn;
use super::readiness::{run_readiness, Home};
use super::settings::{ScanOptions, ScanSettings};
use super::site::SiteScan;
use crate::config::Probe;
use crate::discovery::{self as d, Discovery};
use crate::input::Exclusions;
use crate::net::Net;
use crate::probe::ProbeReport;
use crate::session::SessionReport;
use crate::verdict::Verdict;

/// What the phases found, each filled in as its phase ends. The larger parts are boxed: every
/// site in flight holds this, and most never reach them (2.1 KB inline, 0.4 KB boxed).
#[derive(Default)]
pub(super) struct Phases {
    pub addresses: Vec<IpAddr>,
    /// The origin measured: where the homepage's redirects led (`None` before `locate`).
    pub origin: Option<Url>,
    /// True when that origin is not the input's.
    pub moved: bool,
    /// The measured site: the scanned origin's site joined with the final origin's.
    pub measured: Option<d::MeasuredSite>,
    /// Why the homepage's redirects ended the homepage (the documents were then asked of the
    /// scanned origin).
    pub homepage_ended: Option<String>,
    /// The documents found (`None` when the scan ended before the endpoint choice).
    pub discovery: Option<Box<Discovery>>,
    /// The endpoint the session opens (or would have opened), and how it was found.
    pub endpoint: Option<Url>,
    pub via: Option<DiscoveredVia>,
    pub session: Option<Box<SessionReport>>,
    pub probe: Option<Box<ProbeReport>>,
    /// The survey's 2xx homepage, kept for the readiness level (`None` when it is off).
    pub home: Option<Box<Home>>,
    /// The readiness level's checks (`None` when it is off or the documents were not reached).
    pub readiness: Option<Box<Readiness>>,
    pub timings: Timings,
    /// Set when the seat would not let the site wait its turn on this address.
    pub held: Option<IpAddr>,
}

/// The endpoint choice's value: the endpoint to open, or the verdict without one and, when it
/// named an `http://` address, that address (the deep probe records it without a request).
pub(super) enum Endpoint {
    Open(Url),
    Closed(Verdict, Option<Url>),
}

/// What the phases use besides the site: the crawl's network, settings and opt-out list.
pub(super) struct Context<'a> {
    pub net: &'a Net,
    pub settings: &'a ScanSettings,
    pub exclusions: &'a Exclusions,
    /// Set once the crawl warned that it reaches public addresses without a contact.
    pub warned_contact: &'a AtomicBool,
}

impl Context<'_> {
    /// Every phase, in order: the survey's, then the readiness level's when asked for. It
    /// runs whatever the survey's verdict (most sites have no endpoint), once the documents
    /// were fetched: a site robots.txt closed, that did not answer or was held has none.
    pub(super) async fn phases(
        &self,
        site: &mut SiteScan,
        opts: &ScanOptions,
        out: &mut Phases,
    ) -> Result<(), Verdict> {
        let ended = self.survey_phases(site, opts, out).await;
        if self.settings.readiness {
            if let (Some(found), Some(origin)) = (&out.discovery, &out.origin) {
                let started = Instant::now();
                let checks = run_readiness(site, origin, out.home.as_deref(), found);
                out.readiness = Some(Box::new(Box::pin(checks).await));
                tracing::debug!(took_ms = ms(started.elapsed()), "readiness phase");
            }
        }
        ended
    }

    /// The survey's phases (and the deep probe's), in order.
    async fn survey_phases(
        &self,
        site: &mut SiteScan,
        opts: &ScanOptions,
        out: &mut Phases,
    ) -> Result<(), Verdict> {
        // A given endpoint (a registry entry's remote) is the record's from the start, so one
        // whose host does not resolve still names it.
        out.endpoint.clone_from(&opts.endpoint);
        let ip = self.resolve_and_guard(site, out).await?;
        let waits = site.client().waits().clone();
        let Turn::Taken(_turn) = waits.during(self.turn(ip, opts.seat.as_deref())).await else {
            out.held = Some(ip);
            return Err(Verdict::held(ip));
        };
        let endpoint = match &opts.endpoint {
            Some(given) => given_endpoint(given, out),
            None => self.discover(site, out).await?,
        };
        let endpoint = match endpoint {
            Endpoint::Open(url) => url,
            Endpoint::Closed(verdict, plain) => {
                if let (Probe::Deep, Some(url)) = (self.settings.probe, plain) {
                    out.probe = Some(Box::new(self.deep_probe(site, &url, out).await));
                }
                return Err(verdict);
            }
        };
        out.session = Some(Box::new(self.session(site, &endpoint, out).await));
        if let (Some(found), Some(measured)) = (out.discovery.as_mut(), out.measured.as_ref()) {
            let via = out.via.unwrap_or(DiscoveredVia::McpPath);
            let cap = self.settings.document_cap;
            let card = fetch_endpoint_card(site, measured, &endpoint, via, found, cap);
            found.endpoint_card = Box::pin(card).await;
        }
        // A registry remote the survey could not list gets the probers' reading (prober.rs).
        let prober = opts.endpoint.is_some()
            && out
                .session
                .as_deref()
                .is_some_and(|s| super::prober::wants_reading(s, site.requests()));
        if self.settings.probe == Probe::Deep || prober {
            out.probe = Some(Box::new(self.deep_probe(site, &endpoint, out).await));
        }
        Ok(())
    }
}

/// An endpoint given rather than discovered (a registry entry's remote): opened when https.
fn given_endpoint(endpoint: &Url, out: &mut Phases) -> Endpoint {
    out.endpoint = Some(endpoint.clone());
    if endpoint.scheme() == "https" {
        return Endpoint::Open(endpoint.clone());
    }
    let verdict = Verdict::not_measured(
        FailureKind::InvalidUrl,
        format!("the endpoint {endpoint} is not an https URL: not opened"),
    );
    Endpoint::Closed(verdict, Some(endpoint.clone()))
}

pub(super) fn ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}
