//! The readiness level with the deep probe (`--readiness --probe deep`) on a site that
//! publishes every signal and runs a live MCP server: the record carries both, the deep
//! probe's verdicts and requests are those it makes without the level, and the level adds
//! only its own requests, each logged with its check.

use std::process::ExitCode;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::readiness::{signal_site, Signal};
use mcpcensus_simweb::SimWeb;
use mcpcensus_store::{Outcome, ReadinessCheck as C, Record};

use crate::util::{record_for, WebCrawl};

const HOST: &str = "live.test";

/// One run of a fresh web (so its request log is this run's alone): the record and the
/// requests the site received, as (method, path) pairs.
async fn crawl(extra: &[&str]) -> (Record, Vec<(String, String)>) {
    let site = signal_site(HOST, &Signal::ALL).mcp("/mcp", &McpServer::ts_v2().n_tools(3));
    let web = SimWeb::builder().site(site).start().await.unwrap();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl.run(&web, &[web.input(HOST)], true, extra).await;
    assert_eq!(code, ExitCode::SUCCESS, "{extra:?}");
    let record = record_for(&records, &web.origin(HOST)).clone();
    let seen = web
        .requests(HOST)
        .iter()
        .map(|q| (q.method.clone(), q.path_only().to_owned()))
        .collect();
    web.shutdown().await;
    (record, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_deep_probe_the_record_has_both_and_the_level_adds_only_its_own_requests() {
    let deep = ["--probe", "deep", "--per-host-rps", "50"];
    let (alone, seen_alone) = crawl(&deep).await;
    let both_flags = [&deep[..], &["--readiness"]].concat();
    let (both, seen_both) = crawl(&both_flags).await;

    // The deep probe measured the server in both runs, with the same verdicts.
    for r in [&alone, &both] {
        assert_eq!(r.outcome, Outcome::Pass, "{r:#?}");
        assert_eq!(r.probe.map(|v| v.as_str()), Some("deep"));
        assert_eq!(r.tools.len(), 3);
        assert!(r.grades.is_some() && r.migration_status.is_some());
    }
    assert_eq!(both.transport, alone.transport);
    assert_eq!(both.spec_version, alone.spec_version);
    assert_eq!(both.migration_status, alone.migration_status);
    assert_eq!(both.checklist, alone.checklist);
    assert_eq!(both.tool_list_fingerprint, alone.tool_list_fingerprint);
    let rules =
        |r: &Record| -> Vec<String> { r.findings.iter().map(|f| f.rule_id.clone()).collect() };
    assert_eq!(rules(&both), rules(&alone));
    assert!(alone.readiness.is_none());

    // The readiness section: every signal present, the card found by the survey counted.
    let r = both.readiness.as_ref().expect("a readiness section");
    let every: Vec<C> = C::ALL.into_iter().filter(|c| *c != C::WebBotAuth).collect();
    let present: Vec<C> = C::ALL
        .into_iter()
        .filter(|c| r.get(*c) == Some(true))
        .collect();
    assert_eq!(present, every, "{r:#?}");
    assert_eq!(r.catch_all, Some(false));

    // The level's requests are the record's `readiness:` entries and nothing else: the site
    // saw the deep-probe run's requests plus exactly as many as the level logged.
    let logged: Vec<&str> = both
        .requests
        .iter()
        .filter(|q| q.purpose.starts_with("readiness:"))
        .map(|q| q.purpose.as_str())
        .collect();
    assert!(logged.contains(&"readiness:control"), "{logged:?}");
    assert!(logged.contains(&"readiness:llmsTxt"), "{logged:?}");
    assert_eq!(
        seen_both.len(),
        seen_alone.len() + logged.len(),
        "alone: {seen_alone:?}\nboth: {seen_both:?}\nlevel: {logged:?}"
    );
    // Every request of the deep-probe run is made again, the MCP endpoint's the same count.
    let to_endpoint = |seen: &[(String, String)]| seen.iter().filter(|(_, p)| p == "/mcp").count();
    assert_eq!(to_endpoint(&seen_both), to_endpoint(&seen_alone));
    for request in &seen_alone {
        let n = |seen: &[(String, String)]| seen.iter().filter(|q| *q == request).count();
        assert!(n(&seen_both) >= n(&seen_alone), "{request:?}");
    }
    // What the survey already fetched is not fetched again.
    for path in ["/robots.txt", "/.well-known/mcp/server-card.json"] {
        let n = |seen: &[(String, String)]| seen.iter().filter(|(_, p)| p == path).count();
        assert_eq!(n(&seen_both), n(&seen_alone), "{path}");
    }
}
