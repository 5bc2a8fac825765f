//! One site's scan in progress: its record, its connection pool and its deadline.

use std::time::Duration;

use http::{HeaderName, HeaderValue, Method};
use mcpcensus_store::{Outcome, Record};
use tokio::time::Instant;
use url::Url;

use super::log;
use crate::net::{FetchError, FetchRequest, FetchResponse, SiteClient};

/// The seed's headers for discovery GETs.
pub const DISCOVERY_ACCEPT: &str =
    "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.7";
pub const ACCEPT_LANGUAGE: &str = "en";

#[derive(Debug)]
pub struct SiteScan {
    pub record: Record,
    pub client: SiteClient,
    pub deadline: Instant,
    pub origin: Url,
    /// A request ran out of time because the site deadline passed (not its own limit).
    pub hit_deadline: bool,
}

impl SiteScan {
    pub fn new(record: Record, client: SiteClient, deadline: Instant, origin: Url) -> SiteScan {
        SiteScan {
            record,
            client,
            deadline,
            origin,
            hit_deadline: false,
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

    /// A discovery GET with the seed's headers, logged in the record. `None` when no answer.
    pub async fn get(
        &mut self,
        url: &Url,
        purpose: &str,
        cap: usize,
        timeout: Duration,
    ) -> Result<FetchResponse, FetchError> {
        let req = FetchRequest::get(url.clone())
            .header(
                http::header::ACCEPT,
                HeaderValue::from_static(DISCOVERY_ACCEPT),
            )
            .header(
                HeaderName::from_static("accept-language"),
                HeaderValue::from_static(ACCEPT_LANGUAGE),
            )
            .body_cap(cap)
            .timeout(timeout.min(self.remaining()));
        let started = Instant::now();
        let result = self.client.fetch(req).await;
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
