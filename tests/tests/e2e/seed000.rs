//! Seed 000 ("MCP server answers and lists its tools") end to end: one crawl of the simulated
//! web in `seed000_sites.rs` (a site per rule of the seed), the real command line and
//! pipeline, then one test per rule asserting the record (outcome, reason, defect, endpoint,
//! discovered_via, tool names, protocol version) and what the servers received (POST count,
//! order and methods), and a test comparing `mcpcensus export --format jsonl` with the
//! checked-in `expected/seed000.jsonl`.
//!
//! The crawl runs once per test process (about 20 s, the time `late.test` needs to use up
//! its deadline; `slow.test`'s 12 s session runs alongside it) on a runtime of its own that
//! outlives each test, so the per-rule tests are plain `#[test]`s reading the same records.
//!
//! Regenerating the expected export after an intended change of the records:
//!
//! ```text
//! MCPCENSUS_BLESS=1 cargo test -p mcpcensus-simweb --test e2e seed000::export
//! ```
//!
//! then review the diff of `tests/tests/e2e/expected/seed000.jsonl` like code: every changed
//! line is a changed verdict or record a user will see.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use mcpcensus::discovery::DISCOVERY_ACCEPT;
use mcpcensus_store::{DiscoveredVia, DocumentKind, Outcome, Record};
use serde_json::Value;

use crate::seed000_sites::{
    self as sites, step_of, World, EXCLUDED, EXTRA_SITES, GUARDED_SUBDOMAIN, SITES,
};
use crate::util::{mcpcensus, record_for, WebCrawl};

/// The session's methods, in the only order they may come.
const SESSION: [&str; 3] = ["initialize", "notifications/initialized", "tools/list"];
const INITIALIZE: &[&str] = &["initialize"];
const HANDSHAKE: &[&str] = &["initialize", "notifications/initialized"];
const NO_POST: &[&str] = &[];

/// The crawl every test reads.
struct Fixture {
    world: World,
    records: Vec<Record>,
    /// `mcpcensus export --format jsonl` of the crawl, as written.
    export: String,
    crawl_time: Duration,
    /// Keeps the web's tasks running for the whole test process.
    _runtime: tokio::runtime::Runtime,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Result<Fixture, String>> = OnceLock::new();
    let built = FIXTURE.get_or_init(|| {
        // A failed crawl fails every test once, rather than being retried by each of them.
        std::panic::catch_unwind(AssertUnwindSafe(build_fixture)).map_err(|panic| {
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "a panic".to_owned())
        })
    });
    match built {
        Ok(fixture) => fixture,
        Err(why) => panic!("the seed 000 crawl failed: {why}"),
    }
}

fn build_fixture() -> Fixture {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (world, records, export, crawl_time) = runtime.block_on(async {
        let world = sites::start().await;
        let crawl = WebCrawl::new();
        let exclude = crawl.path("exclude.txt");
        std::fs::write(&exclude, EXCLUDED.join("\n")).unwrap();
        let inputs: Vec<String> = SITES.iter().map(|host| world.web.input(host)).collect();
        let started = Instant::now();
        let (code, _, records) = crawl
            .run(
                &world.web,
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
                    "--exclude",
                    &exclude,
                ],
            )
            .await;
        let crawl_time = started.elapsed();
        assert_eq!(code, std::process::ExitCode::SUCCESS);
        let out = crawl.path("export.jsonl");
        let store = crawl.path("store");
        let args = ["export", "--from", &store, "--format", "jsonl", "-o", &out];
        assert_eq!(
            mcpcensus(&args).await.unwrap(),
            std::process::ExitCode::SUCCESS
        );
        let export = std::fs::read_to_string(&out).unwrap();
        (world, records, export, crawl_time)
    });
    Fixture {
        world,
        records,
        export,
        crawl_time,
        _runtime: runtime,
    }
}

/// What one site's record and its servers must show. Every field is asserted: what a test
/// does not set must be absent (no endpoint, no tools, no protocol version, no POST).
#[derive(Debug, Clone)]
struct Expect {
    outcome: Outcome,
    /// The exact reason (`PORT` stands for the web's port) unless `reason_is_part`.
    reason: String,
    reason_is_part: bool,
    defect: bool,
    /// The endpoint URL (`PORT` for the port) and how it was found.
    endpoint: Option<(String, DiscoveredVia)>,
    tools: Vec<String>,
    version: Option<&'static str>,
    /// The JSON-RPC methods the endpoint received, in order.
    posts: &'static [&'static str],
}

