//! When a host's pause ends a site's scan: during discovery, a 429 or 503 whose Retry-After
//! is longer than the time left, or the second answer in a row that pauses the host. Either
//! ends the scan now, rather than waiting out the pause into the deadline.

use std::time::Duration;

use http::{HeaderMap, StatusCode};
use mcpcensus_store::FailureKind;
use tokio_util::sync::CancellationToken;

use crate::net::{pauses_host, retry_after};

/// Answers in a row during discovery that ask the host to be left alone (429, or a 503 that
/// pauses it) before the scan ends: one pause is waited out, a host that asks again is
/// refusing the crawl, and more requests would only be more load on it.
const PAUSES_IN_A_ROW: u8 = 2;

/// One scan's watch on the pauses its host asks for.
#[derive(Debug, Default)]
pub struct Pauses {
    /// True while discovery runs: a 429 or 503 then may end the scan.
    discovering: bool,
    /// Why the scan ended before its phases did (a pause longer than the time left, or a
    /// host that asked for a pause again).
    ended_early: Option<(FailureKind, String)>,
    /// Discovery answers in a row that paused the host.
    in_a_row: u8,
    /// Cancelled when the scan is to end now.
    stop: CancellationToken,
}

impl Pauses {
    /// Cancelled when the scan is to end now.
    pub fn stop_token(&self) -> CancellationToken {
        self.stop.clone()
    }

    /// Marks the discovery phase: its 429s and 503s may end the scan.
    pub fn set_discovering(&mut self, on: bool) {
        self.discovering = on;
    }

    /// Why the scan ended early, if it did.
    pub fn into_ended_early(self) -> Option<(FailureKind, String)> {
        self.ended_early
    }

    /// Notes an answer with `left` of the site's time left; `document`: a discovery
    /// document's, whose bare 503 does not pause the host.
    pub fn note(
        &mut self,
        status: StatusCode,
        headers: &HeaderMap,
        document: bool,
        left: Duration,
    ) {
        if !self.discovering || self.ended_early.is_some() {
            return;
        }
        // The same rule the client paused the host by.
        if !pauses_host(status, headers, !document) {
            self.in_a_row = 0;
            return;
        }
        self.in_a_row += 1;
        let code = status.as_u16();
        // Typed from the status, never from text: the pause says "not now".
        let kind = if status == StatusCode::TOO_MANY_REQUESTS {
            FailureKind::RateLimited
        } else {
            FailureKind::ServerError
        };
        if let Some(after) = retry_after(headers).filter(|after| *after > left) {
            let secs = after.as_secs();
            self.end_early(kind, format!("not measured: {code}, retry after {secs} s"));
        } else if self.in_a_row >= PAUSES_IN_A_ROW {
            self.end_early(
                kind,
                format!("not measured: {code} again after the pause it asked for"),
            );
        }
    }

    fn end_early(&mut self, kind: FailureKind, reason: String) {
        self.ended_early = Some((kind, reason));
        self.stop.cancel();
    }
}
