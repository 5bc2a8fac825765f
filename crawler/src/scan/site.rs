//! One site's scan in progress: its record, its connection pool and its deadline.

use std::time::Duration;

use http::{HeaderName, HeaderValue, Method};
use mcpcensus_store::{Outcome, Record};
use tokio::time::Instant;
use url::Url;

use super::log;
use crate::net::{FetchError, FetchHead, FetchRequest, FetchResponse, SiteClient};

use crate::discovery::{DISCOVERY_ACCEPT, DISCOVERY_ACCEPT_LANGUAGE as ACCEPT_LANGUAGE};
use crate::session::Exchange;

#[derive(Debug)]
pub struct SiteScan {
    pub record: Record,
    pub client: SiteClient,
    pub deadline: Instant,
    pub origin: Url,
    /// A request ran out of time because the site deadline passed (not its own limit).
    pub hit_deadline: bool,
    /// Every request and answer in full, in order, when kept (`mcpcensus check --explain`);
    /// `None` in a crawl.
    pub transcript: Option<Vec<Exchange>>,
}

impl SiteScan {
    pub fn new(record: Record, client: SiteClient, deadline: Instant, origin: Url) -> SiteScan {
        SiteScan {
            record,
            client,
            deadline,
            origin,
            hit_deadline: false,
            transcript: None,
        }
    }

    /// Keeps every request and answer from now on (off by default: the crawl keeps only the
    /// compact request log).
    pub fn keep_transcript(&mut self) {
        self.transcript.get_or_insert_with(Vec::new);
    }

    /// Adds exchanges made elsewhere (the session's) to the transcript, when one is kept.
    pub fn extend_transcript(&mut self, exchanges: Vec<Exchange>) {
        if let Some(transcript) = self.transcript.as_mut() {
            transcript.extend(exchanges);
        }
    }

    /// Notes the body read after [`SiteScan::get_head`] on its transcript entry.
    pub fn note_body(&mut self, body: &[u8]) {
        if let Some(ex) = self.transcript.as_mut().and_then(|t| t.last_mut()) {
            ex.read_body(body, body.len() as u64);
        }
    }

    /// Starts a transcript entry for a request about to be sent, when a transcript is kept.
    fn exchange_for(&self, purpose: &str, req: &FetchRequest) -> Option<Exchange> {
        self.transcript.as_ref()?;
        Some(Exchange::request(
            purpose,
            req.method.as_str(),
            req.url.as_str(),
            &self.client.outgoing_headers(&req.headers),
            String::new(),
        ))
    }

    fn push_exchange(&mut self, exchange: Option<Exchange>) {
        if let (Some(ex), Some(transcript)) = (exchange, self.transcript.as_mut()) {
            transcript.push(ex);
        }
    }

    pub fn set_verdict(&mut self, outcome: Outcome, reason: impl Into<String>) {
        self.record.outcome = outcome;
        self.record.outcome_reason = reason.into();
    }

    /// Time left before the site deadline.
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
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
        let req = Self::discovery_get(url, cap, timeout.min(self.remaining()));
        let mut exchange = self.exchange_for(purpose, &req);
        let started = Instant::now();
        let result = self.client.fetch_head(req).await;
        let entry = match &result {
            Ok(h) => log::head(
                "GET",
                url.as_str(),
                purpose,
                h.status,
                &h.headers,
                h.elapsed,
            ),
            Err(e) => log::failure("GET", url.as_str(), purpose, e, started.elapsed()),
        };
        if let Some(ex) = exchange.as_mut() {
            match &result {
                Ok(h) => ex.answered(h.status, &h.headers),
                Err(e) => ex.error = Some(e.to_string()),
            }
        }
        self.push_exchange(exchange);
        self.record.requests.push(entry);
        result
    }

    /// A discovery GET with the seed's headers, logged in the record.
    pub async fn get(
        &mut self,
        url: &Url,
        purpose: &str,
        cap: usize,
        timeout: Duration,
    ) -> Result<FetchResponse, FetchError> {
        let req = Self::discovery_get(url, cap, timeout.min(self.remaining()));
        let mut exchange = self.exchange_for(purpose, &req);
        let started = Instant::now();
        let result = self.client.fetch(req).await;
        if let Some(ex) = exchange.as_mut() {
            match &result {
                Ok(r) => {
                    ex.answered(r.status, &r.headers);
                    ex.read_body(&r.body, r.body.len() as u64);
                    ex.error = r.truncated.then(|| format!("body cut at {cap} bytes"));
                }
                Err(e) => ex.error = Some(e.to_string()),
            }
        }
        self.push_exchange(exchange);
        if matches!(result, Err(FetchError::Timeout { .. })) && self.remaining().is_zero() {
            self.hit_deadline = true;
        }
        let entry = match &result {
            Ok(r) => log::response(Method::GET.as_str(), url.as_str(), purpose, r),
            Err(e) => log::failure(
                Method::GET.as_str(),
                url.as_str(),
                purpose,
                e,
                started.elapsed(),
            ),
        };
        self.record.requests.push(entry);
        result
    }
}
