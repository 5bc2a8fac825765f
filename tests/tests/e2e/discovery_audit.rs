//! The discovery audit end to end: a simulated site per finding of the audit,
//! plus clean sites with none, crawled through the real command line; each record must carry
//! exactly the expected set of rule ids (nothing missing, nothing extra) and the expected
//! `discovery_source`. The rules are in `docs/rules.md`.

use std::collections::BTreeSet;

use mcpcensus_simweb::mcp::{Fault, McpServer};
use mcpcensus_simweb::{RecordedRequest, Reply, SimWeb, Site};
use mcpcensus_store::{DocumentKind, Record};
use serde_json::{json, Value};

use crate::util::{record_for, WebCrawl};

mod cards;

const CARD_TYPE: &str = "application/mcp-server-card+json";
/// The headers the card extension recommends.
const CORS: &[(&str, &str)] = &[
    ("access-control-allow-origin", "*"),
    ("cache-control", "public, max-age=3600"),
];
const SERVER_CARD: &str = "/.well-known/mcp/server-card.json";
const MCP_JSON: &str = "/.well-known/mcp.json";
const AI_CATALOG: &str = "/.well-known/ai-catalog.json";
const LISTED_CARD: &str = "/cards/docs.json";

/// One simulated site and what its record must say.
struct Case {
    host: &'static str,
    site: Site,
    /// The exact set of rule ids.
    ids: &'static [&'static str],
    /// The expected `discovery_source`.
    source: Option<&'static str>,
}

fn case(
    host: &'static str,
    source: Option<&'static str>,
    ids: &'static [&'static str],
    build: impl FnOnce(Site) -> Site,
) -> Case {
    Case {
        host,
        site: build(Site::new(host).route("/", home())),
        ids,
        source,
    }
}

fn home() -> Reply {
    Reply::html("<!doctype html><html><head><title>Home</title></head><body>Welcome</body></html>")
}

/// A JSON document whose `{origin}` is replaced, per request, by `https://host:port`, so it can
/// name absolute URLs as real sites do (every site shares the web's port).
fn doc(content_type: &'static str, headers: &'static [(&str, &str)], body: Value) -> Reply {
    let text = body.to_string();
    Reply::handler(move |req: &RecordedRequest| {
        let origin = format!("https://{}:{}", req.host, req.local.port());
        let mut reply = Reply::bytes(content_type, text.replace("{origin}", &origin));
        for (name, value) in headers {
            reply = reply.header(name, value);
        }
        reply
    })
}

/// A card served as the extension recommends.
fn card_reply(card: Value) -> Reply {
    doc(CARD_TYPE, CORS, card)
}

fn json_reply(body: Value) -> Reply {
    doc("application/json", &[], body)
}

/// A card with nothing to report, naming the site's own `/mcp`.
fn good_card() -> Value {
    json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
        "name": "com.example/docs",
        "version": "1.0.0",
        "description": "Search and read the Example documentation.",
        "websiteUrl": "{origin}",
        "remotes": [{
            "type": "streamable-http",
            "url": "{origin}/mcp",
            "supportedProtocolVersions": ["2026-07-28", "2025-11-25"]
        }]
    })
}

/// A manifest with nothing to report but being served.
fn good_manifest() -> Value {
    json!({
        "name": "com.example/docs",
        "description": "Search and read the Example documentation.",
        "protocolVersion": "2025-11-25",
        "endpoint": "{origin}/mcp",
        "tools": [{"name": "search_docs", "description": "Search the documentation."}],
        "resources": [{"uri": "docs://index", "name": "Index"}]
    })
}

fn catalog_entry(kind_key: &str, kind: &str, target: (&str, Value)) -> Value {
    let mut entry = json!({"identifier": "urn:air:example.com:mcp:docs"});
    entry[kind_key] = json!(kind);
    entry[target.0] = target.1;
    entry
}

/// A catalog listing the card at `LISTED_CARD`.
fn good_catalog() -> Value {
    json!({
        "specVersion": "1.0",
        "entries": [catalog_entry("type", CARD_TYPE, ("url", json!(LISTED_CARD)))]
    })
}

fn set(mut value: Value, pointer: &str, new: Value) -> Value {
    *value.pointer_mut(pointer).unwrap() = new;
    value
}

fn remove(mut value: Value, pointer: &str) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    value
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap()
        .remove(key);
    value
}

fn add(mut value: Value, pointer: &str, key: &str, new: Value) -> Value {
    value
        .pointer_mut(pointer)
        .and_then(Value::as_object_mut)
        .unwrap()
        .insert(key.to_owned(), new);
    value
}