impl Expect {
    fn new(outcome: Outcome, reason: &str) -> Expect {
        Expect {
            outcome,
            reason: reason.to_owned(),
            reason_is_part: false,
            defect: false,
            endpoint: None,
            tools: Vec::new(),
            version: None,
            posts: NO_POST,
        }
    }

    /// Pass with these tools over the whole session, protocol 2025-11-25.
    fn pass(tools: &[&str]) -> Expect {
        let noun = if tools.len() == 1 { "tool" } else { "tools" };
        Expect::new(
            Outcome::Pass,
            &format!(
                "tools/list names {} {noun} (protocol version 2025-11-25)",
                tools.len()
            ),
        )
        .tools(tools)
        .version("2025-11-25")
        .posts(&SESSION)
    }

    /// The reason only has to contain `part`.
    fn reason_contains(mut self, part: &str) -> Expect {
        self.reason = part.to_owned();
        self.reason_is_part = true;
        self
    }

    fn defect(mut self) -> Expect {
        self.defect = true;
        self
    }

    fn at(mut self, endpoint: &str, via: DiscoveredVia) -> Expect {
        self.endpoint = Some((endpoint.to_owned(), via));
        self
    }

    fn tools(mut self, tools: &[&str]) -> Expect {
        self.tools = tools.iter().map(|t| (*t).to_owned()).collect();
        self
    }

    fn version(mut self, version: &'static str) -> Expect {
        self.version = Some(version);
        self
    }

    fn posts(mut self, posts: &'static [&'static str]) -> Expect {
        self.posts = posts;
        self
    }
}

impl Fixture {
    fn port(&self) -> u16 {
        self.world.web.port()
    }

    fn with_port(&self, text: &str) -> String {
        text.replace("PORT", &self.port().to_string())
    }

    fn record(&self, host: &str) -> &Record {
        record_for(&self.records, &self.world.web.origin(host))
    }

    /// POSTs `host` received: (path, JSON-RPC method).
    fn posts(&self, host: &str) -> Vec<(String, String)> {
        self.world
            .web
            .requests(host)
            .iter()
            .filter(|r| r.method == "POST")
            .map(|r| {
                let method = r
                    .json()
                    .and_then(|m| m.get("method").and_then(Value::as_str).map(str::to_owned))
                    .unwrap_or_default();
                (r.path_only().to_owned(), method)
            })
            .collect()
    }

    /// GETs of `path` that `host` received.
    fn gets(&self, host: &str, path: &str) -> usize {
        self.world
            .web
            .requests(host)
            .iter()
            .filter(|r| r.method == "GET" && r.path_only() == path)
            .count()
    }

    /// Asserts everything `expect` says about the record of `host` and its servers.
    fn check(&self, host: &str, expect: &Expect) -> &Record {
        let record = self.record(host);
        let reason = &record.outcome_reason;
        let what = format!("{host}: {} — {reason}", record.outcome);
        assert_eq!(record.outcome, expect.outcome, "{what}");
        let wanted = self.with_port(&expect.reason);
        if expect.reason_is_part {
            assert!(reason.contains(&wanted), "{what}\nwanted a part: {wanted}");
        } else {
            assert_eq!(reason, &wanted, "{what}");
        }
        assert_eq!(record.defect, expect.defect, "defect of {what}");
        let endpoint = expect.endpoint.as_ref().map(|(url, _)| self.with_port(url));
        assert_eq!(record.endpoint, endpoint, "endpoint of {what}");
        let via = expect.endpoint.as_ref().map(|(_, via)| *via);
        assert_eq!(record.discovered_via, via, "discovered_via of {what}");
        assert_eq!(record.tool_names, expect.tools, "tool_names of {what}");
        let seed: Vec<String> = expect.tools.iter().take(25).cloned().collect();
        assert_eq!(
            record.tool_names_first_25.0, seed,
            "tool_names_first_25 of {what}"
        );
        if !expect.tools.is_empty() {
            assert_eq!(record.tool_count, Some(expect.tools.len() as u32), "{what}");
        }
        assert_eq!(
            record.protocol_version.as_deref(),
            expect.version,
            "protocol_version of {what}"
        );

        // The server side: the POSTs the endpoint's host received, and none elsewhere.
        let endpoint_parts = endpoint.as_deref().map(host_and_path);
        let endpoint_host = endpoint_parts.as_ref().map(|(h, _)| h.clone());
        let target = endpoint_host.clone().unwrap_or_else(|| host.to_owned());
        let posts = self.posts(&target);
        let methods: Vec<&str> = posts.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(methods, expect.posts, "POSTs received by {target} ({what})");
        if let Some((_, endpoint_path)) = &endpoint_parts {
            assert!(
                posts.iter().all(|(path, _)| path == endpoint_path),
                "POSTs off the endpoint on {target}: {posts:?}"
            );
        }
        if endpoint_host.as_deref().is_some_and(|h| h != host) {
            assert!(self.posts(host).is_empty(), "POSTs to {host} itself");
        }
        record
    }
}

