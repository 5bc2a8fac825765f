use mcpcensus_store::DiscoveredVia;

use super::url;
use crate::discovery::*;

fn site(origin: &str) -> Site {
    Site::from_origin(&url(origin)).unwrap()
}

fn remote(raw: &str, via: DiscoveredVia, transport: RemoteTransport) -> Candidate {
    Candidate {
        raw: raw.to_owned(),
        base: url("https://example.com/.well-known/mcp/server-card.json"),
        via,
        transport,
    }
}

fn card_remote(raw: &str) -> Candidate {
    remote(
        raw,
        DiscoveredVia::ServerCard,
        RemoteTransport::StreamableHttp,
    )
}

fn choose(site_origin: &str, candidates: Vec<Candidate>) -> EndpointChoice {
    select_endpoint(&site(site_origin), candidates, |_| false)
}

fn chosen(choice: &EndpointChoice) -> Option<&str> {
    choice.endpoint.as_ref().map(url::Url::as_str)
}

fn reasons(choice: &EndpointChoice) -> Vec<RejectReason> {
    choice
        .rejected
        .iter()
        .map(|(_, reason)| reason.clone())
        .collect()
}

#[test]
fn same_origin_and_relative_urls() {
    let choice = choose("https://example.com", vec![card_remote("/mcp")]);
    assert_eq!(chosen(&choice), Some("https://example.com/mcp"));
    assert_eq!(choice.via, Some(DiscoveredVia::ServerCard));
    assert!(!choice.excluded_subdomain && choice.rejected.is_empty());
    let explicit_port = choose(
        "https://example.com",
        vec![card_remote("https://EXAMPLE.com.:443/mcp")],
    );
    assert_eq!(chosen(&explicit_port), Some("https://example.com./mcp"));
}

#[test]
fn subdomain_on_the_same_port_is_on_the_site() {
    let choice = choose(
        "https://example.com",
        vec![card_remote("https://api.example.com/mcp")],
    );
    assert_eq!(chosen(&choice), Some("https://api.example.com/mcp"));
    let ported = choose(
        "https://example.com:8443",
        vec![card_remote("https://a.b.example.com:8443/mcp")],
    );
    assert_eq!(chosen(&ported), Some("https://a.b.example.com:8443/mcp"));
}

#[test]
fn other_ports_parents_and_other_hosts_are_other_sites() {
    let cases = [
        ("https://example.com", "https://api.example.com:8443/mcp"),
        ("https://example.com:8443", "https://example.com/mcp"),
        // "The site's host and its subdomains": a parent domain is not one of them.
        ("https://api.example.com", "https://example.com/mcp"),
        ("https://api.example.com", "https://other.example.com/mcp"),
        ("https://example.com", "https://mcp.example.net/mcp"),
        ("https://example.com", "https://evilexample.com/mcp"),
        ("https://127.0.0.1", "https://127.0.0.2/mcp"),
    ];
    for (site_origin, endpoint) in cases {
        let choice = choose(site_origin, vec![card_remote(endpoint)]);
        assert_eq!(choice.endpoint, None, "{site_origin} {endpoint}");
        assert_eq!(
            choice.rejected,
            [(endpoint.to_owned(), RejectReason::OtherSite)],
            "{site_origin} {endpoint}"
        );
    }
}

#[test]
fn urls_and_transports_that_are_not_opened() {
    let cases = [
        (
            remote(
                "https://example.com/sse",
                DiscoveredVia::ServerCard,
                RemoteTransport::Sse,
            ),
            RejectReason::Sse,
        ),
        (
            card_remote("http://example.com/mcp"),
            RejectReason::PlainHttp,
        ),
        (
            card_remote("https://user:pw@example.com/mcp"),
            RejectReason::Credentials,
        ),
        (
            card_remote("https://token@example.com/mcp"),
            RejectReason::Credentials,
        ),
        (
            card_remote("http://user@example.com/mcp"),
            RejectReason::Credentials,
        ),
        (
            card_remote("https://{tenant}.example.com/mcp"),
            RejectReason::Templated,
        ),
        (card_remote("/mcp/{version}"), RejectReason::Templated),
        (card_remote("https://[oops/mcp"), RejectReason::Unparseable),
        (card_remote("ftp://example.com/mcp"), RejectReason::NotHttp),
        (card_remote("mailto:mcp@example.com"), RejectReason::NotHttp),
        (
            remote("/mcp", DiscoveredVia::ServerCard, RemoteTransport::Missing),
            RejectReason::NoTransport,
        ),
        (
            remote(
                "/mcp",
                DiscoveredVia::LegacyCard,
                RemoteTransport::Other("http".into()),
            ),
            RejectReason::UnrecognisedTransport("http".into()),
        ),
        // Another site is judged before the transport.
        (
            remote(
                "https://example.org/sse",
                DiscoveredVia::ServerCard,
                RemoteTransport::Sse,
            ),
            RejectReason::OtherSite,
        ),
    ];
    for (candidate, reason) in cases {
        let raw = candidate.raw.clone();
        let choice = choose("https://example.com", vec![candidate]);
        assert_eq!(choice.endpoint, None, "{raw}");
        assert_eq!(choice.rejected, [(raw.clone(), reason)], "{raw}");
    }
}