fn push_entry(mut catalog: Value, entry: Value) -> Value {
    catalog["entries"].as_array_mut().unwrap().push(entry);
    catalog
}

/// Crawls the cases' sites (and `extra` sites, not in the input list) and returns the web and
/// the records.
async fn crawl(cases: &mut [Case], extra: Vec<Site>) -> (SimWeb, Vec<Record>) {
    let sites: Vec<Site> = cases
        .iter_mut()
        .map(|case| std::mem::replace(&mut case.site, Site::new("unused.invalid")))
        .chain(extra)
        .collect();
    let web = SimWeb::builder().sites(sites).start().await.unwrap();
    let inputs: Vec<String> = cases.iter().map(|case| web.input(case.host)).collect();
    let crawl = WebCrawl::new();
    let (_, _, records) = crawl
        .run(
            &web,
            &inputs,
            true,
            &[
                "--per-host-rps",
                "20",
                "--per-host-burst",
                "20",
                // Every site lives on 127.0.0.1: the per-IP limits would serialise them.
                "--per-ip-rps",
                "2000",
                "--per-ip-connections",
                "512",
            ],
        )
        .await;
    (web, records)
}

/// Asserts every case's exact rule ids and discovery source, reporting all mismatches at once.
fn assert_cases(web: &SimWeb, records: &[Record], cases: &[Case]) {
    let mut wrong = Vec::new();
    for case in cases {
        let record = record_for(records, &web.origin(case.host));
        let ids: BTreeSet<&str> = record.findings.iter().map(|f| f.rule_id.as_str()).collect();
        let expected: BTreeSet<&str> = case.ids.iter().copied().collect();
        if ids != expected || record.discovery_source.map(|v| v.as_str()) != case.source {
            wrong.push(format!(
                "{}: ids {ids:?}, expected {expected:?}; source {:?}, expected {:?}\n{:#?}",
                case.host, record.discovery_source, case.source, record.findings
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

fn severity_of<'a>(record: &'a Record, rule_id: &str) -> &'a str {
    record
        .findings
        .iter()
        .find(|f| f.rule_id == rule_id)
        .map(|f| f.severity.as_str())
        .unwrap_or_else(|| panic!("no {rule_id}: {:#?}", record.findings))
}

fn gets(web: &SimWeb, host: &str, path: &str) -> usize {
    web.requests(host)
        .iter()
        .filter(|r| r.method == "GET" && r.path == path)
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_sites_report_exactly_their_findings() {
    let server = McpServer::python_stateful().tools_named(&["search_docs"]);
    let link = "</mcp>; rel=\"mcp\"";
    let mut cases = vec![
        // Clean: a catalog with a version, listing a complete card served with CORS.
        case("clean.s2.test", Some("ai_catalog"), &[], |site| {
            site.route(AI_CATALOG, json_reply(good_catalog()))
                .route(LISTED_CARD, card_reply(good_card()))
                .mcp("/mcp", &server)
        }),
        // No MCP server at all: nothing to fix.
        case("none.s2.test", None, &["MCP-DISC-001"], |site| site),
        // Every path answers with the homepage: soft 404s, not adoption.
        case("spa.s2.test", None, &["MCP-DISC-001"], |site| {
            site.default(home())
        }),
        // A server announced only by a Link header: running, not discoverable.
        case("hidden.s2.test", None, &["MCP-DISC-001"], |site| {
            site.route("/", home().header("link", link))
                .mcp("/mcp", &server)
        }),
        // The card at <endpoint>/server-card, the endpoint from a Link header.
        case(
            "endpoint-card.s2.test",
            Some("endpoint_server_card"),
            &[],
            |site| {
                site.route("/", home().header("link", link))
                    .mcp("/mcp", &server)
                    .route("/mcp/server-card", card_reply(good_card()))
            },
        ),
        // A card naming an endpoint on another site: no <endpoint>/server-card there.
        case("offsite.s2.test", Some("server_card"), &[], |site| {
            let card = set(
                good_card(),
                "/remotes/0/url",
                json!("https://elsewhere.s2.test/mcp"),
            );
            site.route(SERVER_CARD, card_reply(card))
        }),
        // The legacy manifest alone, complete.
        case(
            "manifest-only.s2.test",
            Some("mcp_json"),
            &["MCP-DISC-002"],
            |site| site.route(MCP_JSON, json_reply(good_manifest())),
        ),
        // The manifest beside a card: remove it.
        case(
            "manifest-and-card.s2.test",
            Some("server_card"),
            &["MCP-DISC-002"],
            |site| {
                site.route(SERVER_CARD, card_reply(good_card()))
                    .route(MCP_JSON, json_reply(good_manifest()))
            },
        ),
    ];
    let elsewhere = Site::new("elsewhere.s2.test").mcp("/mcp", &server);
    let (web, records) = crawl(&mut cases, vec![elsewhere]).await;
    assert_cases(&web, &records, &cases);

    let record = |host: &str| record_for(&records, &web.origin(host));
    assert_eq!(severity_of(record("none.s2.test"), "MCP-DISC-001"), "info");
    assert_eq!(severity_of(record("spa.s2.test"), "MCP-DISC-001"), "info");
    assert_eq!(
        severity_of(record("hidden.s2.test"), "MCP-DISC-001"),
        "high"
    );
    assert_eq!(
        severity_of(record("manifest-only.s2.test"), "MCP-DISC-002"),
        "reported"
    );
    let advice = &record("manifest-and-card.s2.test").findings[0].evidence;
    assert!(advice.ends_with("remove the manifest"), "{advice}");

    // Soft 404s are recorded apart, at every JSON document path.
    let spa = record("spa.s2.test");
    for kind in [
        DocumentKind::ServerCard,
        DocumentKind::LegacyCard,
        DocumentKind::AiCatalog,
    ] {
        let docs: Vec<_> = spa.documents.iter().filter(|d| d.kind == kind).collect();
        assert!(!docs.is_empty(), "{kind:?}");
        assert!(docs.iter().all(|d| d.soft_404), "{docs:#?}");
    }

    // <endpoint>/server-card: one GET, after the session, for an endpoint on the site.
    for host in ["clean.s2.test", "hidden.s2.test", "endpoint-card.s2.test"] {
        assert_eq!(gets(&web, host, "/mcp/server-card"), 1, "{host}");
        let requests = web.requests(host);
        let card_at = requests
            .iter()
            .position(|r| r.path == "/mcp/server-card")
            .unwrap();
        let last_post = requests.iter().rposition(|r| r.method == "POST").unwrap();
        assert!(
            last_post < card_at,
            "{host}: the card came before the session"
        );
        let doc = record(host)
            .documents
            .iter()
            .find(|d| d.kind == DocumentKind::EndpointServerCard)
            .unwrap();
        assert_eq!(doc.url, web.url(host, "/mcp/server-card"));
    }
    let endpoint_card = record("endpoint-card.s2.test");
    assert!(endpoint_card
        .documents
        .iter()
        .any(|d| d.kind == DocumentKind::EndpointServerCard && d.parsed));
    // No endpoint, no <endpoint>/server-card; never one on another site.
    assert_eq!(gets(&web, "none.s2.test", "/mcp/server-card"), 0);
    assert!(web.requests("elsewhere.s2.test").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn manifest_sites_report_exactly_their_findings() {
    let manifest = |host, ids, manifest: Value| {
        case(host, Some("mcp_json"), ids, |site| {
            site.route(MCP_JSON, json_reply(manifest))
        })
    };
    let mut cases = vec![
        manifest(
            "man-no-name.s2.test",
            &["MCP-DISC-002", "MCP-MAN-001"],
            remove(good_manifest(), "/name"),
        ),
        manifest(
            "man-no-description.s2.test",
            &["MCP-DISC-002", "MCP-MAN-002"],
            remove(good_manifest(), "/description"),
        ),
        manifest(
            "man-some-tools.s2.test",
            &["MCP-DISC-002", "MCP-MAN-003"],
            set(
                good_manifest(),
                "/tools",
                json!([{"name": "search_docs", "description": "Search."}, {"name": "get_page"}]),
            ),
        ),
        manifest(
            "man-bare-tools.s2.test",
            &["MCP-DISC-002", "MCP-MAN-004"],
            set(good_manifest(), "/tools", json!(["search", "query"])),
        ),
        manifest(
            "man-empty-tools.s2.test",
            &["MCP-DISC-002", "MCP-MAN-005"],
            set(good_manifest(), "/tools", json!([])),
        ),
        manifest(
            "man-no-tools.s2.test",
            &["MCP-DISC-002", "MCP-MAN-006"],
            remove(good_manifest(), "/tools"),
        ),
        manifest(
            "man-no-resources.s2.test",
            &["MCP-DISC-002", "MCP-MAN-007"],
            remove(good_manifest(), "/resources"),
        ),
        manifest(
            "man-no-version.s2.test",
            &["MCP-DISC-002", "MCP-MAN-008"],
            remove(good_manifest(), "/protocolVersion"),
        ),
    ];
    let (web, records) = crawl(&mut cases, Vec::new()).await;
    assert_cases(&web, &records, &cases);
    let resources = record_for(&records, &web.origin("man-no-resources.s2.test"));
    assert_eq!(severity_of(resources, "MCP-MAN-007"), "reported");
}