/// The host and path of an `https://[user@]host:port/path` URL.
fn host_and_path(url: &str) -> (String, String) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host.split_once(':').map_or(host, |(h, _)| h);
    (host.to_owned(), format!("/{path}"))
}

fn check(host: &str, expect: Expect) -> &'static Record {
    fixture().check(host, &expect)
}

fn url(host: &str, path: &str) -> String {
    format!("https://{host}:PORT{path}")
}

// ---------------------------------------------------------------------------------------
// Discovery: where the endpoint comes from, in the seed's order.
// ---------------------------------------------------------------------------------------

#[test]
fn server_card_names_the_endpoint() {
    check(
        "card.test",
        Expect::pass(&["search", "fetch"])
            .at(&url("card.test", "/api/mcp"), DiscoveredVia::ServerCard),
    );
    // /mcp is still requested once, with one plain GET; nothing is posted there.
    assert_eq!(fixture().gets("card.test", "/mcp"), 1);
}

#[test]
fn legacy_card_paths_name_the_endpoint() {
    // The folk manifest in its pre-SEP shape (transport.endpoint), served as text/plain.
    check(
        "legacy-json.test",
        Expect::pass(&["lookup"]).at(&url("legacy-json.test", "/rpc"), DiscoveredVia::LegacyCard),
    );
    check(
        "legacy-dashed.test",
        Expect::pass(&["dashed"]).at(
            &url("legacy-dashed.test", "/dashed/mcp"),
            DiscoveredVia::LegacyCard,
        ),
    );
    check(
        "legacy-bare.test",
        Expect::pass(&["bare"]).at(
            &url("legacy-bare.test", "/bare/mcp"),
            DiscoveredVia::LegacyCard,
        ),
    );
}

#[test]
fn catalog_lists_a_card_url() {
    let record = check(
        "catalog.test",
        Expect::pass(&["forecast"]).at(&url("catalog.test", "/v1/mcp"), DiscoveredVia::AiCatalog),
    );
    let fx = fixture();
    assert_eq!(fx.gets("catalog.test", "/cards/weather.json"), 1);
    // The A2A entry is not a server card: not fetched.
    assert_eq!(fx.gets("catalog.test", "/agent.json"), 0);
    assert!(record
        .documents
        .iter()
        .any(|d| d.kind == DocumentKind::CatalogCard && d.parsed));
}

#[test]
fn catalog_with_an_inline_card() {
    check(
        "inline.test",
        Expect::pass(&["inline_tool"])
            .at(&url("inline.test", "/inline/mcp"), DiscoveredVia::AiCatalog),
    );
}

#[test]
fn nested_catalog_lists_the_card() {
    check(
        "nested.test",
        Expect::pass(&["team_tool"]).at(&url("nested.test", "/team/mcp"), DiscoveredVia::AiCatalog),
    );
    let fx = fixture();
    assert_eq!(fx.gets("nested.test", "/catalogs/team.json"), 1);
    assert_eq!(fx.gets("nested.test", "/cards/team.json"), 1);
}

