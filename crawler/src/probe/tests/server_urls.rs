//! The rules for URLs a server chose.

use url::Url;

use crate::probe::server_urls::{auth_url_rule, sse_post_rule};

fn u(text: &str) -> Url {
    Url::parse(text).expect("url")
}

#[test]
fn the_sse_post_url_must_stay_on_the_streams_origin() {
    let stream = u("https://mcp.example.com/sse");
    assert!(sse_post_rule(&stream, &u("https://mcp.example.com/messages?s=1")).is_ok());
    for other in [
        "https://evil.example.net/messages",
        "http://mcp.example.com/messages",
        "https://mcp.example.com:8443/messages",
    ] {
        assert!(sse_post_rule(&stream, &u(other)).is_err(), "{other}");
    }
}

#[test]
fn oauth_metadata_urls_are_https_named_hosts_on_443_or_the_sites_port() {
    assert!(auth_url_rule(&u("https://auth.example.net/.well-known/x"), 443).is_ok());
    assert!(auth_url_rule(&u("https://auth.example.net:8443/x"), 8443).is_ok());
    let cases = [
        ("http://auth.example.net/x", "not https"),
        ("https://10.0.0.1/x", "IP literal"),
        ("https://[::1]/x", "IP literal"),
        ("https://other.test:6379/x", "port other than 443"),
        ("https://other.test:25/x", "bad-port"),
    ];
    for (url, rule) in cases {
        let err = auth_url_rule(&u(url), 443).expect_err(url);
        assert!(err.contains(rule), "{url}: {err}");
    }
    // The site's own port is allowed unless it is a bad port itself.
    assert!(auth_url_rule(&u("https://auth.example.net:25/x"), 25).is_err());
}

#[test]
fn a_registry_remote_on_a_bad_port_is_refused() {
    use crate::probe::server_urls::registry_remote_rule;
    let url = |s: &str| url::Url::parse(s).expect("url");
    assert!(registry_remote_rule(&url("https://mcp.example.com/mcp")).is_ok());
    assert!(registry_remote_rule(&url("https://mcp.example.com:8443/mcp")).is_ok());
    for bad in [
        "https://mail.example.com:25/mcp",
        "https://box.example.com:22/",
        "https://irc.example.com:6667/mcp",
    ] {
        assert!(registry_remote_rule(&url(bad)).is_err(), "{bad}");
    }
}
