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

use mcpcensus_store::{DiscoveredVia, DocumentKind, FailureKind, Outcome, Readiness, Timings};
use tokio::time::Instant;
use url::Url;

use super::answer::Fetched;
use super::documents::fetch_documents;
use super::endpoint_card::{fetch_endpoint_card, DEADLINE_MARGIN};
use super::job::Turn;
use super::locate::{locate, Located};
use super::readiness::{run_readiness, Home};
use super::robots::{all_disallowed, unreachable};
use super::settings::{ScanOptions, ScanSettings};
use super::site::SiteScan;
use crate::config::Probe;
use crate::discovery::{self as d, select_endpoint, Discovery, EndpointChoice};
use crate::input::Exclusions;
use crate::net::Net;
use crate::probe::{run_probe, ProbeReport};
use crate::session::{run_session, SessionOptions, SessionReport};
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

    /// Locate, the documents, the endpoint choice: the discovery of the survey.
    async fn discover(&self, site: &mut SiteScan, out: &mut Phases) -> Result<Endpoint, Verdict> {
        let started = Instant::now();
        site.set_discovering(true);
        let fetched = self.locate_and_fetch(site, out).await;
        site.set_discovering(false);
        out.timings.discovery_ms = Some(ms(started.elapsed()));
        if let Err(verdict) = fetched {
            out.discovery = None;
            return Err(verdict);
        }
        if let (true, Some((kind, why))) = (all_disallowed(site), unreachable(site)) {
            // Not the site's opt-out: its robots.txt did not answer, which RFC 9309 reads as
            // complete disallow, so nothing else was asked.
            out.discovery = None;
            return Err(Verdict {
                // The site was failing, not opting out: worth a second look.
                transient: true,
                ..Verdict::not_measured(
                    kind,
                    format!(
                        "not measured: robots.txt got no answer ({why}), which RFC 9309 reads \
                         as disallowing everything; nothing else was requested"
                    ),
                )
            });
        }
        if let (true, Some(status)) = (all_disallowed(site), robots_server_error(site)) {
            // A 5xx robots.txt: RFC 9309's complete disallow holds, but the reason is the
            // server's failure, not its rules (docs/rules.md, "robots.txt").
            out.discovery = None;
            return Err(Verdict {
                transient: true,
                ..Verdict::not_measured(
                    FailureKind::ServerError,
                    format!(
                        "not measured: robots.txt answered {status}, which RFC 9309 reads as \
                         disallowing everything; nothing else was requested"
                    ),
                )
            });
        }
        if all_disallowed(site) {
            // Scanned, not skipped: our politeness must not move the denominator of sites scanned.
            out.discovery = None;
            return Err(Verdict::not_measured(
                FailureKind::Robots,
                "not measured: the site's robots.txt disallows every document the survey fetches; \
                 none was requested",
            ));
        }
        let origin = out.origin.clone().unwrap_or_else(|| site.origin().clone());
        let Some(measured) = out.measured.clone() else {
            out.discovery = None;
            return Err(Verdict::new(
                Outcome::InvalidInput,
                FailureKind::Input,
                "the origin has no host",
            ));
        };
        let Some(found) = out.discovery.as_deref() else {
            return Err(Verdict::not_measured(
                FailureKind::Internal,
                "discovery ended without its documents",
            ));
        };
        let choice = select_endpoint(&measured, found.candidates(&origin), |host| {
            self.exclusions.covering(host).is_some()
        });
        out.endpoint.clone_from(&choice.endpoint);
        out.via = choice.via;
        let mut endpoint = endpoint_of(choice, found, site, &origin);
        if let (Endpoint::Closed(verdict, _), Some(why)) = (&mut endpoint, &out.homepage_ended) {
            verdict.reason.push_str(&format!("; the homepage {why}"));
        }
        Ok(endpoint)
    }

    async fn locate_and_fetch(&self, site: &mut SiteScan, out: &mut Phases) -> Result<(), Verdict> {
        let cap = self.settings.document_cap;
        let excluded = |host: &str| self.exclusions.covering(host).is_some();
        let mut located: Located = locate(site, cap, &excluded).await?;
        out.origin = Some(located.origin.clone());
        out.moved = located.moved;
        out.measured.clone_from(&located.measured);
        out.homepage_ended.clone_from(&located.homepage_ended);
        if let (true, Fetched::Body(headers, body)) = (self.settings.readiness, &located.home) {
            let status = site
                .documents()
                .last()
                .and_then(|d| d.status)
                .unwrap_or(200);
            out.home = Some(Box::new(Home {
                url: located.home_url.clone(),
                status,
                content_type: d::media_type(headers),
                headers: headers.clone(),
                body: body.clone(),
            }));
        }
        // Filled in place: a scan cut short mid-discovery (a pause the host asked for, the
        // deadline) keeps what the documents read so far named (see `named_so_far`).
        let found = out.discovery.insert(Box::default());
        fetch_documents(site, &mut located, cap, &excluded, found).await
    }

    /// The scan was cut short before the endpoint choice (a 429 or 503 that paused the host,
    /// the deadline): the endpoint the documents read so far name (a card, a catalog, a Link
    /// header) is still the record's, with how it was found, though it was not opened. The
    /// partial documents themselves are not audited.
    pub(super) fn named_so_far(&self, out: &mut Phases) {
        if out.timings.discovery_ms.is_some() {
            return; // discovery had ended: its documents are whole, and audited
        }
        let Some(found) = out.discovery.take() else {
            return;
        };
        if out.endpoint.is_some() {
            return;
        }
        let (Some(measured), Some(origin)) = (&out.measured, &out.origin) else {
            return;
        };
        let choice = select_endpoint(measured, found.candidates(origin), |host| {
            self.exclusions.covering(host).is_some()
        });
        out.endpoint = choice.endpoint;
        out.via = choice.via;
    }

    /// The survey's capped session; it refuses itself when under 12 s are left.
    async fn session(
        &self,
        site: &mut SiteScan,
        endpoint: &Url,
        out: &mut Phases,
    ) -> SessionReport {
        let started = Instant::now();
        let opts = SessionOptions {
            tools_cap: self.settings.tools_cap,
            keep_exchanges: site.keeps_transcript(),
            ..SessionOptions::default()
        };
        // Boxed: only a site with an endpoint needs the session's state, so the scan future
        // of every other site in flight stays small.
        let mut report =
            Box::pin(run_session(site.client(), endpoint, &opts, site.deadline())).await;
        site.log_requests(std::mem::take(&mut report.requests));
        site.extend_transcript(std::mem::take(&mut report.exchanges));
        out.timings.session_ms = Some(ms(started.elapsed()));
        report
    }

    /// The deep probe, with its own budget of 9 requests; it ends before the site deadline,
    /// by the same margin as the endpoint card's GET.
    async fn deep_probe(
        &self,
        site: &mut SiteScan,
        endpoint: &Url,
        out: &mut Phases,
    ) -> ProbeReport {
        let started = Instant::now();
        // The probe's own timers read a fixed instant: the site deadline as it stands now.
        let deadline = site.deadline().earlier_by(DEADLINE_MARGIN).at();
        let keep = site.keeps_transcript();
        let mut report = Box::pin(run_probe(site.client(), endpoint, deadline, keep)).await;
        site.log_requests(std::mem::take(&mut report.requests));
        site.extend_transcript(std::mem::take(&mut report.exchanges));
        out.timings.probe_ms = Some(ms(started.elapsed()));
        report
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

/// The endpoint choice's value.
fn endpoint_of(
    choice: EndpointChoice,
    found: &Discovery,
    site: &SiteScan,
    origin: &Url,
) -> Endpoint {
    let Some(endpoint) = choice.endpoint else {
        let mut verdict = without_endpoint(found.mcp_signal, found.mcp_may_pass, site);
        if let Some((url, why)) = choice.rejected.first() {
            verdict
                .reason
                .push_str(&format!(" (passed over {url}: {})", why.describe()));
        }
        // The deep probe: "An address that starts with http:// is not probed: no request is
        // made. The server is recorded as not served over HTTPS and shown as To migrate." An
        // sse remote the survey does not open is the deep probe's to classify (legacy SSE).
        let plain = choice
            .rejected
            .iter()
            .find(|(_, why)| matches!(why, d::RejectReason::PlainHttp | d::RejectReason::Sse))
            .and_then(|(raw, _)| origin.join(raw.trim()).ok());
        return Endpoint::Closed(verdict, plain);
    };
    if choice.excluded_subdomain {
        let verdict = Verdict::not_measured(
            FailureKind::OptedOut,
            format!(
                "the endpoint {endpoint} is on a subdomain the exclusion list names; \
                 not requested"
            ),
        );
        return Endpoint::Closed(verdict, None);
    }
    Endpoint::Open(endpoint)
}

/// The verdict when no document names an endpoint the scan opens and `/mcp` gave no signal.
///
/// The survey: "It is out of scope when no document names an endpoint the scan opens and /mcp
/// answered without signalling MCP." A `/mcp` that did not answer at all is therefore not out
/// of scope: the check is not measured ("no answer"). A 3xx is not followed: "a 3xx answer is
/// reported as "redirects; not followed", and the check is not measured". Any other answer
/// without a signal (a 401 included: "A 401 does not count") is out of scope.
fn without_endpoint(signal: Option<d::McpSignal>, may_pass: bool, site: &SiteScan) -> Verdict {
    use d::{McpSignal, NoSignalReason};
    match signal {
        // The GET's redirect was followed on the site and then left it, looped or went on too
        // long: the site's /mcp answered, without an MCP signal (docs/rules.md, "/mcp's
        // redirects").
        Some(McpSignal::NoSignal {
            why: NoSignalReason::Redirect,
        }) => Verdict::new(
            Outcome::OutOfScope,
            FailureKind::NoEndpoint,
            format!(
                "out of scope: no document names an endpoint the scan opens, and /mcp answered \
                 without signalling MCP (its GET {})",
                mcp_note(site).unwrap_or("redirects; not followed")
            ),
        ),
        Some(McpSignal::NoSignal {
            why: NoSignalReason::NoAnswer,
        }) => {
            let logged = site
                .requests()
                .iter()
                .rev()
                .find(|q| q.purpose == DocumentKind::McpPath.as_str());
            let kind = logged
                .and_then(|q| q.error_kind)
                .unwrap_or(FailureKind::NoEndpoint);
            let detail = mcp_note(site)
                .map(|note| format!(" ({note})"))
                .unwrap_or_default();
            Verdict {
                // A timeout, a reset, a refused connection: each may pass (the fetch's own
                // verdict, `FetchError::is_transient`; docs/rules.md).
                transient: may_pass,
                ..Verdict::not_measured(
                    kind,
                    format!(
                        "no document names an endpoint the scan opens, and the GET of /mcp got \
                         no answer{detail}: not measured"
                    ),
                )
            }
        }
        Some(McpSignal::NoSignal {
            why: NoSignalReason::NotNow,
        }) => {
            // "Not now" (a 5xx, a 429) is not an answer about MCP: the survey leaves a check
            // a 5xx answered not measured (docs/rules.md, "Not now is not no").
            let status = site
                .requests()
                .iter()
                .rev()
                .find(|q| q.purpose == DocumentKind::McpPath.as_str())
                .and_then(|q| q.status)
                .unwrap_or(500);
            let kind = if status == 429 {
                FailureKind::RateLimited
            } else {
                FailureKind::ServerError
            };
            Verdict {
                transient: true,
                ..Verdict::not_measured(
                    kind,
                    format!(
                        "no document names an endpoint the scan opens, and the GET of /mcp \
                         answered {status}, which says \"not now\", not \"no MCP\": not measured"
                    ),
                )
            }
        }
        _ => Verdict::new(
            Outcome::OutOfScope,
            FailureKind::NoEndpoint,
            "out of scope: no document names an endpoint the scan opens, \
             and /mcp answered without signalling MCP",
        ),
    }
}

/// The status of the measured origin's robots.txt when it was a 5xx (RFC 9309: complete
/// disallow, for a failure of the server's).
fn robots_server_error(site: &SiteScan) -> Option<u16> {
    let robots = site.robots()?;
    robots
        .status
        .filter(|s| (500..600).contains(s) && robots.verdict == "disallow_all")
}

/// The note on the `/mcp` document's log.
fn mcp_note(site: &SiteScan) -> Option<&str> {
    site.documents()
        .iter()
        .rev()
        .find(|doc| doc.kind == DocumentKind::McpPath)
        .and_then(|doc| doc.note.as_deref())
}

pub(super) fn ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}