#[test]
fn link_header_names_the_endpoint() {
    check(
        "link-header.test",
        Expect::pass(&["linked"]).at(
            &url("link-header.test", "/rpc/mcp"),
            DiscoveredVia::LinkHeader,
        ),
    );
}

#[test]
fn html_link_element_names_the_endpoint() {
    check(
        "link-html.test",
        Expect::pass(&["linked_html"])
            .at(&url("link-html.test", "/srv/mcp"), DiscoveredVia::LinkHtml),
    );
}

#[test]
fn mcp_get_405_with_allow_post_signals() {
    check(
        "get-405.test",
        Expect::pass(&["echo"]).at(&url("get-405.test", "/mcp"), DiscoveredVia::McpPath),
    );
}

#[test]
fn mcp_get_answering_a_json_rpc_message_signals() {
    // The Python SDK, stateful: GET without a session gets 400 with a JSON-RPC error body and
    // a fresh session id; the session then uses the id its own initialize was given.
    let record = check(
        "get-jsonrpc.test",
        Expect::pass(&["py_tool"]).at(&url("get-jsonrpc.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert!(record.session_id_issued);
    let calls = fixture().world.server("get-jsonrpc.test").calls();
    let posts: Vec<_> = calls.iter().filter(|c| c.http_method == "POST").collect();
    assert_eq!(posts.len(), 3, "{calls:?}");
    let session = fixture().world.server("get-jsonrpc.test").sessions();
    assert_eq!(session.len(), 2, "one id from the GET, one from initialize");
    assert_eq!(posts[0].session_id, None);
    assert!(posts[1].session_id.is_some());
    assert_eq!(posts[1].session_id, posts[2].session_id);
}

#[test]
fn mcp_get_answering_an_endless_event_stream_signals_at_once() {
    // The Python SDK, stateless: the GET opens an event stream that never ends. It counts as
    // soon as its headers arrive and costs the scan nothing more.
    let record = check(
        "get-stream.test",
        Expect::pass(&["stream_tool"]).at(&url("get-stream.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert!(!record.session_id_issued);
    assert!(
        record.timings.total_ms < 4_000,
        "the endless GET held the scan: {:?}",
        record.timings
    );
}

#[test]
fn mcp_get_405_with_a_json_rpc_body_and_no_allow_signals() {
    // The TypeScript SDK v1, stateless.
    check(
        "get-405-rpc.test",
        Expect::pass(&["ts_tool"]).at(&url("get-405-rpc.test", "/mcp"), DiscoveredVia::McpPath),
    );
}

#[test]
fn ts_v1_stateful_gives_no_signal_at_mcp_but_its_card_finds_it() {
    // GET /mcp answers 400 text/html "Missing session ID": no MCP signal. With a card the
    // endpoint is found and passes; without one the site is out of scope and nothing is posted.
    let record = check(
        "ts-v1-card.test",
        Expect::pass(&["ts_card_tool"])
            .at(&url("ts-v1-card.test", "/mcp"), DiscoveredVia::ServerCard),
    );
    assert!(record.session_id_issued);
    let nocard = check(
        "ts-v1-nocard.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP",
        ),
    );
    let mcp_doc = nocard
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::McpPath)
        .unwrap();
    assert_eq!(mcp_doc.status, Some(400));
    assert_eq!(mcp_doc.note.as_deref(), Some("html"));
}

#[test]
fn held_back_mcp_get_does_not_eat_the_sessions_time() {
    // Behind nginx the stateless server's GET headers never arrive: the GET gives up after
    // its own short timeout and the session still gets its 12 s.
    let record = check(
        "held-back.test",
        Expect::pass(&["nginx_tool"]).at(&url("held-back.test", "/mcp"), DiscoveredVia::ServerCard),
    );
    let mcp_doc = record
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::McpPath)
        .unwrap();
    assert_eq!(mcp_doc.status, None);
    let limit = mcpcensus::scan::MCP_GET_TIMEOUT.as_millis() as u32;
    assert!(
        record.timings.total_ms < limit + 4_000,
        "{:?}",
        record.timings
    );
}

#[test]
fn soft_404_pages_are_no_cards() {
    let record = check(
        "soft404.test",
        Expect::pass(&["soft"]).at(&url("soft404.test", "/mcp"), DiscoveredVia::McpPath),
    );
    let card = record
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::ServerCard)
        .unwrap();
    assert!(card.soft_404 && !card.parsed, "{card:?}");
}

#[test]
fn the_server_card_comes_before_the_catalog_links_and_mcp() {
    check(
        "order.test",
        Expect::pass(&["from_card"]).at(&url("order.test", "/a/mcp"), DiscoveredVia::ServerCard),
    );
    check(
        "order-catalog.test",
        Expect::pass(&["from_catalog"]).at(
            &url("order-catalog.test", "/b/mcp"),
            DiscoveredVia::AiCatalog,
        ),
    );
}

#[test]
fn an_sse_remote_is_passed_over_for_the_next_one() {
    check(
        "sse-first.test",
        Expect::pass(&["streamable"]).at(
            &url("sse-first.test", "/stream/mcp"),
            DiscoveredVia::ServerCard,
        ),
    );
    assert_eq!(fixture().gets("sse-first.test", "/sse"), 0);
}

#[test]
fn a_redirect_at_mcp_is_not_followed_and_not_measured() {
    // "No redirect is followed: a 3xx answer is reported as "redirects; not followed", and the
    // check is not measured." With no document naming an endpoint, /mcp decides.
    check(
        "redirect-get.test",
        Expect::new(Outcome::NotMeasured, "redirects; not followed"),
    );
    assert_eq!(fixture().gets("redirect-get.test", "/mcp/"), 0);
}

#[test]
fn an_error_status_at_mcp_is_no_signal() {
    let record = check(
        "get-403.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP",
        ),
    );
    let mcp_doc = record
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::McpPath)
        .unwrap();
    assert_eq!(mcp_doc.status, Some(403));
}

