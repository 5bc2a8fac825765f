//! The real web's shapes (`mcpcensus_simweb::shapes`), crawled once: each shape's exact record,
//! and no request beyond the measured site, checked on the server side.

use std::process::ExitCode;

use mcpcensus_simweb::shapes::{Shape, ShapedSite};
use mcpcensus_simweb::SimWeb;
use mcpcensus_store::{Outcome, Record};

use crate::util::{record_for, WebCrawl};

/// Every shape once, with a server behind the ones that can carry one.
fn shaped() -> Vec<ShapedSite> {
    [
        (Shape::ApexToWww, "apex.test"),
        (Shape::WwwToApex, "wwwapex.test"),
        (Shape::OtherSite, "away.test"),
        (Shape::Loop, "loop.test"),
        (Shape::SoftNotFound, "soft.test"),
        (Shape::BotWall, "wall.test"),
        (Shape::PartialFiveHundred, "partial.test"),
        (Shape::Plain, "plain.test"),
        (Shape::NewestOnly, "newest.test"),
        (Shape::WwwWithMcpHost, "mcphost.test"),
        (Shape::ApexWithApiHost, "apihost.test"),
        (Shape::BrandAlias, "alias.test"),
        (Shape::ApiOnly, "api.test"),
        (Shape::AgentCardOnly, "agent.test"),
        (Shape::OauthOnly, "oauth.test"),
        (Shape::SoftApiCatalog, "softcatalog.test"),
    ]
    .into_iter()
    .map(|(shape, host)| shape.build(host, true))
    .collect()
}

