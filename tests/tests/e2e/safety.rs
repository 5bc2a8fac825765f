//! Safe and polite on every request, checked on the server side: URLs a server chose, the
//! opt-out list on every host, IP-range opt-outs, robots.txt and the operator's contact.

use mcpcensus_simweb::mcp::{
    BearerAuth, LegacySseServer, McpServer, ProtectedResource, WellKnownAt,
};
use mcpcensus_simweb::{DnsRule, Reply, SimWeb, Site};
use mcpcensus_store::{FailureKind, Outcome};
use serde_json::json;

use crate::util::{record_for, WebCrawl};

const DEEP: [&str; 4] = ["--probe", "deep", "--per-host-rps", "50"];

fn linked(host: &str) -> Site {
    Site::new(host).route(
        "/",
        Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\""),
    )
}

/// A site whose endpoint refuses everything with a challenge naming `metadata_url`.
fn locked_naming(host: &str, metadata_url: &str) -> Site {
    linked(host).mcp(
        "/mcp",
        &McpServer::ts_v2().bearer_auth(BearerAuth::python_sdk().metadata_url(metadata_url)),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sse_endpoint_event_naming_another_host_sends_that_host_nothing() {
    let web = SimWeb::builder()
        .site(Site::new("elsewhere.test").route("/messages", Reply::accepted()))
        .start()
        .await
        .unwrap();
    let elsewhere = web.url("elsewhere.test", "/messages");
    web.add_site(linked("sse.test").legacy_sse(
        "/mcp",
        &LegacySseServer::new(McpServer::ts_v1_stateless().n_tools(1)).endpoint_base(&elsewhere),
    ))
    .unwrap();
    let crawl = WebCrawl::new();
    let (_, _, records) = crawl.run(&web, &[web.input("sse.test")], true, &DEEP).await;
    assert_eq!(web.request_count("elsewhere.test"), 0);
    let r = record_for(&records, &web.origin("sse.test"));
    assert!(
        r.refused_urls
            .iter()
            .any(|u| u.starts_with(&elsewhere) && u.contains("another origin")),
        "{:?}",
        r.refused_urls
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_naming_a_bad_port_or_an_ip_literal_is_not_requested() {
    let web = SimWeb::builder()
        .site(Site::new("other.test").route("/prm", Reply::json(json!({}))))
        .start()
        .await
        .unwrap();
    let literal = format!("https://127.0.0.1:{}/prm", web.port());
    web.add_site(locked_naming("port.test", "https://other.test:6379/prm"))
        .unwrap();
    web.add_site(locked_naming("literal.test", &literal))
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs = [web.input("port.test"), web.input("literal.test")];
    let (_, _, records) = crawl.run(&web, &inputs, true, &DEEP).await;
    assert_eq!(web.request_count("other.test"), 0);
    assert!(
        web.all_requests()
            .iter()
            .all(|q| !q.host.starts_with("127.")),
        "a request went to an IP literal"
    );
    let port = record_for(&records, &web.origin("port.test"));
    assert!(
        port.refused_urls
            .iter()
            .any(|u| u.contains("other.test:6379") && u.contains("port other than 443")),
        "{:?}",
        port.refused_urls
    );
    let lit = record_for(&records, &web.origin("literal.test"));
    assert!(
        lit.refused_urls
            .iter()
            .any(|u| u.starts_with(&literal) && u.contains("IP literal")),
        "{:?}",
        lit.refused_urls
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_opted_out_subdomain_and_authorization_server_get_no_request() {
    let web = SimWeb::builder()
        .site(Site::new("optout.cat.test").route("/cards/docs.json", Reply::json(json!({}))))
        .site(Site::new("as-optout.test").route("/", Reply::json(json!({}))))
        .start()
        .await
        .unwrap();
    let card = web.url("optout.cat.test", "/cards/docs.json");
    let catalog = json!({"specVersion": "1.0", "entries": [{
        "identifier": "urn:air:cat.test:mcp:docs",
        "type": "application/mcp-server-card+json", "url": card}]});
    web.add_site(Site::new("cat.test").route("/.well-known/ai-catalog.json", Reply::json(catalog)))
        .unwrap();
    web.add_site(
        linked("locked.test")
            .mcp(
                "/mcp",
                &McpServer::ts_v2().bearer_auth(BearerAuth::python_sdk()),
            )
            .protected_resource(
                "/mcp",
                &ProtectedResource::new("as-optout.test"),
                WellKnownAt::Both,
            ),
    )
    .unwrap();
    let crawl = WebCrawl::new();
    let list = crawl.path("optout.txt");
    std::fs::write(&list, "optout.cat.test\nas-optout.test\n").unwrap();
    let inputs = [web.input("cat.test"), web.input("locked.test")];
    let mut args = DEEP.to_vec();
    args.extend(["--exclude", &list]);
    let (_, _, records) = crawl.run(&web, &inputs, true, &args).await;
    assert!(web.request_count("cat.test") > 0);
    assert!(web.request_count("locked.test") > 0);
    assert_eq!(web.request_count("optout.cat.test"), 0);
    assert_eq!(web.request_count("as-optout.test"), 0);
    let locked = record_for(&records, &web.origin("locked.test"));
    assert!(
        locked
            .auth
            .as_ref()
            .is_some_and(|a| !a.metadata_urls.is_empty()),
        "the protected-resource metadata on the site itself is still read"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_excluded_range_gets_no_connection() {
    let blocked: std::net::IpAddr = [127, 0, 0, 2].into();
    let web = SimWeb::builder()
        .listen_on(blocked)
        .site(linked("blocked.test"))
        .site(linked("open.test"))
        .dns(DnsRule::addrs("blocked.test", [blocked]))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs = [web.input("blocked.test"), web.input("open.test")];
    let (_, _, records) = crawl
        .run(&web, &inputs, true, &["--exclude-net", "127.0.0.2/32"])
        .await;
    assert_eq!(web.connections(blocked).accepted, 0);
    assert_eq!(web.request_count("blocked.test"), 0);
    assert!(web.request_count("open.test") > 0);
    let r = record_for(&records, &web.origin("blocked.test"));
    assert_eq!(r.outcome, Outcome::Excluded, "{}", r.outcome_reason);
    assert!(
        r.outcome_reason.contains("127.0.0.2/32"),
        "{}",
        r.outcome_reason
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_txt_disallowing_well_known_leaves_exactly_what_it_allows() {
    let robots = "User-agent: *\nDisallow: /\n\nUser-agent: mcpcensus\nDisallow: /.well-known/\n";
    let web = SimWeb::builder()
        .site(linked("robots.test").route("/robots.txt", Reply::text(robots)))
        .site(
            Site::new("closed.test")
                .route("/robots.txt", Reply::text("User-agent: *\nDisallow: /\n")),
        )
        .site(Site::new("down.test").route("/robots.txt", Reply::status(503)))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs = [
        web.input("robots.test"),
        web.input("closed.test"),
        web.input("down.test"),
    ];
    let args = ["--contact", "mailto:ops@example.org"];
    let (_, _, records) = crawl.run(&web, &inputs, true, &args).await;

    let sent = web.requests("robots.test");
    assert_eq!(sent[0].path_only(), "/robots.txt");
    assert!(
        sent.iter()
            .all(|q| !q.path_only().starts_with("/.well-known/")),
        "{:?}",
        sent.iter()
            .map(|q| q.path_only().to_owned())
            .collect::<Vec<_>>()
    );
    assert!(sent.iter().any(|q| q.path_only() == "/"));
    let r = record_for(&records, &web.origin("robots.test"));
    let info = r.robots.as_ref().expect("robots recorded");
    assert_eq!(info.verdict, "rules");
    assert_eq!(info.status, Some(200));
    assert!(info
        .skipped
        .iter()
        .any(|u| u.ends_with("/.well-known/ai-catalog.json")));
    assert!(info
        .skipped
        .iter()
        .any(|u| u.ends_with("/.well-known/mcp.json")));
    // The API and agent surface documents follow the same robots.txt.
    for path in [
        "/.well-known/api-catalog",
        "/.well-known/agent-card.json",
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-authorization-server",
    ] {
        assert!(info.skipped.iter().any(|u| u.ends_with(path)), "{path}");
    }
    // Nothing skipped was requested, and every GET that reached the server was allowed.
    for q in sent.iter().filter(|q| q.method == "GET") {
        let sent_url = web.url("robots.test", q.path_only());
        assert!(!info.skipped.contains(&sent_url), "{sent_url}");
    }

    // The site's own rules are `robots`; a 503 robots.txt is the server's failure (RFC 9309's
    // complete disallow all the same), docs/rules.md "robots.txt: a quirk is not a failure".
    for (host, kind) in [
        ("closed.test", FailureKind::Robots),
        ("down.test", FailureKind::ServerError),
    ] {
        let r = record_for(&records, &web.origin(host));
        // Scanned and not measured, not skipped: the site stays in the sites scanned.
        assert_eq!(
            r.outcome,
            Outcome::NotMeasured,
            "{host}: {}",
            r.outcome_reason
        );
        assert_eq!(r.reason_kind, Some(kind), "{host}");
        assert!(
            r.outcome_reason.contains("robots.txt"),
            "{}",
            r.outcome_reason
        );
        let paths: Vec<_> = web
            .requests(host)
            .iter()
            .map(|q| q.path_only().to_owned())
            .collect();
        assert_eq!(paths, ["/robots.txt"], "{host}");
    }
    assert_eq!(
        record_for(&records, &web.origin("down.test"))
            .robots
            .as_ref()
            .map(|i| i.verdict.as_str()),
        Some("disallow_all")
    );
    let ua = sent[0].header("user-agent").unwrap_or_default().to_owned();
    assert!(ua.starts_with("mcpcensus/"), "{ua}");
    assert!(
        ua.contains("docs/bot.md") && ua.contains("contact: mailto:ops@example.org"),
        "{ua}"
    );
}