#[test]
fn no_answer_at_mcp_is_not_measured_not_out_of_scope() {
    // Out of scope needs "/mcp answered without signalling MCP"; this one did not answer.
    let record = check(
        "get-noanswer.test",
        Expect::new(
            Outcome::NotMeasured,
            "no document names an endpoint the scan opens, and the GET of /mcp got no answer \
             (no answer within 5 s): not measured",
        ),
    );
    let limit = mcpcensus::scan::MCP_GET_TIMEOUT.as_millis() as u32;
    assert!(
        record.timings.total_ms < limit + 4_000,
        "{:?}",
        record.timings
    );
}

#[test]
fn a_plain_site_is_out_of_scope() {
    check(
        "plain.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP",
        ),
    );
}

// ---------------------------------------------------------------------------------------
// Placement: which endpoints are opened.
// ---------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------
// The session and its verdicts.
// ---------------------------------------------------------------------------------------

#[test]
fn a_401_with_a_challenge_is_partial() {
    let record = check(
        "auth-challenge.test",
        Expect::new(
            Outcome::Partial,
            "initialize answered 401 with a WWW-Authenticate challenge (Bearer): an agent can \
             use it with authorization",
        )
        .at(
            &url("auth-challenge.test", "/mcp"),
            DiscoveredVia::ServerCard,
        )
        .posts(INITIALIZE),
    );
    assert!(record.tool_names.is_empty());
}

#[test]
fn a_401_at_mcp_is_no_signal_whatever_its_challenge() {
    check(
        "auth-nocard.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP",
        ),
    );
}

