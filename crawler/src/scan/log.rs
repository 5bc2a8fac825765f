//! The compact request log kept in each record.

use std::time::Duration;

use http::HeaderMap;
use mcpcensus_store::{Header, RequestLog};

use crate::net::{FetchError, FetchResponse};

/// Response headers worth keeping: they explain verdicts (redirects, challenges, sessions).
const KEPT_HEADERS: &[&str] = &[
    "content-type",
    "location",
    "allow",
    "www-authenticate",
    "mcp-session-id",
    "retry-after",
];
/// A kept header value is cut to this many bytes so one odd server cannot bloat a record.
const MAX_HEADER_VALUE: usize = 512;

pub fn kept_headers(headers: &HeaderMap) -> Vec<Header> {
    KEPT_HEADERS
        .iter()
        .filter_map(|name| {
            let value = headers.get(*name)?;
            let text = String::from_utf8_lossy(value.as_bytes());
            let mut value = text.into_owned();
            if value.len() > MAX_HEADER_VALUE {
                let mut cut = MAX_HEADER_VALUE;
                while !value.is_char_boundary(cut) {
                    cut -= 1;
                }
                value.truncate(cut);
            }
            Some(Header {
                name: (*name).to_owned(),
                value,
            })
        })
        .collect()
}

fn ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

pub fn response(method: &str, url: &str, purpose: &str, r: &FetchResponse) -> RequestLog {
    RequestLog {
        bytes: r.body.len() as u64,
        error: r.truncated.then(|| "body cut at the size cap".to_owned()),
        ..head(method, url, purpose, r.status, &r.headers, r.elapsed)
    }
}

/// A request whose answer's head arrived (its body not read, or read later).
pub fn head(
    method: &str,
    url: &str,
    purpose: &str,
    status: http::StatusCode,
    headers: &HeaderMap,
    took: Duration,
) -> RequestLog {
    RequestLog {
        method: method.to_owned(),
        url: url.to_owned(),
        purpose: purpose.to_owned(),
        status: Some(status.as_u16()),
        bytes: 0,
        ms: ms(took),
        error: None,
        headers: kept_headers(headers),
    }
}

pub fn failure(
    method: &str,
    url: &str,
    purpose: &str,
    error: &FetchError,
    took: Duration,
) -> RequestLog {
    RequestLog {
        method: method.to_owned(),
        url: url.to_owned(),
        purpose: purpose.to_owned(),
        status: None,
        bytes: 0,
        ms: ms(took),
        error: Some(error.to_string()),
        headers: Vec::new(),
    }
}
