//! The survey end to end: one crawl of the simulated web in `survey_sites.rs` (a site per rule
//! of the survey), the real command line and pipeline, then one test per rule asserting the
//! record (outcome, reason, defect, endpoint, discovered_via, tool names, protocol version) and
//! what the servers received (POST count, order and methods), and a test comparing
//! `mcpcensus export --format jsonl` with the checked-in `expected/survey.jsonl`.
//!
//! The crawl runs once per test process (about 20 s, the time `late.test` needs to use up
//! its deadline; `slow.test`'s 12 s session runs alongside it) on a runtime of its own that
//! outlives each test, so the per-rule tests are plain `#[test]`s reading the same records.
//!
//! Regenerating the expected export after an intended change of the records:
//!
//! ```text
//! MCPCENSUS_BLESS=1 cargo test -p mcpcensus-simweb --test e2e survey::export
//! ```
//!
//! then review the diff of `tests/tests/e2e/expected/survey.jsonl` like code: every changed
//! line is a changed verdict or record a user will see.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use mcpcensus::discovery::DISCOVERY_ACCEPT;
use mcpcensus_store::{DiscoveredVia, DocumentKind, Outcome, Record};
use serde_json::Value;

use crate::survey_sites::{
    self as sites, step_of, World, EXCLUDED, EXTRA_SITES, GUARDED_SUBDOMAIN, SITES,
};
use crate::util::{mcpcensus, record_for, WebCrawl};

mod discovery;
mod export;
mod placement;
mod servers;
mod session;

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
    /// `mcpcensus report --format json` of the crawl.
    report: Value,
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
        Err(why) => panic!("the survey crawl failed: {why}"),
    }
}

fn build_fixture() -> Fixture {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (world, records, export, report, crawl_time) = runtime.block_on(async {
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
        let json = crawl.path("report.json");
        let args = ["report", "--from", &store, "--format", "json", "-o", &json];
        assert_eq!(
            mcpcensus(&args).await.unwrap(),
            std::process::ExitCode::SUCCESS
        );
        let report = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        (world, records, export, report, crawl_time)
    });
    Fixture {
        world,
        records,
        export,
        report,
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
        let first_25: Vec<String> = expect.tools.iter().take(25).cloned().collect();
        assert_eq!(
            record.tool_names_first_25.0, first_25,
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
