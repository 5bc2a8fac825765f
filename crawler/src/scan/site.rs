//! One site's scan in progress: its connection pool, its deadline, and the logs its requests
//! leave (requests, documents, redirects, robots.txt). The phases send through it and read its
//! logs; the verdict and everything else in the record is assembled from the phases' values
//! once they end (`assemble.rs`), so no phase writes another's fields.

use std::sync::Arc;
use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcpcensus_store::{DocumentLog, FailureKind, Record, RedirectHop, RequestLog, RobotsInfo};
use tokio_util::sync::CancellationToken;
use url::Url;

use super::pauses::Pauses;
use crate::net::{
    Entry, FetchError, FetchHead, FetchRequest, FetchResponse, LocalResource, Recorder,
    RobotsRules, ServerDeadline, SiteClient,
};

use crate::discovery::{DISCOVERY_ACCEPT, DISCOVERY_ACCEPT_LANGUAGE as ACCEPT_LANGUAGE};
use crate::net::Exchange;

/// The log's note on a body longer than its cap.
const CUT_AT_CAP: &str = "body cut at the size cap";
/// The note of a body that ended where TLS closed without close_notify (read as its end).
const CLOSED_WITHOUT_NOTIFY: &str =
    "body ended at a TLS close without close_notify: read as complete";

#[derive(Debug)]
pub struct SiteScan {
    /// The record being logged into: identity fields from the job, then the request,
    /// document, redirect and robots logs as requests end.
    record: Record,
    client: SiteClient,
    /// The site deadline (see [`SiteScan::deadline`]).
    deadline: ServerDeadline,
    /// The origin the input names (where the homepage's redirects led is `Located`'s).
    origin: Url,
    /// The pauses the host asked for during discovery, which may end the scan early.
    pauses: Pauses,
    /// A request ran out of time because the site deadline passed (not its own limit).
    hit_deadline: bool,
    /// The origins whose robots.txt this scan read; `None` when robots.txt is ignored.
    robots_read: Option<Vec<String>>,
    /// What each origin's robots.txt said, when it was read with the record's section in
    /// view (the homepage's chain): a later visit to an origin a redirect chain already read
    /// makes it the record's again, without a request.
    robots_said: Vec<RobotsInfo>,
    /// Every request and answer in full, in order, when kept (`mcpcensus check --explain`);
    /// its request log moves into the record as each request ends.
    recorder: Recorder,
    /// The measured origin's robots.txt body, kept for the readiness level (`None` unless
    /// asked for with [`SiteScan::keep_robots_body`], or before it was read).
    robots_body: Option<RobotsBody>,
    keep_robots_body: bool,
}

/// A robots.txt answer's 2xx body, as the readiness level reads it.
#[derive(Debug, Clone)]
pub struct RobotsBody {
    pub content_type: Option<String>,
    pub body: bytes::Bytes,
}

/// What a finished scan leaves: the record with its logs, the transcript when kept, and the
/// typed flag of a local resource that ran out.
pub struct ScanLogs {
    pub record: Record,
    pub transcript: Vec<Exchange>,
    pub local: Option<LocalResource>,
    pub ended_early: Option<(FailureKind, String)>,
    pub hit_deadline: bool,
}

impl SiteScan {
    /// A scan through `client` under `deadline`, which counts `client`'s own waits.
    pub fn new(
        record: Record,
        client: SiteClient,
        deadline: ServerDeadline,
        origin: Url,
    ) -> SiteScan {
        debug_assert!(Arc::ptr_eq(deadline.waits(), client.waits()));
        SiteScan {
            record,
            client,
            deadline,
            origin,
            pauses: Pauses::default(),
            hit_deadline: false,
            robots_read: Some(Vec::new()),
            robots_said: Vec::new(),
            recorder: Recorder::new(false),
            robots_body: None,
            keep_robots_body: false,
        }
    }

    /// Keeps the measured origin's robots.txt body for the readiness level (off by default:
    /// the survey only needs its rules).
    pub fn keep_robots_body(&mut self) {
        self.keep_robots_body = true;
    }

