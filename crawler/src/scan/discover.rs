//! The survey's discovery phase: locate (the homepage's redirects, robots.txt), the
//! documents, and the endpoint choice; its value is the endpoint to open, or the verdict
//! without one. An endpoint given rather than discovered (a registry entry's remote) skips it.

use mcpcensus_store::{DocumentKind, FailureKind, Outcome};
use tokio::time::Instant;
use url::Url;

use super::answer::Fetched;
use super::documents::fetch_documents;
use super::locate::{locate, Located};
use super::phases::{ms, Context, Endpoint, Phases};
use super::readiness::Home;
use super::robots::{all_disallowed, unreachable};
use super::site::SiteScan;
use crate::discovery::{self as d, select_endpoint, Discovery, EndpointChoice};
use crate::verdict::Verdict;

impl Context<'_> {
    /// Locate, the documents, the endpoint choice: the discovery of the survey; or the `given`
    /// endpoint.
    pub(super) async fn discover(
        &self,
        site: &mut SiteScan,
        out: &mut Phases,
        given: Option<&Url>,
    ) -> Result<Endpoint, Verdict> {
        if let Some(endpoint) = given {
            return Ok(given_endpoint(endpoint, out));
        }
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
            // The site was failing, not opting out: worth a second look.
            return Err(Verdict::not_measured(
                kind,
                format!(
                    "not measured: robots.txt got no answer ({why}), which RFC 9309 reads as \
                     disallowing everything; nothing else was requested"
                ),
            )
            .transient());
        }
        if let (true, Some(status)) = (all_disallowed(site), robots_server_error(site)) {
            // A 5xx robots.txt: RFC 9309's complete disallow holds, but the reason is the
            // server's failure, not its rules (docs/rules.md, "robots.txt").
            out.discovery = None;
            return Err(Verdict::not_measured(
                FailureKind::ServerError,
                format!(
                    "not measured: robots.txt answered {status}, which RFC 9309 reads as \
                     disallowing everything; nothing else was requested"
                ),
            )
            .transient());
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
            return Err(Verdict::invalid_input("the origin has no host"));
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
}

/// An endpoint given rather than discovered: opened when https.
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
