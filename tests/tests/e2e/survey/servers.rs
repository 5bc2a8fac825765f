//! What every server received, whatever the site.

use super::*;

#[test]
fn no_server_receives_more_than_the_survey_allows() {
    let fx = fixture();
    let web = &fx.world.web;
    for host in web.requested_hosts() {
        let requests = web.requests(&host);
        let posts = fx.posts(&host);
        assert!(posts.len() <= 3, "{host}: {posts:?}");
        let methods: Vec<&str> = posts.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(
            methods,
            SESSION[..methods.len()],
            "{host}: methods out of the survey's order or not the survey's"
        );
        for r in &requests {
            match r.method.as_str() {
                "GET" => {
                    assert_eq!(
                        r.header("accept"),
                        Some(DISCOVERY_ACCEPT),
                        "{host} {}",
                        r.path
                    );
                    assert_eq!(r.header("accept-language"), Some("en"), "{host} {}", r.path);
                    assert!(r.body.is_empty());
                }
                "POST" => {
                    assert_eq!(
                        r.header("accept"),
                        Some("application/json, text/event-stream"),
                        "{host}"
                    );
                    assert_eq!(r.header("content-type"), Some("application/json"));
                    let message = r.json().unwrap();
                    if message["method"] == "initialize" {
                        assert_eq!(message["params"]["protocolVersion"], "2025-11-25");
                        assert!(!r.has_header("mcp-session-id"));
                        assert!(!r.has_header("mcp-protocol-version"));
                    } else {
                        assert!(r.has_header("mcp-protocol-version"), "{host}: {message}");
                    }
                }
                other => panic!("{host}: {other} {} is not the survey's", r.path),
            }
        }
        // One plain GET of /mcp per scanned site, at most, and one of each API and agent
        // surface document (they are never retried, nor asked again after a redirect).
        assert!(fx.gets(&host, "/mcp") <= 1, "{host}");
        for path in [
            "/.well-known/api-catalog",
            "/.well-known/agent-card.json",
            "/.well-known/oauth-protected-resource",
            "/.well-known/oauth-authorization-server",
        ] {
            assert!(fx.gets(&host, path) <= 1, "{host} {path}");
        }
        // The legacy A2A path is not asked.
        assert_eq!(fx.gets(&host, "/.well-known/agent.json"), 0, "{host}");
    }
    for host in ["other.test", "mcp.excl.test", GUARDED_SUBDOMAIN] {
        assert!(web.requests(host).is_empty(), "{host} was requested");
    }
    // Every scanned site has its record.
    assert_eq!(fx.records.len(), SITES.len());
    for host in EXTRA_SITES {
        assert!(fx
            .records
            .iter()
            .all(|r| r.origin.as_deref() != Some(web.origin(host).as_str())));
    }
}

#[test]
fn the_crawl_takes_the_slow_sites_side_by_side() {
    // late.test needs about 19 s of its 30 s deadline, slow.test 12 s of session: one crawl
    // of every site takes little more than the slowest.
    let fx = fixture();
    assert!(
        fx.crawl_time < Duration::from_secs(28),
        "{:?}",
        fx.crawl_time
    );
}
