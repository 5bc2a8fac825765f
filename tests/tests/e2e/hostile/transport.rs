//! Hostile transports: slow and trickled answers, huge headers, resets, TLS failures, a
//! stalled handshake, and DNS that never answers, answers garbage or chains to a refused
//! address.

use mcpcensus_simweb::{hostile, CertMode, DnsRule, Site};
use mcpcensus_store::{Outcome, Record};

use super::whole::{hostile_dns, STALL_IP};
use super::{
    assert_bounded, crawl_hostile, crawl_hostile_with, crawl_one, why, CPU_BOUND, RSS_BOUND,
};

/// Crawls the DNS rule of the set named `name` and returns its record.
async fn one_dns(name: &str) -> Record {
    let rules: Vec<DnsRule> = hostile_dns()
        .into_iter()
        .filter(|r| r.name() == name)
        .collect();
    let stall = (name == "stall.hostile.test").then_some(STALL_IP);
    let c = crawl_hostile_with(vec![], rules, &[name], stall, &[]).await;
    assert_bounded(&c.usage, RSS_BOUND, CPU_BOUND);
    c.record(name).clone()
}

/// RFC 9309 §2.3.1.3: a robots.txt that gets no answer (the site answers nothing in time)
/// means complete disallow: not measured, at once, with nothing else requested.
fn assert_robots_unreachable(r: &Record, words: &str) {
    assert_eq!(r.outcome, Outcome::NotMeasured, "{}", why(r));
    assert!(
        r.outcome_reason
            .starts_with("not measured: robots.txt got no answer ("),
        "{}",
        why(r)
    );
    assert!(r.outcome_reason.contains(words), "{}", why(r));
    assert!(
        r.requests.iter().all(|q| q.purpose == "robots"),
        "{:?}",
        r.requests
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_slow_headers() {
    assert_robots_unreachable(&crawl_one(hostile::slow_headers()).await, "timed out");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_trickled_body() {
    let r = &crawl_one(hostile::trickled_body()).await;
    // The homepage's own time runs out long before its 64 KB arrive; the scan goes on
    // (alone it ends out of scope, among many sites the site deadline may come first).
    assert!(
        matches!(r.outcome, Outcome::OutOfScope | Outcome::NotMeasured),
        "{}",
        why(r)
    );
    let home = &r.requests[0];
    assert!(home.bytes < 1024, "{home:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_huge_and_numerous_headers() {
    let r = &crawl_one(hostile::huge_headers()).await;
    assert_robots_unreachable(r, "header");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_reset_mid_answer() {
    let r = &crawl_one(hostile::reset_mid_answer()).await;
    // Over HTTP/2 the reset may overtake the response headers: either way, no verdict on
    // the server from an answer it never finished.
    assert_eq!(r.outcome, Outcome::NotMeasured, "{}", why(r));
    assert!(
        r.outcome_reason
            .contains("connection broke while initialize's answer was being read")
            || r.outcome_reason.contains("initialize got no answer"),
        "{}",
        why(r)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_tls_failures() {
    let cases = [
        (
            "expired.hostile.test",
            CertMode::Expired,
            "certificate expired",
        ),
        (
            "wrong-name.hostile.test",
            CertMode::WrongHost,
            "not valid for name",
        ),
        (
            "unknown-issuer.hostile.test",
            CertMode::SelfSigned,
            "UnknownIssuer",
        ),
        (
            "no-cert.hostile.test",
            CertMode::Missing,
            "TLS handshake failed",
        ),
    ];
    let sites: Vec<Site> = cases
        .iter()
        .map(|(n, m, _)| hostile::bad_cert(n, *m))
        .collect();
    let names: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let c = crawl_hostile(sites, vec![], &names).await;
    for (name, _, text) in cases {
        let r = c.record(name);
        assert_eq!(r.outcome, Outcome::Unreachable, "{name}: {}", why(r));
        assert!(r.outcome_reason.contains(text), "{name}: {}", why(r));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_tls_1_0_only() {
    // The crawler speaks TLS 1.2 and 1.3 only: a TLS 1.0 ServerHello ends the handshake,
    // and the site is unreachable after its first request, with the reason.
    let r = &crawl_one(hostile::tls10_only()).await;
    assert_eq!(r.outcome, Outcome::Unreachable, "{}", why(r));
    assert!(
        r.outcome_reason.contains("TLS handshake failed"),
        "{}",
        why(r)
    );
    assert!(
        r.outcome_reason.contains("ServerDoesNotSupportTls12Or13"),
        "{}",
        why(r)
    );
    assert_eq!(r.requests.len(), 1, "{:?}", r.requests);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_tls_handshake_stalls() {
    assert_robots_unreachable(&one_dns("stall.hostile.test").await, "timed out");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_dns_never_answers() {
    let r = &one_dns("silent-dns.hostile.test").await;
    assert_eq!(r.outcome, Outcome::Unreachable, "{}", why(r));
    assert!(
        r.outcome_reason.contains("DNS: no answer in time"),
        "{}",
        why(r)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_dns_answers_garbage() {
    let r = &one_dns("garbage-dns.hostile.test").await;
    assert_eq!(r.outcome, Outcome::Unreachable, "{}", why(r));
    assert!(r.outcome_reason.starts_with("DNS: "), "{}", why(r));
    assert!(
        r.addresses.is_empty(),
        "a wrong answer's address was used: {:?}",
        r.addresses
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_dns_cname_chain_to_refused_address() {
    let r = &one_dns("cname-dns.hostile.test").await;
    assert_eq!(r.outcome, Outcome::NotMeasured, "{}", why(r));
    assert!(
        r.outcome_reason
            .contains("refused by the address guard: 10.0.0.1"),
        "{}",
        why(r)
    );
    assert!(r.requests.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_wildcard_dns() {
    // Every name below wild.hostile.test resolves to one address that serves none of them.
    let rule = DnsRule::addrs(
        "*.wild.hostile.test",
        [std::net::IpAddr::from([127, 0, 0, 1])],
    );
    let names: Vec<String> = (0..50).map(|i| format!("n{i}.wild.hostile.test")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let c = crawl_hostile(vec![], vec![rule], &names).await;
    for name in names {
        let r = c.record(name);
        assert_eq!(r.outcome, Outcome::Unreachable, "{name}: {}", why(r));
        assert_eq!(r.addresses, ["127.0.0.1"], "{name}");
    }
}