    /// True when the robots.txt body is kept (the readiness level reads it): a kept answer
    /// of another site's has no body, so the run's cache is not used then.
    pub fn keeps_robots_body(&self) -> bool {
        self.keep_robots_body
    }

    /// Keeps `body` as the measured origin's robots.txt (`None`: it answered without 2xx),
    /// when asked to.
    pub fn set_robots_body(&mut self, body: Option<RobotsBody>) {
        if self.keep_robots_body {
            self.robots_body = body;
        }
    }

    /// The measured origin's robots.txt body, when kept and it answered 2xx.
    pub fn robots_body(&self) -> Option<&RobotsBody> {
        self.robots_body.as_ref()
    }

    /// The origin the input names.
    pub fn origin(&self) -> &Url {
        &self.origin
    }

    /// The host the input names, as the target has it.
    pub fn host(&self) -> &str {
        self.record.host.as_deref().unwrap_or_default()
    }

    /// The input's registrable domain (the widest site a redirect may stay on).
    pub fn registrable_domain(&self) -> Option<&str> {
        self.record.registrable_domain.as_deref()
    }

    pub fn client(&self) -> &SiteClient {
        &self.client
    }

    /// Cancelled when the scan is to end now (a pause longer than the time left).
    pub fn stop_token(&self) -> CancellationToken {
        self.pauses.stop_token()
    }

    /// Marks the discovery phase: its 429s and 503s may end the scan.
    pub fn set_discovering(&mut self, on: bool) {
        self.pauses.set_discovering(on);
    }

    /// Hands the logs over once the phases ended.
    pub fn into_logs(mut self) -> ScanLogs {
        ScanLogs {
            transcript: self.take_transcript(),
            local: self.client.local_failure(),
            record: self.record,
            ended_early: self.pauses.into_ended_early(),
            hit_deadline: self.hit_deadline,
        }
    }

    /// Robots.txt: true when `origin`'s is still to be read in this scan (it is then counted
    /// as read); false when read already or when robots.txt is ignored.
    pub fn robots_to_read(&mut self, origin: &str) -> bool {
        let Some(read) = self.robots_read.as_mut() else {
            return false;
        };
        if read.iter().any(|o| o == origin) {
            return false;
        }
        read.push(origin.to_owned());
        true
    }

    /// Sets the rules of the robots.txt at `url` on the client; with `info`, the record's robots
    /// section becomes it (the last origin of the homepage's chain is the one discovery runs at).
    pub fn set_robots(&mut self, url: &Url, rules: Arc<RobotsRules>, info: Option<RobotsInfo>) {
        self.client.set_robots(url, rules);
        if let Some(info) = info {
            self.robots_said.retain(|said| said.url != info.url);
            self.robots_said.push(info.clone());
            self.record.robots = Some(info);
        }
    }

    /// Notes `origin`'s robots.txt as read (by a redirect chain that passed through it), and
    /// what it said, with no request of its own.
    pub fn robots_read_as(
        &mut self,
        origin: &str,
        url: &Url,
        rules: Arc<RobotsRules>,
        said: RobotsInfo,
    ) {
        if let Some(read) = self.robots_read.as_mut() {
            if !read.iter().any(|o| o == origin) {
                read.push(origin.to_owned());
            }
        }
        self.client.set_robots(url, rules);
        self.robots_said.retain(|info| info.url != said.url);
        self.robots_said.push(said);
    }

    /// Makes what the robots.txt at `url` said the record's robots section again, when this
    /// scan read it (through another origin's chain) and the section names another.
    pub fn robots_back_to(&mut self, url: &str) {
        if self.record.robots.as_ref().is_some_and(|r| r.url == url) {
            return;
        }
        if let Some(info) = self.robots_said.iter().find(|info| info.url == url) {
            self.record.robots = Some(info.clone());
        }
    }

    pub fn robots(&self) -> Option<&RobotsInfo> {
        self.record.robots.as_ref()
    }

    /// The documents logged so far, in order.
    pub fn documents(&self) -> &[DocumentLog] {
        &self.record.documents
    }

