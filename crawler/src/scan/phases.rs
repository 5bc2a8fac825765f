//! The scan, phase by phase:
//!
//! resolve and guard (and the site's turn on its address) → discover (locate, documents, the
//! endpoint choice) → session → endpoint card → deep probe → readiness (when asked for: after
//! the survey's phases however they ended, once the documents are in).
//!
//! A phase is a method of [`Context`] in a file of its own (`resolve.rs`, `discover.rs`,
//! `session.rs`, `endpoint_card.rs`, `deep_probe.rs`, `readiness/`), of one shape:
//!
//! ```text
//! async fn NAME(&self, site: &mut SiteScan, out: &mut Phases, inputs…) -> Result<T, Verdict>
//! async fn NAME(&self, site: &mut SiteScan, out: &mut Phases, inputs…) -> T
//! ```
//!
//! It sends its requests through `site`, which logs them as they end; it writes its findings
//! and its timing into `out` itself; and it returns only what a later phase takes as an input
//! (`T`, often nothing). A phase that can end the scan returns `Result`, its `Err` the verdict;
//! one that cannot returns `T` alone. Whether it runs at all is its own to decide (the
//! settings, what the phases before wrote into `out`). This file only orders them.
//!
//! The record is assembled once from [`Phases`] when the scan ends (`assemble.rs`), so a scan
//! cut short by its deadline keeps what the phases before found.

use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use mcpcensus_store::{DiscoveredVia, Readiness, Timings};
use url::Url;

use super::readiness::Home;
use super::settings::{ScanOptions, ScanSettings};
use super::site::SiteScan;
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
/// That verdict is a value, not the discovery's `Err`: the scan ends only after that probe.
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
    /// Every phase, in order: the survey's, then the readiness level's (which runs whatever the
    /// survey's verdict: most sites have no endpoint).
    pub(super) async fn phases(
        &self,
        site: &mut SiteScan,
        opts: &ScanOptions,
        out: &mut Phases,
    ) -> Result<(), Verdict> {
        let ended = self.survey_phases(site, opts, out).await;
        self.readiness(site, out).await;
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
        // Held until the scan ends.
        let _turn = self
            .resolve_and_guard(site, out, opts.seat.as_deref())
            .await?;
        let given = opts.endpoint.is_some();
        let endpoint = match self.discover(site, out, opts.endpoint.as_ref()).await? {
            Endpoint::Open(url) => url,
            Endpoint::Closed(verdict, plain) => {
                // An `http://` address is the deep probe's to record, without a request.
                if let Some(url) = plain {
                    self.deep_probe(site, out, &url, given).await;
                }
                return Err(verdict);
            }
        };
        self.session(site, out, &endpoint).await;
        self.endpoint_card(site, out, &endpoint).await;
        self.deep_probe(site, out, &endpoint, given).await;
        Ok(())
    }
}

pub(super) fn ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}
