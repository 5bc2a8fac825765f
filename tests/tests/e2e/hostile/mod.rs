//! The hostile-server set (`mcpcensus_simweb::hostile`): each behaviour crawled next to a
//! normal site by a crawler in a child process, asserting the hostile site's record, that the
//! normal site is still measured, and that the crawler's peak memory and CPU stay bounded.

mod child;
mod documents;
mod h2;
mod mcp;
mod transport;
mod whole;

use std::net::SocketAddr;
use std::time::Duration;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{DnsRule, Reply, SimWeb, Site};
use mcpcensus_store::{Outcome, Record};

use crate::util::record_for;
pub use child::{crawl_in_child, Usage};

/// The site deadline of these crawls: long enough for the normal site on a busy machine,
/// short enough that a site that never ends costs the suite little.
const SITE_DEADLINE: &str = "15";
/// Peak RSS of a debug-build crawler measuring one hostile site and one normal one. An idle
/// crawl of two sites peaks near 21 MiB; five 230 KB catalogs of inline cards sent with
/// 12 KB of headers take it to 94 MiB (each inline card copies the headers), over the bound.
pub const RSS_BOUND: u64 = 80 * 1024 * 1024;
/// CPU (user + system) of that crawl: idle near 0.05 s; a quadratic re-parse of a trickled
/// answer costs tens of seconds.
pub const CPU_BOUND: Duration = Duration::from_secs(10);
/// Wall time: the site deadline plus ample margin for a busy machine.
pub const WALL_BOUND: Duration = Duration::from_secs(75);

const CONTROL: &str = "control.hostile.test";

/// A normal MCP server crawled with each hostile site: the crawl goes on.
fn control() -> Site {
    Site::new(CONTROL)
        .route(
            "/",
            Reply::html("<!doctype html><title>ok</title>").header("link", "</mcp>; rel=\"mcp\""),
        )
        .mcp(
            "/mcp",
            &McpServer::python_stateless().tools_named(&["ok_tool"]),
        )
}

/// What one hostile crawl gave.
pub struct Crawled {
    pub web: SimWeb,
    pub records: Vec<Record>,
    pub usage: Usage,
}

impl Crawled {
    /// The record of `host` on the web's port.
    pub fn record(&self, host: &str) -> &Record {
        record_for(&self.records, &self.web.origin(host))
    }
}

/// Crawls `site` (and `dns` rules, and `names` to list besides it) next to the normal site,
/// and checks the normal site's record and the bounds.
pub async fn crawl_hostile(sites: Vec<Site>, dns: Vec<DnsRule>, names: &[&str]) -> Crawled {
    let crawled = crawl_hostile_with(sites, dns, names, None, &[]).await;
    assert_bounded(&crawled.usage, RSS_BOUND, CPU_BOUND);
    crawled
}

/// Crawls one hostile site (next to the normal one) and returns its record.
pub async fn crawl_one(site: Site) -> Record {
    let name = site.name().to_owned();
    crawl_hostile(vec![site], vec![], &[&name])
        .await
        .record(&name)
        .clone()
}

/// [`crawl_hostile`] with a stalling listener at `stall` and extra crawl flags, without the
/// bounds check.
pub async fn crawl_hostile_with(
    sites: Vec<Site>,
    dns: Vec<DnsRule>,
    names: &[&str],
    stall: Option<[u8; 4]>,
    extra: &[&str],
) -> Crawled {
    let mut inputs: Vec<String> = Vec::new();
    let web = SimWeb::builder()
        .site(control())
        .sites(sites)
        .dns_rules(dns)
        .start()
        .await
        .unwrap();
    let _stall = stall.map(|ip| stalling_listener(ip, web.port()));
    inputs.push(web.input(CONTROL));
    inputs.extend(names.iter().map(|n| format!("{n}:{}", web.port())));
    let mut flags = vec!["--site-deadline", SITE_DEADLINE];
    flags.extend(extra);
    let (records, usage) = crawl_in_child(&web, &inputs, &flags).await;
    eprintln!("hostile crawl of {names:?}: {usage:?}");
    assert_eq!(records.len(), inputs.len(), "one record per input line");
    let control = record_for(&records, &web.origin(CONTROL));
    assert_eq!(control.outcome, Outcome::Pass, "{}", control.outcome_reason);
    assert_eq!(control.tool_names, ["ok_tool"]);
    Crawled {
        web,
        records,
        usage,
    }
}

/// The crawler's cost stayed under the bounds.
pub fn assert_bounded(usage: &Usage, rss: u64, cpu: Duration) {
    assert!(
        usage.peak_rss <= rss,
        "peak RSS {} MiB over the bound of {} MiB",
        usage.peak_rss >> 20,
        rss >> 20
    );
    assert!(
        usage.cpu <= cpu,
        "CPU {:?} over the bound of {cpu:?}",
        usage.cpu
    );
    assert!(
        usage.wall <= WALL_BOUND,
        "wall {:?} over {WALL_BOUND:?}",
        usage.wall
    );
}

/// The reason, for assertion messages.
pub fn why(record: &Record) -> String {
    format!("{:?}: {}", record.outcome, record.outcome_reason)
}

/// A raw TCP listener on a loopback address and the web's port that accepts and then never
/// sends a byte (a TLS handshake that stalls); kept open until dropped.
pub fn stalling_listener(ip: [u8; 4], port: u16) -> tokio::task::JoinHandle<()> {
    let listener = std::net::TcpListener::bind(SocketAddr::from((ip, port))).unwrap();
    listener.set_nonblocking(true).unwrap();
    let listener = tokio::net::TcpListener::from_std(listener).unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((conn, _)) = listener.accept().await {
            held.push(conn);
        }
    })
}
