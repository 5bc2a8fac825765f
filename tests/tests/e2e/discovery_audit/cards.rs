//! The discovery audit's card and catalog sites, and the endpoint card's limits.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn card_sites_report_exactly_their_findings() {
    let card = |host, ids, card: Value| {
        case(host, Some("server_card"), ids, |site| {
            site.route(SERVER_CARD, card_reply(card))
        })
    };
    let versions = "/remotes/0/supportedProtocolVersions";
    let mut cases = vec![
        case(
            "card-not-json.s2.test",
            None,
            &["MCP-CARD-001", "MCP-DISC-001"],
            |site| {
                let body = "{\"name\": \"com.example/docs\", \"version\": \"1.0.0\",}";
                site.route(SERVER_CARD, Reply::bytes(CARD_TYPE, body))
            },
        ),
        // An HTML page where the catalog says the card is.
        case(
            "card-html.s2.test",
            Some("ai_catalog"),
            &["MCP-CARD-001"],
            |site| {
                site.route(AI_CATALOG, json_reply(good_catalog()))
                    .route(LISTED_CARD, Reply::html("<!doctype html><h1>Error</h1>"))
            },
        ),
        card(
            "card-no-description.s2.test",
            &["MCP-CARD-002"],
            remove(good_card(), "/description"),
        ),
        card(
            "card-bare-name.s2.test",
            &["MCP-CARD-003"],
            set(good_card(), "/name", json!("docs")),
        ),
        card(
            "card-tools.s2.test",
            &["MCP-CARD-004"],
            add(good_card(), "", "tools", json!([{"name": "search_docs"}])),
        ),
        card(
            "card-no-remotes.s2.test",
            &["MCP-CARD-005"],
            remove(good_card(), "/remotes"),
        ),
        card(
            "card-transport.s2.test",
            &["MCP-CARD-006"],
            set(good_card(), "/remotes/0/type", json!("http")),
        ),
        card(
            "card-relative-url.s2.test",
            &["MCP-CARD-007"],
            set(good_card(), "/remotes/0/url", json!("/mcp")),
        ),
        card(
            "card-no-versions.s2.test",
            &["MCP-CARD-008"],
            remove(good_card(), versions),
        ),
        card(
            "card-unreleased.s2.test",
            &["MCP-CARD-009"],
            set(good_card(), versions, json!(["2025-09-01"])),
        ),
        card(
            "card-semver.s2.test",
            &["MCP-CARD-009"],
            set(good_card(), versions, json!(["1.0.0"])),
        ),
        card(
            "card-old.s2.test",
            &["MCP-CARD-010"],
            set(good_card(), versions, json!(["2025-03-26", "2024-11-05"])),
        ),
        case(
            "card-no-cors.s2.test",
            Some("server_card"),
            &["MCP-CARD-011"],
            |site| site.route(SERVER_CARD, doc(CARD_TYPE, &[], good_card())),
        ),
    ];
    let (web, records) = crawl(&mut cases, Vec::new()).await;
    assert_cases(&web, &records, &cases);
    let broken = record_for(&records, &web.origin("card-not-json.s2.test"));
    assert_eq!(severity_of(broken, "MCP-DISC-001"), "high");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_sites_report_exactly_their_findings() {
    let catalog = |host, ids, catalog: Value| {
        case(host, Some("ai_catalog"), ids, |site| {
            site.route(AI_CATALOG, json_reply(catalog))
                .route(LISTED_CARD, card_reply(good_card()))
        })
    };
    let mut cases = vec![
        catalog(
            "cat-no-version.s2.test",
            &["MCP-CAT-001"],
            remove(good_catalog(), "/specVersion"),
        ),
        catalog(
            "cat-incomplete.s2.test",
            &["MCP-CAT-002"],
            push_entry(
                good_catalog(),
                json!({"type": CARD_TYPE, "url": "/cards/other.json"}),
            ),
        ),
        catalog(
            "cat-entry-type.s2.test",
            &["MCP-CAT-003"],
            push_entry(
                good_catalog(),
                json!({"identifier": "urn:air:example.com:skills:x",
                       "type": "application/agent-skills+json", "url": "/skills.json"}),
            ),
        ),
        // The shapes: mediaType with a url, inline data, a nested catalog.
        catalog(
            "cat-media-type.s2.test",
            &[],
            json!({"specVersion": "1.0", "entries": [
                catalog_entry("mediaType", CARD_TYPE, ("url", json!(LISTED_CARD)))
            ]}),
        ),
        case("cat-inline.s2.test", Some("ai_catalog"), &[], |site| {
            let entry = catalog_entry("type", CARD_TYPE, ("data", good_card()));
            site.route(
                AI_CATALOG,
                json_reply(json!({"specVersion": "1.0", "entries": [entry]})),
            )
        }),
        case("cat-nested.s2.test", Some("ai_catalog"), &[], |site| {
            let nested = catalog_entry(
                "type",
                "application/ai-catalog+json",
                ("url", json!("/catalogs/mcp.json")),
            );
            site.route(
                AI_CATALOG,
                json_reply(json!({"specVersion": "1.0", "entries": [nested]})),
            )
            .route("/catalogs/mcp.json", json_reply(good_catalog()))
            .route(LISTED_CARD, card_reply(good_card()))
        }),
    ];
    let (web, records) = crawl(&mut cases, Vec::new()).await;
    assert_cases(&web, &records, &cases);
    assert_eq!(gets(&web, "cat-nested.s2.test", LISTED_CARD), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_endpoint_card_after_the_host_asked_to_slow_down() {
    let server = McpServer::new().fault_on("initialize", Fault::Status(429));
    let mut cases = vec![case("busy.s2.test", None, &["MCP-DISC-001"], |site| {
        site.route("/", home().header("link", "</mcp>; rel=\"mcp\""))
            .mcp("/mcp", &server)
    })];
    let (web, records) = crawl(&mut cases, Vec::new()).await;
    assert_cases(&web, &records, &cases);
    let busy = record_for(&records, &web.origin("busy.s2.test"));
    assert!(
        busy.outcome_reason.contains("429"),
        "{}",
        busy.outcome_reason
    );
    assert_eq!(gets(&web, "busy.s2.test", "/mcp/server-card"), 0);
    let doc = busy
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::EndpointServerCard)
        .unwrap();
    assert_eq!(
        doc.note.as_deref(),
        Some("not fetched: the host answered 429 or 503 during the scan")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_endpoint_card_ends_before_the_site_deadline() {
    // 8 s leave the session too little time; the card GET then has what is left, less 0.5 s.
    let server = McpServer::new();
    let mut cases = vec![case("hang.s2.test", None, &["MCP-DISC-001"], |site| {
        site.route("/", home().header("link", "</mcp>; rel=\"mcp\""))
            .mcp("/mcp", &server)
            .route("/mcp/server-card", Reply::hang())
    })];
    let sites = cases
        .iter_mut()
        .map(|case| std::mem::replace(&mut case.site, Site::new("unused.invalid")));
    let web = SimWeb::builder().sites(sites).start().await.unwrap();
    let crawl = WebCrawl::new();
    let inputs = [web.input("hang.s2.test")];
    let flags = [
        "--site-deadline",
        "8",
        "--per-host-rps",
        "20",
        "--per-host-burst",
        "20",
    ];
    let (_, _, records) = crawl.run(&web, &inputs, true, &flags).await;
    assert_cases(&web, &records, &cases);
    let hang = record_for(&records, &web.origin("hang.s2.test"));
    assert!(
        hang.outcome_reason.contains("too little time"),
        "the card GET must not turn the verdict into a passed deadline: {}",
        hang.outcome_reason
    );
    assert_eq!(gets(&web, "hang.s2.test", "/mcp/server-card"), 1);
    let doc = hang
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::EndpointServerCard)
        .unwrap();
    // Its own timeout (or the bound that includes the per-host wait) ended it.
    assert_eq!(doc.status, None);
    let note = doc.note.as_deref().unwrap_or_default();
    assert!(
        note.contains("timed out") || note.starts_with("no answer"),
        "{doc:?}"
    );
    assert!(hang.timings.total_ms < 8_000, "{:?}", hang.timings);
}
