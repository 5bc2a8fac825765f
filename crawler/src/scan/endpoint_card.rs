//! The endpoint card phase, the discovery audit's third place, `<endpoint>/server-card`: one
//! GET, for the endpoint the survey chose on the measured site, after the session.
//!
//! Why after: the session opens only with its 12 s left before the site deadline. A GET before
//! it would take from that time (its own wait plus the per-host gap before the first POST) and
//! would change the session the survey reproduces; the card can wait, the session cannot. After
//! the session (or in its place, when it was refused for too little time) the GET gets at most
//! `DOCUMENT_TIMEOUT`, politeness waits included, and stops `DEADLINE_MARGIN` short of the site
//! deadline so a slow card never turns a measured site into "the deadline passed".
//!
//! It is not sent (and its document log says why) with less than `ENDPOINT_CARD_MIN_TIME` left,
//! or when the endpoint's host answered 429 or 503 during the scan: the host asked for a pause
//! of unknown length, and the card is not worth the wait. A discovery document's 503 without
//! Retry-After is that document's answer, not a pause, and does not count.

use std::time::Duration;

use mcpcensus_store::{DiscoveredVia, DocumentKind, FailureKind, RequestLog};
use url::Url;

use super::answer::{empty_log, DOCUMENT_TIMEOUT};
use super::documents::fetch_card_within;
use super::phases::{Context, Phases};
use super::site::SiteScan;
use crate::discovery::{self as d, endpoint_server_card_url};
use crate::discovery::{Discovery, FetchedCard};

/// The endpoint card's GET ends this long before the site deadline.
pub const DEADLINE_MARGIN: Duration = Duration::from_millis(500);
/// Below this much time (after the margin) the GET is not sent.
pub const ENDPOINT_CARD_MIN_TIME: Duration = Duration::from_secs(1);

impl Context<'_> {
    /// The card of `endpoint`, into the documents found (when discovery found them: a given
    /// endpoint's scan has none).
    pub(super) async fn endpoint_card(
        &self,
        site: &mut SiteScan,
        out: &mut Phases,
        endpoint: &Url,
    ) {
        let (Some(found), Some(measured)) = (out.discovery.as_mut(), out.measured.as_ref()) else {
            return;
        };
        let via = out.via.unwrap_or(DiscoveredVia::McpPath);
        let cap = self.settings.document_cap;
        let card = fetch_endpoint_card(site, measured, endpoint, via, found, cap);
        // Boxed: only a site with an endpoint needs the GET's state.
        found.endpoint_card = Box::pin(card).await;
    }
}

/// Fetches `<endpoint>/server-card` (the endpoint found `via`, on the `measured` site). `None`
/// when it is off the measured site, not sent for lack of time, or answered without 2xx. A URL
/// discovery already fetched is not asked twice.
async fn fetch_endpoint_card(
    site: &mut SiteScan,
    measured: &d::MeasuredSite,
    endpoint: &Url,
    via: DiscoveredVia,
    found: &Discovery,
    cap: usize,
) -> Option<FetchedCard> {
    let url = endpoint_server_card_url(endpoint);
    if !measured.contains(&url) {
        return None;
    }
    if let Some(known) = found
        .cards
        .iter()
        .chain(&found.catalog_cards)
        .find(|card| card.url == url)
    {
        return Some(known.clone());
    }
    let time = site
        .deadline()
        .earlier_by(DEADLINE_MARGIN)
        .remaining()
        .min(DOCUMENT_TIMEOUT);
    let skip = if time < ENDPOINT_CARD_MIN_TIME {
        Some(format!(
            "not fetched: under {} s left before the site deadline",
            (ENDPOINT_CARD_MIN_TIME + DEADLINE_MARGIN).as_secs_f32()
        ))
    } else if asked_to_slow_down(site, &url) {
        Some("not fetched: the host answered 429 or 503 during the scan".to_owned())
    } else {
        None
    };
    if let Some(note) = skip {
        let mut log = empty_log(DocumentKind::EndpointServerCard, &url);
        log.note = Some(note);
        site.log_document(log);
        return None;
    }
    let kind = DocumentKind::EndpointServerCard;
    let fetch = fetch_card_within(site, &url, kind, via, cap, time);
    // The request's own timeout starts after the per-host wait; this bound includes it.
    match tokio::time::timeout(time, fetch).await {
        Ok(card) => card,
        Err(_) => {
            let note = format!("no answer within {} s, waits included", time.as_secs_f32());
            site.log_requests(vec![RequestLog {
                method: "GET".to_owned(),
                url: url.to_string(),
                purpose: kind.as_str().to_owned(),
                ms: u32::try_from(time.as_millis()).unwrap_or(u32::MAX),
                error: Some(note.clone()),
                error_kind: Some(FailureKind::Timeout),
                ..RequestLog::default()
            }]);
            let mut log = empty_log(kind, &url);
            log.note = Some(note);
            site.log_document(log);
            None
        }
    }
}

/// Whether a request to `url`'s host got an answer that paused the host in this scan (a
/// request then waits out the pause before its own timeout starts): a 429, or a 503 other than
/// a document's bare one (see [`SiteScan::get_document`]).
fn asked_to_slow_down(site: &SiteScan, url: &Url) -> bool {
    site.requests().iter().any(|request| {
        paused_host(request)
            && Url::parse(&request.url).is_ok_and(|sent| sent.host_str() == url.host_str())
    })
}

/// The client's rule for which answers pause the host, read back from the request log.
fn paused_host(request: &RequestLog) -> bool {
    // Every discovery document but the homepage and `/mcp` (which speak for the host) is asked
    // with `get_document`: the cards, the catalogs, the API and agent surface documents.
    let document = DocumentKind::parse(&request.purpose)
        .is_some_and(|kind| !matches!(kind, DocumentKind::Home | DocumentKind::McpPath));
    let retry_after = request
        .headers
        .iter()
        .any(|h| h.name.eq_ignore_ascii_case("retry-after"));
    match request.status {
        Some(429) => true,
        Some(503) => !document || retry_after,
        _ => false,
    }
}
