//! Placement: which endpoints are opened.

use super::*;

#[test]
fn an_endpoint_on_another_site_is_not_opened() {
    check(
        "elsewhere.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP (passed over https://other.test:PORT/mcp: on another \
             site; not opened)",
        ),
    );
    assert!(fixture().world.web.requests("other.test").is_empty());
}

#[test]
fn an_endpoint_on_a_subdomain_is_opened() {
    let record = check(
        "sub.test",
        Expect::pass(&["sub_tool"]).at(&url("api.sub.test", "/mcp"), DiscoveredVia::ServerCard),
    );
    assert!(record.session_id_issued);
}

#[test]
fn an_endpoint_on_an_excluded_subdomain_is_not_requested() {
    check(
        "excl.test",
        Expect::new(
            Outcome::NotMeasured,
            "the endpoint https://mcp.excl.test:PORT/mcp is on a subdomain the exclusion list \
             names; not requested",
        )
        .at(&url("mcp.excl.test", "/mcp"), DiscoveredVia::ServerCard),
    );
    let fx = fixture();
    assert!(fx.world.web.requests("mcp.excl.test").is_empty());
    assert_eq!(fx.world.web.dns_queries("mcp.excl.test"), 0);
}

#[test]
fn an_sse_remote_is_not_opened() {
    check(
        "sse-remote.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP (passed over https://sse-remote.test:PORT/sse: an sse \
             remote; not opened)",
        ),
    );
    assert_eq!(fixture().gets("sse-remote.test", "/sse"), 0);
}

#[test]
fn a_plain_http_endpoint_on_an_https_site_is_not_opened() {
    check(
        "http-remote.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP (passed over http://http-remote.test:PORT/plain/mcp: \
             plain HTTP on an HTTPS site; not opened)",
        ),
    );
    let plain: Vec<_> = fixture()
        .world
        .web
        .requests("http-remote.test")
        .into_iter()
        .filter(|r| !r.tls)
        .collect();
    assert!(plain.is_empty(), "{plain:?}");
}

#[test]
fn a_url_with_userinfo_is_not_opened() {
    check(
        "userinfo.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP (passed over https://user:secret@userinfo.test:PORT/cred/mcp: \
             carries a user name or password; not opened)",
        ),
    );
}

#[test]
fn a_guard_refusal_is_not_measured() {
    check(
        "guarded.test",
        Expect::new(
            Outcome::NotMeasured,
            "the scanner's guard refused to send initialize: the endpoint's address 10.9.8.7 \
             is not public (private (RFC 1918)): not measured",
        )
        .at(&url(GUARDED_SUBDOMAIN, "/mcp"), DiscoveredVia::ServerCard),
    );
    // Refused before any connection: the address is never dialled.
    assert!(fixture().world.web.requests(GUARDED_SUBDOMAIN).is_empty());
}
