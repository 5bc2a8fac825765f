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
            "away.test",
            (
                Outcome::NotMeasured,
                "redirects to another site (https://moved-away.test:PORT/); not followed".into(),
                None,
                None,
                1,
            ),
        ),
        (
            "loop.test",
            (
                Outcome::NotMeasured,
                "redirects in a loop (back to https://loop.test:PORT/); not followed".into(),
                None,
                None,
                2,
            ),
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
    ];
    for (input, want) in expected {
        assert_eq!(summary(&web, &records, input), want, "{input}");
    }
    // Surface: every site whose card parsed; not the bot wall, nor sites that left.
    let surfaced: Vec<&str> = records
        .iter()
        .filter(|r| r.surface)
        .filter_map(|r| r.host.as_deref())
        .collect();
    let mut surfaced = surfaced;
    surfaced.sort_unstable();
    assert_eq!(
        surfaced,
        [
            "apex.test",
            "newest.test",
            "partial.test",
            "plain.test",
            "soft.test",
            "www.wwwapex.test"
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
    assert_eq!(pages(&web, "loop.test"), 1);
    assert_eq!(pages(&web, "www.loop.test"), 1);
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
            vec![
                "Sites measured at another origin than their input's: 2".to_owned(),
                "  www                                   1".to_owned(),
                "  apex                                  1".to_owned(),
                "  other_subdomain                       0".to_owned(),
                "Outcomes of the 6 sites with an API or agent surface".to_owned(),
                "6 endpoints".to_owned(),
                "Outcomes, unreachable counted as the survey's \"not measured: no answer\""
                    .to_owned(),
            ]
        } else {
            // The page's tables, with the same counts.
            vec![
                "data-table=\"measured-elsewhere\"".to_owned(),
                "<td>www</td><td class=\"num\" data-sort=\"1\">1</td>".to_owned(),
                "<td>apex</td><td class=\"num\" data-sort=\"1\">1</td>".to_owned(),
                "6 sites showed an API or agent surface".to_owned(),
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
/// end the site, with nothing requested past the last allowed hop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_past_their_limits_end_the_site() {
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
    for (input, reason, hops) in expected {
        let got = summary(&web, &records, input);
        assert_eq!(
            got,
            (Outcome::NotMeasured, reason.to_owned(), None, None, hops),
            "{input}"
        );
    }
    assert_eq!(pages(&web, "hops.test"), 6);
    assert!(!web.requests("hops.test").iter().any(|r| r.path == "/6"));
    assert_eq!(pages(&web, "tohttp.test"), 1);
    assert_eq!(web.request_count("www.optout.test"), 0);
    web.shutdown().await;
}

/// Requests a host received besides its robots.txt (read once per input origin first).
fn pages(web: &SimWeb, host: &str) -> usize {
    web.requests(host)
        .iter()
        .filter(|r| r.path != "/robots.txt")
        .count()
}
