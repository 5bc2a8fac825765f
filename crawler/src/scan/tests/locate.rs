//! The homepage's redirects: followed within the site, each hop logged, the final origin
//! measured; off the site, to http://, in a loop or past the limit, not followed.

use mcpcensus_store::RedirectHop;

use super::*;
use crate::scan::locate::{locate, Located};
use crate::scan::MAX_REDIRECTS;
use crate::verdict::Verdict;

const CAP: usize = 64 * 1024;

async fn located(site: &mut SiteScan) -> Result<Located, Verdict> {
    locate(site, CAP, &|_| false).await
}

#[tokio::test]
async fn a_redirect_to_www_is_followed_and_the_site_measured_there() {
    let (server, pki) = server(|seen| match (seen.host().as_deref(), seen.path.as_str()) {
        (Some(SITE), "/") => Canned::redirect(301, &on(seen, WWW, "/")),
        (Some(WWW), "/") => html("home"),
        _ => Canned::new(404),
    })
    .await;
    let mut site = scan_ignoring_robots(&server, &pki, SITE);
    let Ok(at) = located(&mut site).await else {
        panic!("not located: {:?}", site.redirects());
    };
    let www = origin(&server, WWW);
    assert_eq!(at.home_url.as_str(), format!("{www}/"));
    assert_eq!(at.origin.as_str(), format!("{www}/"));
    assert!(at.moved);
    assert_eq!(
        site.redirects(),
        [RedirectHop {
            url: format!("{}/", origin(&server, SITE)),
            status: 301,
            location: format!("{www}/"),
        }]
    );
    assert_eq!(
        requests(&server),
        [
            (SITE.to_owned(), "/".to_owned()),
            (WWW.to_owned(), "/".to_owned())
        ]
    );
    // Both hops are in the request log, the homepage document once (at the end).
    let purposes: Vec<&str> = site.requests().iter().map(|r| r.purpose.as_str()).collect();
    assert_eq!(purposes, ["home", "home"]);
    assert_eq!(site.documents().len(), 1);
    assert_eq!(site.documents()[0].url, format!("{www}/"));
}

#[tokio::test]
async fn a_homepage_without_redirects_keeps_the_input_origin() {
    let (server, pki) = server(|_| html("home")).await;
    let mut site = scan_ignoring_robots(&server, &pki, SITE);
    let at = located(&mut site).await.expect("located");
    assert!(!at.moved);
    assert!(site.redirects().is_empty());
    assert_eq!(requests(&server).len(), 1);
}

/// Where a redirect to `location` (built from the request) ends the homepage (the scan goes
/// on at the input origin), and what was asked.
async fn refused(location: fn(&Seen) -> String) -> (String, Vec<(String, String)>) {
    let (server, pki) = server(move |seen| match seen.path.as_str() {
        "/" => Canned::redirect(302, &location(seen)),
        _ => Canned::new(404),
    })
    .await;
    let mut site = scan_ignoring_robots(&server, &pki, SITE);
    let at = located(&mut site).await.expect("located");
    let Some(reason) = at.homepage_ended else {
        panic!("followed to {}", at.home_url);
    };
    assert_eq!(at.origin.as_str(), format!("{}/", origin(&server, SITE)));
    assert!(!at.moved);
    (reason, requests(&server))
}

#[tokio::test]
async fn a_redirect_off_the_site_or_to_http_is_not_followed() {
    let (reason, asked) = refused(|seen| on(seen, OTHER, "/")).await;
    assert!(reason.starts_with("redirects to another site"), "{reason}");
    assert_eq!(asked, [(SITE.to_owned(), "/".to_owned())]);

    let (reason, asked) = refused(|seen| on(seen, WWW, "/").replace("https:", "http:")).await;
    assert!(reason.starts_with("redirects to http://"), "{reason}");
    assert_eq!(asked.len(), 1);

    let (reason, asked) = refused(|_| "/".to_owned()).await;
    assert!(reason.starts_with("redirects in a loop"), "{reason}");
    assert_eq!(asked.len(), 1);
}

#[tokio::test]
async fn more_redirects_than_the_limit_end_the_site() {
    // `/` → `/1` → `/2` → ... never ends.
    let (server, pki) = server(|seen| {
        let n: usize = seen.path.trim_start_matches('/').parse().unwrap_or(0);
        Canned::redirect(302, &format!("/{}", n + 1))
    })
    .await;
    let mut site = scan_ignoring_robots(&server, &pki, SITE);
    let Some(reason) = located(&mut site).await.expect("located").homepage_ended else {
        panic!("followed forever?");
    };
    assert!(
        reason.starts_with(&format!("redirects more than {MAX_REDIRECTS} times")),
        "{reason}"
    );
    assert_eq!(requests(&server).len(), MAX_REDIRECTS + 1);
    assert_eq!(site.redirects().len(), MAX_REDIRECTS + 1);
}

#[tokio::test]
async fn a_redirect_to_an_excluded_host_is_not_requested() {
    let (server, pki) = server(|seen| match (seen.host().as_deref(), seen.path.as_str()) {
        (Some(SITE), "/") => Canned::redirect(301, &on(seen, WWW, "/")),
        _ => html("home"),
    })
    .await;
    let mut site = scan_ignoring_robots(&server, &pki, SITE);
    let excluded = |host: &str| host == WWW;
    let at = locate(&mut site, CAP, &excluded).await.expect("located");
    let Some(reason) = at.homepage_ended else {
        panic!("followed to an excluded host");
    };
    assert!(reason.contains("exclusion list"), "{reason}");
    assert_eq!(requests(&server), [(SITE.to_owned(), "/".to_owned())]);
}

#[tokio::test]
async fn each_origin_on_the_way_has_its_robots_read_before_its_homepage() {
    let (server, pki) = server(|seen| match (seen.host().as_deref(), seen.path.as_str()) {
        (Some(SITE), "/") => Canned::redirect(301, &on(seen, WWW, "/")),
        (Some(WWW), "/") => html("home"),
        _ => Canned::new(404),
    })
    .await;
    let mut site = scan(&server, &pki, SITE);
    assert!(located(&mut site).await.is_ok());
    let robots = |host: &str| (host.to_owned(), "/robots.txt".to_owned());
    let home = |host: &str| (host.to_owned(), "/".to_owned());
    assert_eq!(
        requests(&server),
        [robots(SITE), home(SITE), robots(WWW), home(WWW)]
    );
    // The record's robots section is the final origin's.
    let info = site.robots().cloned().expect("robots recorded");
    assert_eq!(info.url, format!("{}/robots.txt", origin(&server, WWW)));
}
