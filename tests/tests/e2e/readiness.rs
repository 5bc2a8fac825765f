//! The readiness level (`--readiness`) on the simulated web: one site per signal, one with
//! every signal, and a catch-all that answers 200 with its homepage at every path. Each check
//! is true exactly where its signal is published; on the catch-all every check is false and
//! `naiveOnly` lists what a naive 200 count would have called present. Without the flag no
//! record has a readiness section and no readiness request is made.

use std::process::ExitCode;

use mcpcensus_simweb::readiness::{catch_all_site, signal_site, Signal};
use mcpcensus_simweb::SimWeb;
use mcpcensus_store::{Readiness, ReadinessCheck as C, Record};

use crate::util::{record_for, WebCrawl};

mod with_deep;

/// Each signal's site, and the checks it makes true (besides robotsTxt, true on every one).
const ONE_EACH: &[(&str, Signal, &[C])] = &[
    (
        "ai-rules.test",
        Signal::RobotsAiRules,
        &[C::RobotsTxtAiRules],
    ),
    ("signals.test", Signal::ContentSignals, &[C::ContentSignals]),
    ("sitemap.test", Signal::Sitemap, &[C::Sitemap]),
    ("agentmap.test", Signal::Agentmap, &[C::Agentmap]),
    ("link.test", Signal::LinkHeaders, &[C::LinkHeaders]),
    ("markdown.test", Signal::Markdown, &[C::MarkdownNegotiation]),
    ("llms.test", Signal::LlmsTxt, &[C::LlmsTxt]),
    ("llms-full.test", Signal::LlmsFullTxt, &[C::LlmsFullTxt]),
    ("a2a.test", Signal::AgentCard, &[C::A2aAgentCard]),
    ("skills.test", Signal::AgentSkills, &[C::AgentSkills]),
    ("api.test", Signal::ApiCatalog, &[C::ApiCatalog]),
    ("oauth.test", Signal::OauthDiscovery, &[C::OauthDiscovery]),
    (
        "prm.test",
        Signal::ProtectedResource,
        &[C::OauthProtectedResource],
    ),
    ("card.test", Signal::ServerCard, &[C::McpServerCard]),
    ("webmcp.test", Signal::WebMcp, &[C::WebMcp]),
    (
        "catalog-link.test",
        Signal::AiCatalogLink,
        &[C::AiCatalogLink],
    ),
];

fn web_builder() -> mcpcensus_simweb::SimWebBuilder {
    let mut builder = SimWeb::builder()
        .site(signal_site("all.test", &Signal::ALL))
        .site(catch_all_site("catch-all.test"));
    for (host, signal, _) in ONE_EACH {
        builder = builder.site(signal_site(host, &[*signal]));
    }
    builder
}

fn inputs(web: &SimWeb) -> Vec<String> {
    let mut hosts = vec!["all.test", "catch-all.test"];
    hosts.extend(ONE_EACH.iter().map(|(host, _, _)| *host));
    hosts.iter().map(|h| web.input(h)).collect()
}

fn readiness<'a>(records: &'a [Record], web: &SimWeb, host: &str) -> &'a Readiness {
    record_for(records, &web.origin(host))
        .readiness
        .as_ref()
        .unwrap_or_else(|| panic!("{host}: no readiness section"))
}