async fn crawl() -> (SimWeb, WebCrawl, Vec<Record>) {
    let sites = shaped();
    let web = SimWeb::builder()
        .sites(sites.iter().flat_map(|s| s.sites.clone()))
        .start()
        .await
        .unwrap();
    let inputs: Vec<String> = sites.iter().map(|s| web.input(&s.input)).collect();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl.run(&web, &inputs, true, &[]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    (web, crawl, records)
}

/// The outcome, reason (with the web's port as `PORT`), endpoint host, final origin and hop
/// count of the site scanned as `input`.
fn summary(
    web: &SimWeb,
    records: &[Record],
    input: &str,
) -> (Outcome, String, Option<String>, Option<String>, usize) {
    let r = record_for(records, &web.origin(input));
    let port = format!(":{}", web.port());
    let unport = |s: &str| s.replace(&port, ":PORT");
    // `https://HOST:PORT/path` → `HOST`.
    let endpoint_host = r.endpoint.as_deref().map(|e| {
        let rest = e.trim_start_matches("https://");
        rest.split([':', '/']).next().unwrap_or(rest).to_owned()
    });
    (
        r.outcome,
        unport(&r.outcome_reason),
        endpoint_host,
        r.final_origin.as_deref().map(unport),
        r.redirects.len(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_shape_has_its_record() {
    let (web, crawl, records) = crawl().await;
    let pass = "tools/list names 1 tool (protocol version 2025-11-25)".to_owned();
    let host = |h: &str| Some(h.to_owned());
    let expected = [
        (
            "apex.test",
            (
                Outcome::Pass,
                pass.clone(),
                host("www.apex.test"),
                host("https://www.apex.test:PORT"),
                1,
            ),
        ),
        (
            "www.wwwapex.test",
            (
                Outcome::Pass,
                pass.clone(),
                host("wwwapex.test"),
                host("https://wwwapex.test:PORT"),
                1,
            ),
        ),
        (
            // No MCP anywhere: judged on its own documents, the redirect in the record.
            "away.test",
            (
                Outcome::OutOfScope,
                format!(
                    "{OUT_OF_SCOPE} (its GET redirects to another site \
                     (https://moved-away.test:PORT/mcp); not followed); the homepage redirects \
                     to another site (https://moved-away.test:PORT/); not followed"
                ),
                None,
                None,
                1,
            ),
        ),
        (
            "loop.test",
            (
                Outcome::OutOfScope,
                format!(
                    "{OUT_OF_SCOPE} (its GET followed to https://www.loop.test:PORT/mcp; \
                     redirects in a loop (back to https://loop.test:PORT/mcp); not followed); \
                     the homepage redirects in a loop (back to https://loop.test:PORT/); not \
                     followed"
                ),
                None,
                None,
                2,
            ),
        ),
        (
            // The marketing site at www, the server on its own subdomain of the scanned apex.
            "mcphost.test",
            (
                Outcome::Pass,
                pass.clone(),
                host("mcp.mcphost.test"),
                host("https://www.mcphost.test:PORT"),
                1,
            ),
        ),
        (
            "www.apihost.test",
            (
                Outcome::Pass,
                pass.clone(),
                host("api.apihost.test"),
                host("https://apihost.test:PORT"),
                1,
            ),
        ),
        (
            // A 2026-07-28-only server: the survey's fail with its own reason, not a defect.
            "newest.test",
            (
                Outcome::Fail,
                "initialize answered 400 (bad request): the server speaks 2026-07-28 only \
                 (JSON-RPC error -32022), not the survey's 2025-11-25"
                    .into(),
                host("newest.test"),
                None,
                0,
            ),
        ),
        (
            // A brand alias: its homepage leaves, its own /mcp serves MCP.
            "alias.test",
            (Outcome::Pass, pass.clone(), host("alias.test"), None, 1),
        ),
        (
            "soft.test",
            (Outcome::Pass, pass.clone(), host("soft.test"), None, 0),
        ),
        (
            "wall.test",
            (
                Outcome::OutOfScope,
                "out of scope: no document names an endpoint the scan opens, and /mcp answered \
                 without signalling MCP"
                    .into(),
                None,
                None,
                0,
            ),
        ),
        (
            "partial.test",
            (Outcome::Pass, pass.clone(), host("partial.test"), None, 0),
        ),
        (
            "plain.test",
            (Outcome::Pass, pass, host("plain.test"), None, 0),
        ),
        // An API or agent surface without MCP: in the population, out of scope.
        ("api.test", out_of_scope()),
        ("agent.test", out_of_scope()),
        ("oauth.test", out_of_scope()),
        ("softcatalog.test", out_of_scope()),
    ];
    for (input, want) in expected {
        assert_eq!(summary(&web, &records, input), want, "{input}");
    }
    let newest = record_for(&records, &web.origin("newest.test"));
    assert!(!newest.defect);
    assert_eq!(
        newest.reason_kind,
        Some(mcpcensus_store::FailureKind::NewerRevisionOnly)
    );
    // Surface: every site whose card parsed, and the API and agent surface sites; not the bot
    // wall, nor sites that left, nor a catalog path that is a soft 404.
    let mut surfaced: Vec<(&str, Vec<&str>)> = records
        .iter()
        .filter(|r| r.surface)
        .filter_map(|r| {
            let signals = r.surface_signals.iter().map(|s| s.as_str()).collect();
            Some((r.host.as_deref()?, signals))
        })
        .collect();
    surfaced.sort_unstable();
    let mcp = vec!["mcp"];
    assert_eq!(
        surfaced,
        [
            ("agent.test", vec!["a2a_agent_card"]),
            ("alias.test", mcp.clone()),
            ("apex.test", mcp.clone()),
            (
                "api.test",
                vec!["api_catalog", "service_desc", "service_doc", "openapi"]
            ),
            ("mcphost.test", mcp.clone()),
            ("newest.test", vec!["mcp", "ai_catalog"]),
            (
                "oauth.test",
                vec!["oauth_protected_resource", "oauth_authorization_server"]
            ),
            ("partial.test", mcp.clone()),
            ("plain.test", mcp.clone()),
            ("soft.test", mcp.clone()),
            ("www.apihost.test", mcp.clone()),
            ("www.wwwapex.test", mcp),
        ]
    );
    for r in &records {
        let listed = !r.surface_signals.is_empty();
        assert_eq!(r.surface, listed, "{}", r.input);
    }
    // The API site: its catalog and OpenAPI document read and counted, one GET each.
    let api = record_for(&records, &web.origin("api.test"));
    let read: Vec<(&str, bool)> = api
        .documents
        .iter()
        .filter(|d| matches!(d.kind.as_str(), "api_catalog" | "openapi"))
        .map(|d| (d.url.rsplit('/').next().unwrap_or_default(), d.parsed))
        .collect();
    assert_eq!(read, [("api-catalog", true), ("openapi.json", true)]);
    assert_eq!(gets(&web, "api.test", "/openapi.json"), 1);
    assert_eq!(
        gets(&web, "api.test", "/docs"),
        0,
        "service-doc is a link only"
    );
    // The soft 404 at the catalog path: logged as one, not counted.
    let soft = record_for(&records, &web.origin("softcatalog.test"));
    let catalog = soft
        .documents
        .iter()
        .find(|d| d.kind.as_str() == "api_catalog")
        .expect("the catalog path was asked");
    assert!(catalog.soft_404 && !catalog.parsed, "{catalog:?}");
    assert!(soft.surface_signals.is_empty());
    // A plain site: robots.txt, the homepage, 4 card paths, the AI catalog, /mcp and the 4
    // API and agent surface documents; the session's POSTs besides.
    let plain: Vec<String> = web
        .requests("plain.test")
        .iter()
        .filter(|r| r.method == "GET")
        .map(|r| r.path.clone())
        .collect();
    assert_eq!(
        plain,
        [
            "/robots.txt",
            "/",
            "/.well-known/mcp/server-card.json",
            "/.well-known/mcp.json",
            "/.well-known/mcp-server-card.json",
            "/.well-known/mcp/server-card",
            "/.well-known/ai-catalog.json",
            "/mcp",
            "/.well-known/api-catalog",
            "/.well-known/agent-card.json",
            "/.well-known/oauth-protected-resource",
            "/.well-known/oauth-authorization-server",
            "/mcp/server-card",
        ]
    );
    // The apex's hop, as sent.
    let apex = record_for(&records, &web.origin("apex.test"));
    assert_eq!(apex.redirects[0].status, 301);
    assert_eq!(
        apex.redirects[0].location,
        format!("{}/", web.origin("www.apex.test"))
    );
    // Nothing beyond the site: the other site got no request; the loop stopped at its start.
    assert_eq!(web.request_count("moved-away.test"), 0);
    assert_eq!(
        web.requests("loop.test")
            .iter()
            .filter(|r| r.path == "/")
            .count(),
        1
    );
    assert_eq!(
        web.requests("www.loop.test")
            .iter()
            .filter(|r| r.path == "/")
            .count(),
        1
    );
    assert_eq!(web.request_count("moved-alias.test"), 0);
    // Measured where it lives: every discovery document at www, none past the apex's homepage.
    assert_eq!(pages(&web, "apex.test"), 1);
    assert!(web
        .requests("www.apex.test")
        .iter()
        .any(|r| r.path == "/.well-known/mcp/server-card.json"));
    // The reports count where sites were measured and the surface population.
    let store = crawl.path("store");
    for format in ["text", "html"] {
        let out = crawl.path(&format!("report.{format}"));
        let args = ["report", "--from", &store, "--format", format, "-o", &out];
        crate::util::mcpcensus(&args).await.unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<String> = if format == "text" {
            // The page's tables in aligned columns.
            vec![
                "Sites measured at another origin than their input's\n  Moved to  Sites\n  \
                 --------  -----\n  apex          2\n  www           2\n"
                    .to_owned(),
                "12 sites showed an API or agent surface".to_owned(),
                "9 have an MCP endpoint".to_owned(),
                "a site that never answered is \"not measured: no answer\"".to_owned(),
            ]
        } else {
            // The page's tables, with the same counts.
            vec![
                "data-table=\"measured-elsewhere\"".to_owned(),
                "<td>www</td><td class=\"num\" data-sort=\"2\">2</td>".to_owned(),
                "<td>apex</td><td class=\"num\" data-sort=\"2\">2</td>".to_owned(),
                "12 sites showed an API or agent surface".to_owned(),
                "data-table=\"outcomes-surface\"".to_owned(),
            ]
        };
        for line in lines {
            assert!(
                text.contains(&line),
                "{format} report lacks {line:?}:\n{text}"
            );
        }
    }
    web.shutdown().await;
}

/// A chain past 5 hops, a redirect to http:// and one to a host the exclusion list names each
/// end the homepage, with nothing requested past the last allowed hop; the documents are still
/// asked of the scanned origin and judge the site.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_past_their_limits_end_the_homepage() {
    use mcpcensus_simweb::{Reply, Site};
    let home = || Reply::html("<html>home</html>");
    let mut hops = Site::new("hops.test").route("/7", home());
    for i in 0..7 {
        let from = if i == 0 {
            "/".to_owned()
        } else {
            format!("/{i}")
        };
        hops = hops.route(&from, Reply::redirect(302, &format!("/{}", i + 1)));
    }
    let web = SimWeb::builder()
        .site(hops)
        .site(Site::new("tohttp.test").route("/", Reply::redirect(301, "http://tohttp.test/")))
        .site(Site::new("optout.test").route(
            "/",
            Reply::handler(|req| {
                let port = req.local.port();
                Reply::redirect(301, &format!("https://www.optout.test:{port}/"))
            }),
        ))
        .site(Site::new("www.optout.test").route("/", home()))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let exclude = crawl.path("exclude.txt");
    std::fs::write(&exclude, "www.optout.test\n").unwrap();
    let inputs: Vec<String> = ["hops.test", "tohttp.test", "optout.test"]
        .iter()
        .map(|h| web.input(h))
        .collect();
    let (code, _, records) = crawl
        .run(&web, &inputs, true, &["--exclude", &exclude])
        .await;
    assert_eq!(code, ExitCode::SUCCESS);
    let expected = [
        (
            "hops.test",
            "redirects more than 5 times (next to https://hops.test:PORT/6); not followed",
            6,
        ),
        (
            "tohttp.test",
            "redirects to http:// (http://tohttp.test/); not followed",
            1,
        ),
        (
            "optout.test",
            "redirects to https://www.optout.test:PORT/, on a host the exclusion list names; \
             not requested",
            1,
        ),
    ];
    for (input, homepage, hops) in expected {
        let got = summary(&web, &records, input);
        let reason = format!("{OUT_OF_SCOPE}; the homepage {homepage}");
        assert_eq!(
            got,
            (Outcome::OutOfScope, reason, None, None, hops),
            "{input}"
        );
        // The documents, asked of the scanned origin.
        let asked: Vec<String> = web.requests(input).iter().map(|r| r.path.clone()).collect();
        assert!(asked.iter().any(|p| p == "/mcp"), "{input}: {asked:?}");
    }
    let hops_asked: Vec<String> = web
        .requests("hops.test")
        .iter()
        .map(|r| r.path.clone())
        .filter(|p| p == "/" || p[1..].parse::<u32>().is_ok())
        .collect();
    assert_eq!(hops_asked, ["/", "/1", "/2", "/3", "/4", "/5"]);
    assert!(!web.requests("tohttp.test").iter().any(|r| !r.tls));
    assert_eq!(web.request_count("www.optout.test"), 0);
    web.shutdown().await;
}

/// A site without MCP, measured where the input names it.
fn out_of_scope() -> (Outcome, String, Option<String>, Option<String>, usize) {
    (Outcome::OutOfScope, OUT_OF_SCOPE.to_owned(), None, None, 0)
}

/// GETs of `path` a host received.
fn gets(web: &SimWeb, host: &str, path: &str) -> usize {
    web.requests(host)
        .iter()
        .filter(|r| r.method == "GET" && r.path == path)
        .count()
}

/// The survey's out-of-scope reason.
const OUT_OF_SCOPE: &str = "out of scope: no document names an endpoint the scan opens, and /mcp \
                            answered without signalling MCP";

/// Requests a host received besides its robots.txt (read once per input origin first).
fn pages(web: &SimWeb, host: &str) -> usize {
    web.requests(host)
        .iter()
        .filter(|r| r.path != "/robots.txt")
        .count()
}
