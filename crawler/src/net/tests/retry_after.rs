//! Retry-After's two forms, read against a fixed "now".

use std::time::{Duration, SystemTime};

use http::header::RETRY_AFTER;
use http::{HeaderMap, HeaderValue, StatusCode};

use crate::net::{pauses_host, retry_after_at};

/// 2026-01-01T00:00:00Z.
fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600)
}

fn with(value: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert(
        RETRY_AFTER,
        HeaderValue::from_str(value).expect("header value"),
    );
    headers
}

#[test]
fn delta_seconds_are_read_as_given() {
    assert_eq!(
        retry_after_at(&with("7"), now()),
        Some(Duration::from_secs(7))
    );
    assert_eq!(retry_after_at(&with(" 0 "), now()), Some(Duration::ZERO));
    assert_eq!(retry_after_at(&HeaderMap::new(), now()), None);
}

#[test]
fn a_future_http_date_is_the_time_until_it() {
    // IMF-fixdate, then the two obsolete forms RFC 9110 §5.6.7 still asks recipients to read.
    for value in [
        "Thu, 01 Jan 2026 00:02:00 GMT",
        "Thursday, 01-Jan-26 00:02:00 GMT",
        "Thu Jan  1 00:02:00 2026",
    ] {
        assert_eq!(
            retry_after_at(&with(value), now()),
            Some(Duration::from_secs(120)),
            "{value}"
        );
    }
    // Far ahead: the full wait, left for the caller's cap.
    let far = retry_after_at(&with("Fri, 31 Dec 9999 23:59:59 GMT"), now()).expect("a date");
    assert!(far > Duration::from_secs(100 * 365 * 24 * 3600));
}

#[test]
fn a_past_http_date_is_no_wait_as_zero_is() {
    for value in [
        "Wed, 31 Dec 2025 23:59:59 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Thu, 01 Jan 2026 00:00:00 GMT",
    ] {
        assert_eq!(
            retry_after_at(&with(value), now()),
            retry_after_at(&with("0"), now()),
            "{value}"
        );
    }
}

#[test]
fn garbage_is_absent() {
    for value in [
        "soon",
        "-5",
        "7.5",
        "18446744073709551616",
        "Thu, 01 Jan 2026 00:02:00",
        "Thu, 32 Jan 2026 00:02:00 GMT",
        "Thu, 01 Jan 2026 25:00:00 GMT",
        "",
    ] {
        assert_eq!(retry_after_at(&with(value), now()), None, "{value:?}");
    }
    let mut opaque = HeaderMap::new();
    opaque.insert(
        RETRY_AFTER,
        HeaderValue::from_bytes(b"\xff\xfe").expect("opaque bytes"),
    );
    assert_eq!(retry_after_at(&opaque, now()), None);
}

#[test]
fn a_503_pauses_on_either_form_but_not_on_garbage() {
    let date = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(3600));
    assert!(pauses_host(
        StatusCode::SERVICE_UNAVAILABLE,
        &with(&date),
        false
    ));
    assert!(pauses_host(
        StatusCode::SERVICE_UNAVAILABLE,
        &with("7"),
        false
    ));
    assert!(!pauses_host(
        StatusCode::SERVICE_UNAVAILABLE,
        &with("soon"),
        false
    ));
}