/// The checks true on a record, in the table's order.
fn true_checks(r: &Readiness) -> Vec<C> {
    C::ALL
        .into_iter()
        .filter(|c| r.get(*c) == Some(true))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_signal_counts_where_published_and_a_catch_all_counts_nothing() {
    let web = web_builder().start().await.unwrap();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl.run(&web, &inputs(&web), true, &["--readiness"]).await;
    assert_eq!(code, ExitCode::SUCCESS);

    for (host, _, checks) in ONE_EACH {
        let r = readiness(&records, &web, host);
        let mut expected = vec![C::RobotsTxt];
        expected.extend(checks.iter().copied());
        expected.sort();
        assert_eq!(true_checks(r), expected, "{host}: {r:#?}");
        assert_eq!(r.catch_all, Some(false), "{host}");
        assert!(r.naive_only.is_empty(), "{host}: {:?}", r.naive_only);
        assert_eq!(r.checks_version, mcpcensus_store::CHECKS_VERSION);
        // Never checked by this census.
        assert_eq!(r.web_bot_auth, None, "{host}");
    }

    // Every signal at once: every check but webBotAuth true, the AI bots' rules kept.
    let all = readiness(&records, &web, "all.test");
    let every: Vec<C> = C::ALL.into_iter().filter(|c| *c != C::WebBotAuth).collect();
    assert_eq!(true_checks(all), every, "{all:#?}");
    assert_eq!(all.ai_bot_rules, ["GPTBot=disallow", "ClaudeBot=partial"]);
    // The fallbacks are not asked once the first path counted.
    let asked =
        |host: &str, path: &str| web.requests(host).iter().filter(|q| q.path == path).count();
    assert_eq!(asked("all.test", "/.well-known/agent.json"), 0);
    assert_eq!(asked("all.test", "/.well-known/skills/index.json"), 0);
    assert_eq!(asked("all.test", "/.well-known/openid-configuration"), 0);
    assert_eq!(asked("all.test", "/sitemap.xml"), 0);
    // Nothing the survey fetched is fetched again.
    for path in [
        "/robots.txt",
        "/.well-known/api-catalog",
        "/.well-known/agent-card.json",
    ] {
        assert_eq!(asked("all.test", path), 1, "{path}");
    }

    // The catch-all: every check made is false, and a naive 200 count would have said yes.
    let soft = readiness(&records, &web, "catch-all.test");
    assert_eq!(soft.catch_all, Some(true));
    assert!(true_checks(soft).is_empty(), "{soft:#?}");
    for check in [
        C::RobotsTxt,
        C::LlmsTxt,
        C::LlmsFullTxt,
        C::Sitemap,
        C::A2aAgentCard,
        C::AgentSkills,
        C::ApiCatalog,
        C::OauthDiscovery,
        C::OauthProtectedResource,
        C::McpServerCard,
    ] {
        assert_eq!(soft.get(check), Some(false), "{check}");
        assert!(
            soft.naive_only.iter().any(|id| id == check.as_str()),
            "{check} not in {:?}",
            soft.naive_only
        );
    }
    assert_eq!(soft.markdown_negotiation, Some(false));

    // Every readiness request is in the record's request log, with a purpose naming its check.
    let rec = record_for(&records, &web.origin("llms.test"));
    let purposes: Vec<&str> = rec
        .requests
        .iter()
        .map(|q| q.purpose.as_str())
        .filter(|p| p.starts_with("readiness:"))
        .collect();
    assert!(purposes.contains(&"readiness:control"), "{purposes:?}");
    assert!(purposes.contains(&"readiness:llmsTxt"), "{purposes:?}");
    let evidence = rec.readiness.as_ref().unwrap().evidence.iter();
    let llms = evidence.clone().find(|e| e.check == "llmsTxt").unwrap();
    assert!(llms.parsed && llms.status == Some(200), "{llms:?}");
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_flag_there_is_no_readiness_section_and_no_readiness_request() {
    let web = web_builder().start().await.unwrap();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl.run(&web, &inputs(&web), true, &[]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(records.iter().all(|r| r.readiness.is_none()));
    assert!(records
        .iter()
        .flat_map(|r| &r.requests)
        .all(|q| !q.purpose.starts_with("readiness:")));
    assert!(web
        .requests("llms.test")
        .iter()
        .all(|q| q.path != "/llms.txt"));
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_txt_keeps_the_level_off_the_paths_it_disallows() {
    // A route for GET is tried before the site's own any-method robots.txt.
    let site = signal_site("shut.test", &[Signal::LlmsTxt]).route_method(
        "GET",
        "/robots.txt",
        mcpcensus_simweb::Reply::text("User-agent: *\nDisallow: /llms.txt\n"),
    );
    let web = SimWeb::builder().site(site).start().await.unwrap();
    let crawl = WebCrawl::new();
    let inputs = [web.input("shut.test")];
    let (code, _, records) = crawl.run(&web, &inputs, true, &["--readiness"]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    let r = readiness(&records, &web, "shut.test");
    assert_eq!(r.llms_txt, None, "{r:#?}");
    assert!(web
        .requests("shut.test")
        .iter()
        .all(|q| q.path != "/llms.txt"));
    web.shutdown().await;
}

/// The report's readiness section is the same from the embedded store and from ClickHouse,
/// ranks included (the input lines are ranked: `rank,host`). Needs the test server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readiness_report_is_the_same_from_both_back_ends() {
    let Some(url) = crate::util::test_server_url() else {
        return;
    };
    let web = web_builder().start().await.unwrap();
    let crawl = WebCrawl::new();
    let ranked: Vec<String> = inputs(&web)
        .iter()
        .enumerate()
        .map(|(i, line)| format!("{},{line}", (i + 1) * 600))
        .collect();
    let (code, _, records) = crawl.run(&web, &ranked, true, &["--readiness"]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(records.iter().all(|r| r.rank.is_some()));
    let out = crawl.path("store");
    let db = crate::util::unique_db("readiness");
    let load: [&str; 6] = ["load", &out, "--clickhouse", &url, "--database", &db];
    assert_eq!(
        crate::util::mcpcensus(&load).await.unwrap(),
        ExitCode::SUCCESS
    );
    let report = |name: &'static str, source: Vec<String>| {
        let path = crawl.path(name);
        async move {
            let mut argv: Vec<&str> = vec!["report"];
            argv.extend(source.iter().map(String::as_str));
            argv.extend(["--format", "json", "-o", path.as_str()]);
            let code = crate::util::mcpcensus(&argv).await.unwrap();
            assert_eq!(code, ExitCode::SUCCESS, "{argv:?}");
            let text = std::fs::read_to_string(&path).unwrap();
            serde_json::from_str::<serde_json::Value>(&text).unwrap()
        }
    };
    let from_store = report("store.json", vec!["--from".into(), out.clone()]).await;
    let source = vec!["--clickhouse".into(), url.clone(), "--database".into(), db];
    let from_ch = report("ch.json", source).await;
    assert_eq!(from_ch["run"]["readiness"], from_store["run"]["readiness"]);
    assert_eq!(from_ch, from_store);
    // Equal by saying something: every site checked, the catch-all's overcount counted.
    let section = &from_store["run"]["readiness"];
    assert_eq!(section["sites_checked"], records.len());
    assert_eq!(section["catch_all"], 1);
    let llms = section["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "llmsTxt")
        .unwrap();
    assert_eq!(
        (llms["present"]["count"].as_u64(), llms["naive"].as_u64()),
        (Some(2), Some(3))
    );
    assert!(!section["by_rank"].as_array().unwrap().is_empty());
    web.shutdown().await;
}
