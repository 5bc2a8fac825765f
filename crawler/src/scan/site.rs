//! One site's scan in progress: its record, its connection pool and its deadline.

use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcpcensus_store::{FailureKind, Outcome, Record};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use url::Url;

use crate::net::{
    pauses_host, retry_after, Entry, FetchError, FetchHead, FetchRequest, FetchResponse, Recorder,
    SiteClient,
};

use crate::discovery::{DISCOVERY_ACCEPT, DISCOVERY_ACCEPT_LANGUAGE as ACCEPT_LANGUAGE};
use crate::net::Exchange;

/// The log's note on a body longer than its cap.
const CUT_AT_CAP: &str = "body cut at the size cap";
/// Answers in a row during discovery that ask the host to be left alone (429, or a 503 that
/// pauses it) before the scan ends: one pause is waited out, a host that asks again is
/// refusing the crawl, and more requests would only be more load on it.
const PAUSES_IN_A_ROW: u8 = 2;

#[derive(Debug)]
pub struct SiteScan {
    pub record: Record,
    pub client: SiteClient,
    /// The site deadline before our own waits (see [`SiteScan::deadline`]).
    base_deadline: Instant,
    pub origin: Url,
    /// True while discovery runs: a 429 or 503 then may end the scan (see `note_pause`).
    pub discovering: bool,
    /// Why the scan ended before its steps did (a pause longer than the time left, or a host
    /// that asked for a pause again).
    pub ended_early: Option<String>,
    /// Discovery answers in a row that paused the host.
    pauses_in_a_row: u8,
    /// Cancelled when the scan is to end now.
    pub stop: CancellationToken,
    /// A request ran out of time because the site deadline passed (not its own limit).
    pub hit_deadline: bool,
    /// The origins whose robots.txt this scan read; `None` when robots.txt is ignored.
    pub robots_read: Option<Vec<String>>,
    /// Every request and answer in full, in order, when kept (`mcpcensus check --explain`);
    /// its request log moves into the record as each request ends.
    pub recorder: Recorder,
}

impl SiteScan {
    pub fn new(record: Record, client: SiteClient, deadline: Instant, origin: Url) -> SiteScan {
        SiteScan {
            record,
            client,
            base_deadline: deadline,
            origin,
            discovering: false,
            ended_early: None,
            pauses_in_a_row: 0,
            stop: CancellationToken::new(),
            hit_deadline: false,
            robots_read: Some(Vec::new()),
            recorder: Recorder::new(false),
        }
    }

    /// Reads no robots.txt (`--robots ignore`).
    pub fn ignore_robots(&mut self) {
        self.robots_read = None;
    }

    /// Keeps every request and answer from now on (off by default: the crawl keeps only the
    /// compact request log).
    pub fn keep_transcript(&mut self) {
        self.recorder.transcript.get_or_insert_with(Vec::new);
    }

    /// True when a transcript is kept.
    pub fn keeps_transcript(&self) -> bool {
        self.recorder.transcript.is_some()
    }

    /// The transcript, when one was kept.
    pub fn take_transcript(&mut self) -> Vec<Exchange> {
        self.recorder.transcript.take().unwrap_or_default()
    }

    /// Adds exchanges made elsewhere (the session's) to the transcript, when one is kept.
    pub fn extend_transcript(&mut self, exchanges: Vec<Exchange>) {
        self.recorder.extend_transcript(exchanges);
    }

    /// Notes the body read after [`SiteScan::get_head`] on its transcript entry.
    pub fn note_body(&mut self, body: &[u8]) {
        if let Some(ex) = self.recorder.transcript.as_mut().and_then(|t| t.last_mut()) {
            ex.read_body(body, body.len() as u64);
        }
    }

    /// A discovery GET within the site deadline, and its entry in the recorder.
    fn begin(
        &self,
        url: &Url,
        purpose: &str,
        cap: usize,
        timeout: Duration,
    ) -> (FetchRequest, Entry) {
        let req = Self::discovery_get(url, cap, timeout.min(self.remaining()));
        let entry = self
            .recorder
            .start(&self.client, purpose, "GET", url, &req.headers, "");
        (req, entry)
    }

    /// Ends a request's entry: its log goes into the record at once, in order.
    fn finish(&mut self, entry: Entry) {
        self.recorder.finish(entry);
        self.record.requests.append(&mut self.recorder.requests);
    }

    /// A GET robots.txt disallows is not requested (and not logged as a request): the
    /// record's robots section lists it.
    fn robots_check(&mut self, url: &Url) -> Result<(), FetchError> {
        if self.client.robots_allow(url) {
            return Ok(());
        }
        if let Some(info) = self.record.robots.as_mut() {
            info.skipped.push(url.to_string());
        }
        Err(FetchError::Disallowed {
            url: url.to_string(),
        })
    }

