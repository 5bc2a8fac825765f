//! Which 503s pause the host: by default every one; a request marked
//! [`FetchRequest::bare_503_is_answer`] (a discovery document) takes a 503 without
//! Retry-After as its answer.

use http::StatusCode;

use super::client::{options, url};
use super::support::{pki, start, Mode};
use crate::net::{FetchRequest, Net};

#[tokio::test]
async fn a_bare_503_pauses_the_host_unless_it_is_the_answer() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let site = net.site_client();
    let marked = FetchRequest::get(url(&server, "https", "/unavailable")).bare_503_is_answer();
    let response = site.fetch(marked).await.expect("fetch");
    assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(net.throttle().stats().slowed_hosts, 0);
    let plain = FetchRequest::get(url(&server, "https", "/unavailable"));
    let response = site.fetch(plain).await.expect("fetch");
    assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(net.throttle().stats().slowed_hosts, 1);
}

#[tokio::test]
async fn a_marked_request_still_pauses_on_429_and_on_retry_after() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let net = Net::new(options(&pki)).expect("net");
    let later = FetchRequest::get(url(&server, "https", "/unavailable-later")).bare_503_is_answer();
    let response = net.site_client().fetch(later).await.expect("fetch");
    assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(net.throttle().stats().slowed_hosts, 1);
    // A fresh crawl (its own throttle) for the 429.
    let net = Net::new(options(&pki)).expect("net");
    let marked = FetchRequest::get(url(&server, "https", "/busy")).bare_503_is_answer();
    let response = net.site_client().fetch(marked).await.expect("fetch");
    assert_eq!(response.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(net.throttle().stats().slowed_hosts, 1);
}

#[tokio::test]
async fn retry_after_as_an_http_date_pauses_the_host_and_garbage_does_not() {
    let pki = pki();
    let server = start(&pki, Mode::TlsH1).await;
    let marked = |path: &str| FetchRequest::get(url(&server, "https", path)).bare_503_is_answer();
    // An hour ahead: paused (the wait is capped by slow_down_max, as delta-seconds are).
    let net = Net::new(options(&pki)).expect("net");
    let site = net.site_client();
    let response = site
        .fetch(marked("/unavailable-until"))
        .await
        .expect("fetch");
    assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(net.throttle().stats().slowed_hosts, 1);
    let next = site.fetch(FetchRequest::get(url(&server, "https", "/ok")));
    assert!(
        tokio::time::timeout(std::time::Duration::from_millis(500), next)
            .await
            .is_err(),
        "the host is paused"
    );
    // A date already past names a Retry-After, as `0` does: the host is marked, with no wait.
    let net = Net::new(options(&pki)).expect("net");
    let site = net.site_client();
    let response = site
        .fetch(marked("/unavailable-since"))
        .await
        .expect("fetch");
    assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(net.throttle().stats().slowed_hosts, 1);
    let next = site.fetch(FetchRequest::get(url(&server, "https", "/ok")));
    let ok = tokio::time::timeout(std::time::Duration::from_secs(30), next)
        .await
        .expect("no pause")
        .expect("fetch");
    assert_eq!(ok.status, StatusCode::OK);
    // Neither form: the marked 503 is an answer, not a pause.
    let net = Net::new(options(&pki)).expect("net");
    let response = net
        .site_client()
        .fetch(marked("/unavailable-someday"))
        .await
        .expect("fetch");
    assert_eq!(response.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(net.throttle().stats().slowed_hosts, 0);
}
