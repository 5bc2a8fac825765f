//! robots.txt: read first, its verdict recorded, and its rules followed by the site's client.

use super::*;
use crate::net::FetchError;
use crate::scan::robots::robots_before;

async fn robots_answer(canned: Canned) -> (TestServer, SiteScan) {
    let (server, pki) = server(move |seen| match seen.path.as_str() {
        "/robots.txt" => canned.clone(),
        _ => html("page"),
    })
    .await;
    let mut site = scan(&server, &pki, SITE);
    let home = site.origin().clone();
    robots_before(&mut site, &home).await.expect("robots read");
    (server, site)
}

#[tokio::test]
async fn robots_rules_are_recorded_and_followed() {
    let rules = "User-agent: *\nDisallow: /private\nCrawl-delay: 1\n";
    let (server, mut site) = robots_answer(Canned::new(200).text(rules)).await;
    let info = site.robots().cloned().expect("robots recorded");
    assert_eq!(info.verdict, "rules");
    assert_eq!(info.status, Some(200));
    assert_eq!(info.crawl_delay_ms, Some(1000));
    assert_eq!(info.url, format!("{}/robots.txt", origin(&server, SITE)));

    let private = site.origin().join("/private/x").unwrap();
    let refused = site
        .get(&private, "test", 1024, Duration::from_secs(10))
        .await;
    assert!(
        matches!(refused, Err(FetchError::Disallowed { .. })),
        "{refused:?}"
    );
    let paths: Vec<String> = requests(&server).into_iter().map(|(_, p)| p).collect();
    assert_eq!(paths, ["/robots.txt"], "a disallowed URL was requested");
}

#[tokio::test]
async fn a_5xx_robots_disallows_all_and_a_404_allows_all() {
    let (server, mut site) = robots_answer(Canned::new(503)).await;
    let info = site.robots().cloned().unwrap();
    assert_eq!(
        (info.verdict.as_str(), info.status),
        ("disallow_all", Some(503))
    );
    let home = site.origin().join("/").unwrap();
    let refused = site.get(&home, "test", 1024, Duration::from_secs(10)).await;
    assert!(
        matches!(refused, Err(FetchError::Disallowed { .. })),
        "{refused:?}"
    );
    assert_eq!(requests(&server).len(), 1);

    let (server, mut site) = robots_answer(Canned::new(404)).await;
    let info = site.robots().cloned().unwrap();
    assert_eq!(
        (info.verdict.as_str(), info.status),
        ("allow_all", Some(404))
    );
    let home = site.origin().join("/").unwrap();
    let answered = site.get(&home, "test", 1024, Duration::from_secs(10)).await;
    assert_eq!(answered.expect("allowed").status, http::StatusCode::OK);
    assert_eq!(requests(&server).len(), 2);
}

#[tokio::test]
async fn a_site_that_does_not_answer_is_unreachable_not_allowed() {
    let (server, pki) = server(|_| Canned::new(200)).await;
    let mut site = scan(&server, &pki, SITE);
    // Nothing listens on the port once the server is gone.
    drop(server);
    let home = site.origin().clone();
    let failed = robots_before(&mut site, &home).await;
    assert!(
        matches!(failed, Err(FetchError::Connect { .. })),
        "{failed:?}"
    );
}

#[tokio::test]
async fn a_robots_txt_that_times_out_disallows_all_and_a_redirect_is_followed() {
    // RFC 9309 §2.3.1.3: unreachable because of a server or network error: complete disallow.
    // Held past the request's time (the scan's own deadline, two seconds here, is shorter
    // than robots.txt's ten).
    let (held, pki) = server(|seen| match seen.path.as_str() {
        "/robots.txt" => Canned::new(200).text("User-agent: *\nAllow: /\n").hold(),
        _ => html("page"),
    })
    .await;
    let mut site = scan_until(&held, &pki, SITE, Duration::from_secs(2));
    let home = site.origin().clone();
    robots_before(&mut site, &home)
        .await
        .expect("an answer that never came is no error");
    let info = site.robots().cloned().unwrap();
    assert_eq!((info.verdict.as_str(), info.status), ("disallow_all", None));

    // §2.3.1.2: a redirect is followed, and the rules where it leads apply.
    let (server, pki) = server(|seen| match seen.path.as_str() {
        "/robots.txt" => Canned::redirect(301, "/robots-moved.txt"),
        "/robots-moved.txt" => Canned::new(200).text("User-agent: *\nDisallow: /private\n"),
        _ => html("page"),
    })
    .await;
    let mut site = scan(&server, &pki, SITE);
    let home = site.origin().clone();
    robots_before(&mut site, &home).await.expect("robots read");
    let info = site.robots().cloned().unwrap();
    assert_eq!((info.verdict.as_str(), info.status), ("rules", Some(200)));
    let private = site.origin().join("/private/x").unwrap();
    let refused = site
        .get(&private, "test", 1024, Duration::from_secs(10))
        .await;
    assert!(
        matches!(refused, Err(FetchError::Disallowed { .. })),
        "{refused:?}"
    );
}