#[test]
fn rejected_candidates_give_way_to_the_next_one() {
    let choice = choose(
        "https://example.com",
        vec![
            remote(
                "https://example.com/sse",
                DiscoveredVia::ServerCard,
                RemoteTransport::Sse,
            ),
            card_remote("https://elsewhere.net/mcp"),
            card_remote("https://example.com/mcp"),
            card_remote("https://example.com/second"),
        ],
    );
    assert_eq!(chosen(&choice), Some("https://example.com/mcp"));
    assert_eq!(
        reasons(&choice),
        [RejectReason::Sse, RejectReason::OtherSite]
    );
}

#[test]
fn an_excluded_subdomain_is_the_endpoint_and_stops_the_search() {
    let asked = std::cell::RefCell::new(Vec::new());
    let choice = select_endpoint(
        &site("https://example.com"),
        vec![
            card_remote("https://mcp.optout.example.com./mcp"),
            card_remote("https://example.com/mcp"),
        ],
        |host| {
            asked.borrow_mut().push(host.to_owned());
            host.ends_with("optout.example.com")
        },
    );
    assert_eq!(chosen(&choice), Some("https://mcp.optout.example.com./mcp"));
    assert!(choice.excluded_subdomain);
    assert_eq!(asked.into_inner(), ["mcp.optout.example.com"]);

    // The site's own host is never asked: the site passed the list before the scan.
    let choice = select_endpoint(
        &site("https://example.com"),
        vec![card_remote("https://example.com/mcp")],
        |_| panic!("the origin was asked"),
    );
    assert!(!choice.excluded_subdomain);
    // A subdomain the list does not name is opened.
    let choice = select_endpoint(
        &site("https://example.com"),
        vec![card_remote("https://api.example.com/mcp")],
        |host| host == "other.example.com",
    );
    assert!(!choice.excluded_subdomain);
    assert_eq!(chosen(&choice), Some("https://api.example.com/mcp"));
}

#[test]
fn card_beats_catalog_beats_links_beats_mcp_path() {
    let origin = url("https://example.com");
    let all = [
        Candidate::mcp_path(&origin),
        remote(
            "/from-html",
            DiscoveredVia::LinkHtml,
            RemoteTransport::Implied,
        ),
        remote(
            "/from-header",
            DiscoveredVia::LinkHeader,
            RemoteTransport::Implied,
        ),
        remote(
            "/from-catalog",
            DiscoveredVia::AiCatalog,
            RemoteTransport::StreamableHttp,
        ),
        remote(
            "/from-legacy",
            DiscoveredVia::LegacyCard,
            RemoteTransport::Implied,
        ),
        card_remote("/from-card"),
    ];
    let expected = [
        ("/from-card", DiscoveredVia::ServerCard),
        ("/from-legacy", DiscoveredVia::LegacyCard),
        ("/from-catalog", DiscoveredVia::AiCatalog),
        ("/from-header", DiscoveredVia::LinkHeader),
        ("/from-html", DiscoveredVia::LinkHtml),
        ("/mcp", DiscoveredVia::McpPath),
    ];
    for (skip, (path, via)) in expected.iter().enumerate() {
        let candidates: Vec<Candidate> = all
            .iter()
            .filter(|c| !expected[..skip].iter().any(|(_, gone)| *gone == c.via))
            .cloned()
            .collect();
        let choice = choose("https://example.com", candidates);
        assert_eq!(
            chosen(&choice),
            Some(format!("https://example.com{path}").as_str())
        );
        assert_eq!(choice.via, Some(*via));
    }
    let none = choose("https://example.com", Vec::new());
    assert_eq!(
        none,
        EndpointChoice {
            endpoint: None,
            via: None,
            excluded_subdomain: false,
            rejected: Vec::new(),
        }
    );
}

#[test]
fn candidates_from_a_parsed_card_resolve_against_the_card() {
    let card = parse_card(
        Some("application/json"),
        br#"{"remotes":[{"type":"sse","url":"/sse"},{"type":"streamable-http","url":"mcp"}]}"#,
    )
    .into_parsed()
    .unwrap();
    let card_url = url("https://example.com/.well-known/mcp/server-card.json");
    let candidates = Candidate::from_card(&card, &card_url, DiscoveredVia::ServerCard);
    let choice = choose("https://example.com", candidates);
    assert_eq!(
        chosen(&choice),
        Some("https://example.com/.well-known/mcp/mcp")
    );
    assert_eq!(choice.rejected, [("/sse".to_owned(), RejectReason::Sse)]);
    assert_eq!(RejectReason::Sse.as_str(), "sse_remote");
    assert!(RejectReason::OtherSite.describe().contains("another site"));
}

#[test]
fn site_placement_and_contains() {
    let s = site("https://Example.COM");
    assert_eq!(s.host(), "example.com");
    assert_eq!(s.port(), 443);
    assert_eq!(s.place(&url("https://example.com/x")), Placement::Origin);
    assert_eq!(
        s.place(&url("https://a.example.com/x")),
        Placement::Subdomain
    );
    assert_eq!(
        s.place(&url("https://example.com:444/x")),
        Placement::Elsewhere
    );
    assert!(s.contains(&url("https://a.example.com/catalog.json")));
    assert!(!s.contains(&url("http://example.com/catalog.json")));
    assert!(!s.contains(&url("https://example.org/catalog.json")));
}