#[test]
fn a_401_without_a_challenge_is_not_measured() {
    check(
        "auth-bare.test",
        Expect::new(
            Outcome::NotMeasured,
            "initialize answered 401 (unauthorized) without a WWW-Authenticate challenge: not \
             measured",
        )
        .at(&url("auth-bare.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
}

/// What a site whose server fails at `step` must show besides the outcome and reason.
fn failing_at(host: &str, outcome: Outcome, reason: &str) -> Expect {
    let step = step_of(host);
    let (posts, version): (&'static [&'static str], _) = match step {
        "initialize" => (INITIALIZE, None),
        "notifications/initialized" => (HANDSHAKE, Some("2025-11-25")),
        _ => (&SESSION, Some("2025-11-25")),
    };
    let mut expect = Expect::new(outcome, reason)
        .at(&url(host, "/mcp"), DiscoveredVia::McpPath)
        .posts(posts);
    expect.version = version;
    expect
}

#[test]
fn status_403_429_and_5xx_at_each_step_are_not_measured() {
    for status in ["403", "429", "500"] {
        let words = match status {
            "403" => "403 (forbidden)",
            "429" => "429 (too many requests)",
            _ => "500 (internal server error)",
        };
        for step in ["init", "notif", "tools"] {
            let host = format!("s{status}-{step}.test");
            let reason = format!("{} answered {words}: not measured", step_of(&host));
            check(&host, failing_at(&host, Outcome::NotMeasured, &reason));
        }
    }
}

#[test]
fn a_redirect_at_each_step_is_not_followed() {
    for step in ["init", "notif", "tools"] {
        let host = format!("redirect-{step}.test");
        check(
            &host,
            failing_at(&host, Outcome::NotMeasured, "redirects; not followed"),
        );
        assert!(
            fixture()
                .world
                .web
                .requests(&host)
                .iter()
                .all(|r| r.path_only() != "/moved/mcp"),
            "{host}: the redirect was followed"
        );
    }
}

#[test]
fn an_html_page_fails_with_a_defect() {
    check(
        "html-init.test",
        failing_at(
            "html-init.test",
            Outcome::Fail,
            "initialize answered 200 (ok) with an HTML page instead of JSON-RPC",
        )
        .defect(),
    );
}

#[test]
fn a_json_rpc_error_fails_with_a_defect() {
    check(
        "rpc-error.test",
        Expect::new(
            Outcome::Fail,
            "initialize answered a JSON-RPC error: code -32603 \"Internal error\"",
        )
        .defect()
        .at(&url("rpc-error.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
    check(
        "rpc-error-tools.test",
        failing_at(
            "rpc-error-tools.test",
            Outcome::Fail,
            "tools/list answered a JSON-RPC error: code -32603 \"Database down\"",
        )
        .defect(),
    );
}

#[test]
fn a_body_without_a_json_rpc_answer_fails_with_a_defect() {
    check(
        "not-json.test",
        Expect::new(
            Outcome::Fail,
            "initialize answered 200 (ok) with a body that is neither JSON nor an event \
             stream: no JSON-RPC answer",
        )
        .defect()
        .at(&url("not-json.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
}

#[test]
fn another_error_status_fails() {
    check(
        "status-404.test",
        Expect::new(Outcome::Fail, "initialize answered 404 (not found)")
            .defect()
            .at(&url("status-404.test", "/mcp"), DiscoveredVia::McpPath)
            .posts(INITIALIZE),
    );
    // A result counts only in a 2xx answer; the server did answer, so no defect.
    check(
        "result-in-400.test",
        Expect::new(
            Outcome::Fail,
            "initialize answered 400 (bad request) with a JSON-RPC result, which counts only \
             in a 2xx answer",
        )
        .at(&url("result-in-400.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
}

#[test]
fn no_answer_is_not_measured() {
    check(
        "reset.test",
        Expect::new(Outcome::NotMeasured, "")
            .reason_contains("initialize got no answer (")
            .at(&url("reset.test", "/mcp"), DiscoveredVia::McpPath)
            .posts(INITIALIZE),
    );
}

#[test]
fn no_tools_capability_is_partial_and_sends_no_tools_list() {
    let record = check(
        "no-tools-cap.test",
        Expect::new(
            Outcome::Partial,
            "initialize succeeded but the server declares no tools capability, so tools/list \
             was not sent",
        )
        .at(&url("no-tools-cap.test", "/mcp"), DiscoveredVia::McpPath)
        .version("2025-11-25")
        .posts(HANDSHAKE),
    );
    assert_eq!(record.tool_count, None);
}

#[test]
fn an_empty_tool_list_is_partial() {
    let record = check(
        "empty-tools.test",
        Expect::new(
            Outcome::Partial,
            "initialize succeeded but tools/list names no tool",
        )
        .at(&url("empty-tools.test", "/mcp"), DiscoveredVia::McpPath)
        .version("2025-11-25")
        .posts(&SESSION),
    );
    assert_eq!(record.tool_count, Some(0));
}

#[test]
fn later_requests_echo_the_session_id_and_send_the_protocol_version() {
    let record = check(
        "session.test",
        Expect::pass(&["session_tool"]).at(&url("session.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert!(record.session_id_issued);
    let server = fixture().world.server("session.test");
    let minted = server.sessions();
    assert_eq!(minted.len(), 1);
    let posts: Vec<_> = server
        .calls()
        .into_iter()
        .filter(|c| c.http_method == "POST")
        .collect();
    assert_eq!(posts.len(), 3);
    assert_eq!(posts[0].session_id, None);
    assert_eq!(posts[0].protocol_header, None);
    for later in &posts[1..] {
        assert_eq!(later.session_id.as_ref(), Some(&minted[0]), "{later:?}");
        assert_eq!(later.protocol_header.as_deref(), Some("2025-11-25"));
        assert!((200..300).contains(&later.status), "{later:?}");
    }
}

#[test]
fn an_event_stream_with_priming_and_notifications_before_the_answer_passes() {
    let record = check(
        "sse-priming.test",
        Expect::pass(&["primed"]).at(&url("sse-priming.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert!(record.session_id_issued);
}

#[test]
fn the_notifications_answer_body_is_never_read() {
    check(
        "notif-html.test",
        Expect::pass(&["echo"]).at(&url("notif-html.test", "/mcp"), DiscoveredVia::McpPath),
    );
}

#[test]
fn an_answer_over_64_kb_fails_with_a_defect() {
    check(
        "oversize-tools.test",
        failing_at(
            "oversize-tools.test",
            Outcome::Fail,
            "tools/list answered 200 (ok) with more than 64 KB, and the first 64 KB hold no \
             complete answer: no JSON-RPC answer",
        )
        .defect(),
    );
}

#[test]
fn thirty_tools_keep_25_in_the_seed_field() {
    let names: Vec<String> = (1..=30).map(|i| format!("tool_{i:02}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let record = check(
        "tools30.test",
        Expect::pass(&names).at(&url("tools30.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert_eq!(record.tool_names_first_25.len(), 25);
    assert_eq!(record.tool_names.len(), 30);
    assert_eq!(record.tool_count, Some(30));
}

#[test]
fn the_version_the_server_answers_is_accepted() {
    let record = check(
        "old-proto.test",
        Expect::new(
            Outcome::Pass,
            "tools/list names 1 tool (protocol version 2025-03-26)",
        )
        .tools(&["old_tool"])
        .version("2025-03-26")
        .at(&url("old-proto.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(&SESSION),
    );
    assert_eq!(record.protocol_version.as_deref(), Some("2025-03-26"));
    let calls = fixture().world.server("old-proto.test").calls();
    let posts: Vec<_> = calls.iter().filter(|c| c.http_method == "POST").collect();
    assert_eq!(posts[0].protocol_header, None);
    for later in &posts[1..] {
        assert_eq!(later.protocol_header.as_deref(), Some("2025-03-26"));
    }
    // initialize offered 2025-11-25.
    let offered = fixture()
        .world
        .web
        .requests("old-proto.test")
        .iter()
        .filter_map(|r| r.json())
        .find(|m| m["method"] == "initialize")
        .unwrap();
    assert_eq!(offered["params"]["protocolVersion"], "2025-11-25");
}

#[test]
fn a_server_slower_than_12_s_is_not_measured() {
    let record = check(
        "slow.test",
        Expect::new(
            Outcome::NotMeasured,
            "the session's 12 s limit ran out waiting for initialize's answer: not measured",
        )
        .at(&url("slow.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
    let session = record.timings.session_ms.unwrap();
    assert!((11_900..14_000).contains(&session), "{:?}", record.timings);
}

#[test]
fn too_little_time_left_is_not_measured_and_posts_nothing() {
    let record = check(
        "late.test",
        Expect::new(
            Outcome::NotMeasured,
            "too little time left in the scan to open the 12 s session: not measured",
        )
        .at(&url("late.test", "/mcp"), DiscoveredVia::McpPath),
    );
    let spent = u64::from(record.timings.total_ms);
    let delays = 2 * sites::LATE_DOCUMENT_DELAY.as_millis() as u64;
    assert!(spent >= delays && spent < 30_000, "{:?}", record.timings);
}

// ---------------------------------------------------------------------------------------
// What every server received, whatever the site.
// ---------------------------------------------------------------------------------------

#[test]
fn no_server_receives_more_than_the_seed_allows() {
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
            "{host}: methods out of the seed's order or not the seed's"
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
                other => panic!("{host}: {other} {} is not the seed's", r.path),
            }
        }
        // One plain GET of /mcp per scanned site, at most.
        assert!(fx.gets(&host, "/mcp") <= 1, "{host}");
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

// ---------------------------------------------------------------------------------------
// The export, compared with the checked-in expected file.
// ---------------------------------------------------------------------------------------

fn expected_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/expected/seed000.jsonl")
}

/// The export without what changes from run to run: run id, times, request durations,
/// session ids, and the web's port (`PORT`); one line per record, sorted by origin.
fn normalize(export: &str, port: u16) -> String {
    let mut lines: Vec<(String, String)> = export
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).unwrap();
            let object = record.as_object_mut().unwrap();
            for volatile in ["run_id", "scanned_at", "timings"] {
                object.remove(volatile);
            }
            if let Some(Value::Array(requests)) = object.get_mut("requests") {
                for request in requests {
                    let request = request.as_object_mut().unwrap();
                    request.remove("ms");
                    if let Some(Value::Array(headers)) = request.get_mut("headers") {
                        for header in headers {
                            if header["name"].as_str() == Some("mcp-session-id") {
                                header["value"] = Value::String("SESSION".into());
                            }
                        }
                    }
                }
            }
            replace_port(&mut record, port);
            let origin = record["origin"].as_str().unwrap_or_default().to_owned();
            (origin, serde_json::to_string(&record).unwrap())
        })
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, line)| line + "\n").collect()
}

/// `:PORT` for `:{port}` in every string (only where no digit follows).
fn replace_port(value: &mut Value, port: u16) {
    match value {
        Value::String(text) => {
            let needle = format!(":{port}");
            let mut out = String::with_capacity(text.len());
            let mut rest = text.as_str();
            while let Some(at) = rest.find(&needle) {
                let after = &rest[at + needle.len()..];
                out.push_str(&rest[..at]);
                if after.starts_with(|c: char| c.is_ascii_digit()) {
                    out.push_str(&needle);
                } else {
                    out.push_str(":PORT");
                }
                rest = after;
            }
            out.push_str(rest);
            *text = out;
        }
        Value::Array(items) => items.iter_mut().for_each(|v| replace_port(v, port)),
        Value::Object(map) => map.values_mut().for_each(|v| replace_port(v, port)),
        _ => {}
    }
}

#[test]
fn export_matches_the_expected_file() {
    let fx = fixture();
    let actual = normalize(&fx.export, fx.port());
    assert_eq!(actual.lines().count(), SITES.len());
    let path = expected_path();
    if std::env::var_os("MCPCENSUS_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (MCPCENSUS_BLESS=1 writes it; see the top of seed000.rs)",
            path.display()
        )
    });
    if actual == expected {
        return;
    }
    // Name the first record that differs, and keep the whole export for a diff.
    let kept = std::env::temp_dir().join(format!("seed000.actual.{}.jsonl", std::process::id()));
    std::fs::write(&kept, &actual).unwrap();
    let origin = |line: &str| -> String {
        serde_json::from_str::<Value>(line)
            .ok()
            .and_then(|v| v["origin"].as_str().map(str::to_owned))
            .unwrap_or_default()
    };
    for (want, got) in expected.lines().zip(actual.lines()) {
        if want != got {
            panic!(
                "the export differs from {} at {} (whole export in {}; \
                 MCPCENSUS_BLESS=1 regenerates it)\nexpected: {want}\nactual:   {got}",
                path.display(),
                origin(got),
                kept.display()
            );
        }
    }
    panic!(
        "the export has {} records, {} expects {} (whole export in {})",
        actual.lines().count(),
        path.display(),
        expected.lines().count(),
        kept.display()
    );
}
