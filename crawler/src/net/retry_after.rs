//! Which answers pause their host, and for how long (RFC 9110 §10.2.3 Retry-After).

use std::time::{Duration, SystemTime};

use http::header::RETRY_AFTER;
use http::{HeaderMap, StatusCode};

/// Whether an answer asks for its host to be paused: a 429, or a 503 that names a Retry-After
/// or (`pause_on_bare_503`) comes from a URL that speaks for the host.
pub fn pauses_host(status: StatusCode, headers: &HeaderMap, pause_on_bare_503: bool) -> bool {
    match status {
        StatusCode::TOO_MANY_REQUESTS => true,
        StatusCode::SERVICE_UNAVAILABLE => pause_on_bare_503 || retry_after(headers).is_some(),
        _ => false,
    }
}

/// Retry-After as a wait from now (see [`retry_after_at`]).
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    retry_after_at(headers, SystemTime::now())
}

/// Retry-After as a wait from `now`: delta-seconds as given; an HTTP-date as the time until
/// it, zero once it has passed (as `0` is); anything else (or no header) is `None`. Callers
/// cap the wait as they cap delta-seconds.
pub fn retry_after_at(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}