    pub fn log_document(&mut self, log: DocumentLog) {
        self.record.documents.push(log);
    }

    /// The log of the document fetched last, to note how its body read.
    pub fn last_document_mut(&mut self) -> Option<&mut DocumentLog> {
        self.record.documents.last_mut()
    }

    pub fn document_mut(&mut self, at: usize) -> Option<&mut DocumentLog> {
        self.record.documents.get_mut(at)
    }

    /// The requests logged so far, in order.
    pub fn requests(&self) -> &[RequestLog] {
        &self.record.requests
    }

    /// Logs requests made outside the discovery GETs (the session's, the probe's), in order.
    pub fn log_requests(&mut self, requests: Vec<RequestLog>) {
        self.record.requests.extend(requests);
    }

    pub fn last_request_mut(&mut self) -> Option<&mut RequestLog> {
        self.record.requests.last_mut()
    }

    pub fn redirects(&self) -> &[RedirectHop] {
        &self.record.redirects
    }

    pub fn log_redirect(&mut self, hop: RedirectHop) {
        self.record.redirects.push(hop);
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
    fn take_transcript(&mut self) -> Vec<Exchange> {
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
        accept: &'static str,
    ) -> (FetchRequest, Entry) {
        let req = Self::discovery_get(url, cap, timeout.min(self.remaining()), accept);
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

    /// The site deadline: its budget runs on the server's time, so it moves later by every
    /// wait of the site's in our own queues (DNS and connection slots, politeness, its turn on
    /// a shared address).
    pub fn deadline(&self) -> &ServerDeadline {
        &self.deadline
    }

    /// Time left before the site deadline.
    pub fn remaining(&self) -> Duration {
        self.deadline.remaining()
    }

    /// A 429 or 503 during discovery may end the scan (see `pauses.rs`).
    fn note_pause(&mut self, status: StatusCode, headers: &HeaderMap, document: bool) {
        let left = self.remaining();
        self.pauses.note(status, headers, document, left);
    }

    fn discovery_get(
        url: &Url,
        cap: usize,
        timeout: Duration,
        accept: &'static str,
    ) -> FetchRequest {
        FetchRequest::get(url.clone())
            .header(http::header::ACCEPT, HeaderValue::from_static(accept))
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
        let (req, mut entry) = self.begin(url, purpose, cap, timeout, DISCOVERY_ACCEPT);
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
        self.send_get(url, purpose, cap, timeout, false, DISCOVERY_ACCEPT)
            .await
    }

    /// A readiness GET: a document's GET (see [`SiteScan::get_document`]) with the check's own
    /// `Accept` (the homepage asked for markdown, a text file asked for text).
    pub async fn get_accepting(
        &mut self,
        url: &Url,
        purpose: &str,
        accept: &'static str,
        cap: usize,
        timeout: Duration,
    ) -> Result<FetchResponse, FetchError> {
        self.send_get(url, purpose, cap, timeout, true, accept)
            .await
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
        self.send_get(url, purpose, cap, timeout, true, DISCOVERY_ACCEPT)
            .await
    }

    async fn send_get(
        &mut self,
        url: &Url,
        purpose: &str,
        cap: usize,
        timeout: Duration,
        document: bool,
        accept: &'static str,
    ) -> Result<FetchResponse, FetchError> {
        self.robots_check(url)?;
        let (mut req, mut entry) = self.begin(url, purpose, cap, timeout, accept);
        if document {
            req = req.bare_503_is_answer();
        }
        // Boxed, as the client boxes its own part: every document reader above awaits this,
        // and inline each would hold and copy the fetch's whole state.
        let result = Box::pin(self.client.fetch(req)).await;
        match &result {
            Ok(r) => {
                entry.answered(r.status, &r.headers);
                self.note_pause(r.status, &r.headers, document);
                entry.read_body(&r.body, r.body.len() as u64);
                entry.took(r.elapsed);
                if r.truncated {
                    entry.failed(FailureKind::BodyCap, CUT_AT_CAP.to_owned());
                } else if r.closed_without_notify {
                    entry.noted(CLOSED_WITHOUT_NOTIFY);
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