    /// Sets the verdict with its reason's typed kind (`None` only for pass).
    pub fn set_verdict(
        &mut self,
        outcome: Outcome,
        kind: Option<FailureKind>,
        reason: impl Into<String>,
    ) {
        self.record.set_verdict(outcome, kind, reason);
    }

    /// The site deadline: its budget runs on the server's time, so it moves later by every
    /// wait of the site's in our own queues (DNS and connection slots, politeness, its turn on
    /// a shared address).
    pub fn deadline(&self) -> Instant {
        self.base_deadline + self.client.waits().total()
    }

    /// Time left before the site deadline.
    pub fn remaining(&self) -> Duration {
        self.deadline().saturating_duration_since(Instant::now())
    }

    /// A 429 or 503 during discovery whose Retry-After is longer than the time left ends the
    /// scan now, rather than waiting out the pause into the deadline; so does the second answer
    /// in a row that pauses the host (a 429, or a 503 but a discovery document's bare one).
    fn note_pause(&mut self, status: StatusCode, headers: &HeaderMap, document: bool) {
        if !self.discovering || self.ended_early.is_some() {
            return;
        }
        // The same rule the client paused the host by.
        if !pauses_host(status, headers, !document) {
            self.pauses_in_a_row = 0;
            return;
        }
        self.pauses_in_a_row += 1;
        let code = status.as_u16();
        if let Some(after) = retry_after(headers).filter(|after| *after > self.remaining()) {
            let secs = after.as_secs();
            self.end_early(format!("not measured: {code}, retry after {secs} s"));
        } else if self.pauses_in_a_row >= PAUSES_IN_A_ROW {
            self.end_early(format!(
                "not measured: {code} again after the pause it asked for"
            ));
        }
    }

    fn end_early(&mut self, reason: String) {
        self.ended_early = Some(reason);
        self.stop.cancel();
    }

    fn discovery_get(url: &Url, cap: usize, timeout: Duration) -> FetchRequest {
        FetchRequest::get(url.clone())
            .header(
                http::header::ACCEPT,
                HeaderValue::from_static(DISCOVERY_ACCEPT),
            )
            .header(
                HeaderName::from_static("accept-language"),
                HeaderValue::from_static(ACCEPT_LANGUAGE),
            )
            .body_cap(cap)
            .timeout(timeout)
    }

    /// A discovery GET whose head is judged before (or instead of) reading the body; logged
    /// when the head arrives.
    pub async fn get_head(
        &mut self,
        url: &Url,
        purpose: &str,
        cap: usize,
        timeout: Duration,
    ) -> Result<FetchHead, FetchError> {
        self.robots_check(url)?;
        let (req, mut entry) = self.begin(url, purpose, cap, timeout);
        let result = self.client.fetch_head(req).await;
        match &result {
            Ok(h) => {
                entry.answered(h.status, &h.headers);
                self.note_pause(h.status, &h.headers, false);
            }
            Err(e) => entry.fetch_failed(e),
        }
        if let Ok(h) = &result {
            entry.took(h.elapsed);
        }
        self.finish(entry);
        result
    }

    /// A discovery GET with the survey's headers, logged in the record.
    pub async fn get(
        &mut self,
        url: &Url,
        purpose: &str,
        cap: usize,
        timeout: Duration,
    ) -> Result<FetchResponse, FetchError> {
        self.send_get(url, purpose, cap, timeout, false).await
    }

    /// The same GET for a discovery document (a card or catalog): a 503 without Retry-After
    /// is the document's answer and does not pause the host, so a site whose `/.well-known/`
    /// paths all answer 503 goes on to `/mcp` and the session at once. The homepage,
    /// robots.txt and `/mcp` speak for the host and keep the pause.
    pub async fn get_document(
        &mut self,
        url: &Url,
        purpose: &str,
        cap: usize,
        timeout: Duration,
    ) -> Result<FetchResponse, FetchError> {
        self.send_get(url, purpose, cap, timeout, true).await
    }

    async fn send_get(
        &mut self,
        url: &Url,
        purpose: &str,
        cap: usize,
        timeout: Duration,
        document: bool,
    ) -> Result<FetchResponse, FetchError> {
        self.robots_check(url)?;
        let (mut req, mut entry) = self.begin(url, purpose, cap, timeout);
        if document {
            req = req.bare_503_is_answer();
        }
        let result = self.client.fetch(req).await;
        match &result {
            Ok(r) => {
                entry.answered(r.status, &r.headers);
                self.note_pause(r.status, &r.headers, document);
                entry.read_body(&r.body, r.body.len() as u64);
                entry.took(r.elapsed);
                if r.truncated {
                    entry.failed(FailureKind::BodyCap, CUT_AT_CAP.to_owned());
                }
            }
            Err(e) => entry.fetch_failed(e),
        }
        if matches!(result, Err(FetchError::Timeout { .. })) && self.remaining().is_zero() {
            self.hit_deadline = true;
        }
        self.finish(entry);
        result
    }
}
