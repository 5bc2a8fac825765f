//! The discovery documents: fetched at the origin the redirects led to, each logged with what
//! it was, a card parsed, an HTML answer where JSON belongs marked a soft 404.

use mcpcensus_store::{DiscoveredVia, DocumentKind};

use super::*;
use crate::discovery::Discovery;
use crate::discovery::{AI_CATALOG_PATH, MCP_PATH, SERVER_CARD_PATH};
use crate::scan::answer::Fetched;
use crate::scan::documents::fetch_documents;
use crate::scan::locate::locate;
use crate::verdict::Verdict;

/// Locate, then the documents at the origin it led to (the two phases, as the scan runs them).
async fn located_documents(site: &mut SiteScan) -> Result<Discovery, Verdict> {
    let mut located = locate(site, 64 * 1024, &|_| false).await?;
    let mut found = Discovery::default();
    fetch_documents(site, &mut located, 64 * 1024, &|_| false, &mut found).await?;
    Ok(found)
}

const CARD: &str = r#"{
  "name": "com.example/docs",
  "version": "1.0.0",
  "remotes": [{"type": "streamable-http", "url": "https://www.site.test/mcp"}]
}"#;

#[tokio::test]
async fn documents_are_read_at_the_final_origin_and_logged_by_kind() {
    let (server, pki) = server(|seen| match (seen.host().as_deref(), seen.path.as_str()) {
        (Some(SITE), _) => Canned::redirect(301, &on(seen, WWW, &seen.path)),
        (_, "/") => html("home"),
        (_, SERVER_CARD_PATH) => Canned::json(200, CARD),
        (_, AI_CATALOG_PATH) => html("not found, but 200"),
        _ => Canned::new(404),
    })
    .await;
    let mut site = scan_ignoring_robots(&server, &pki, SITE);
    let found = located_documents(&mut site).await.expect("on the site");

    // Only the homepage was asked at the input origin; everything after at www.
    let asked = requests(&server);
    assert_eq!(asked[0], (SITE.to_owned(), "/".to_owned()));
    assert!(asked[1..].iter().all(|(host, _)| host == WWW), "{asked:?}");
    assert!(asked.iter().any(|(_, path)| path == MCP_PATH), "{asked:?}");

    assert_eq!(found.cards.len(), 1, "{:?}", found.cards);
    assert_eq!(found.cards[0].via, DiscoveredVia::ServerCard);
    assert!(found.cards[0].parse.parsed().is_some());

    let docs = site.documents();
    let doc = |kind: DocumentKind| {
        docs.iter()
            .find(|d| d.kind == kind)
            .unwrap_or_else(|| panic!("no {kind} document in {docs:?}"))
    };
    assert!(doc(DocumentKind::Home).parsed);
    let card = doc(DocumentKind::ServerCard);
    assert!(card.parsed && !card.soft_404, "{card:?}");
    assert_eq!(
        card.url,
        format!("{}{SERVER_CARD_PATH}", origin(&server, WWW))
    );
    let catalog = doc(DocumentKind::AiCatalog);
    assert!(catalog.soft_404 && !catalog.parsed, "{catalog:?}");
    let legacy = doc(DocumentKind::LegacyCard);
    assert_eq!(legacy.status, Some(404));
    assert!(!legacy.parsed);
}

/// The homepage's body is read for its links and then let go: the documents phase's later
/// requests (and every site in flight) do not carry it.
#[tokio::test]
async fn the_homepage_body_is_let_go_once_its_links_are_read() {
    let home = r#"<html><head><link rel="mcp" href="/mcp"></head></html>"#;
    let (server, pki) = server(move |seen| match seen.path.as_str() {
        "/" => Canned::new(200)
            .header("content-type", "text/html")
            .text(home),
        _ => Canned::new(404),
    })
    .await;
    let mut site = scan_ignoring_robots(&server, &pki, SITE);
    let mut located = locate(&mut site, 64 * 1024, &|_| false)
        .await
        .expect("located");
    assert!(matches!(located.home, Fetched::Body(..)), "read");
    let mut found = Discovery::default();
    fetch_documents(&mut site, &mut located, 64 * 1024, &|_| false, &mut found)
        .await
        .expect("documents");
    assert!(!found.links.is_empty(), "links read: {:?}", found.links);
    assert!(matches!(located.home, Fetched::Status), "body still held");
}

#[tokio::test]
async fn documents_are_fetched_at_the_input_origin_when_the_homepage_leaves_the_site() {
    // The homepage of a brand alias or a dedicated MCP host redirects to another site; its own
    // documents and /mcp are still the site's.
    let (server, pki) = server(|seen| match (seen.host().as_deref(), seen.path.as_str()) {
        (Some(SITE), "/") => Canned::redirect(301, &on(seen, OTHER, "/")),
        (Some(SITE), SERVER_CARD_PATH) => Canned::json(200, CARD),
        _ => Canned::new(404),
    })
    .await;
    let mut site = scan_ignoring_robots(&server, &pki, SITE);
    let found = located_documents(&mut site).await.expect("documents");
    assert_eq!(found.cards.len(), 1);
    let asked = requests(&server);
    assert!(asked.iter().all(|(host, _)| host == SITE), "{asked:?}");
    assert!(asked.iter().any(|(_, path)| path == MCP_PATH), "{asked:?}");
    assert_eq!(
        site.redirects().len(),
        1,
        "the redirect stays in the record"
    );
}

#[tokio::test]
async fn a_card_on_a_subdomain_follows_that_subdomains_robots_txt() {
    // The catalog at the site lists a card on www, whose robots.txt disallows it.
    let (server, pki) = server(|seen| match (seen.host().as_deref(), seen.path.as_str()) {
        (Some(SITE), "/") => html("home"),
        (Some(SITE), AI_CATALOG_PATH) => Canned::json(
            200,
            format!(
                r#"{{"specVersion":"1.0","entries":[{{"identifier":"urn:x","type":"application/mcp-server-card+json","url":"{}"}}]}}"#,
                on(seen, WWW, "/card.json")
            ),
        ),
        (Some(WWW), "/robots.txt") => Canned::new(200).text("User-agent: *\nDisallow: /card.json\n"),
        (Some(WWW), "/card.json") => Canned::json(200, CARD),
        _ => Canned::new(404),
    })
    .await;
    let mut site = scan(&server, &pki, SITE);
    let found = located_documents(&mut site).await.expect("documents");
    let asked = requests(&server);
    assert!(
        asked.contains(&(WWW.to_owned(), "/robots.txt".to_owned())),
        "{asked:?}"
    );
    assert!(
        !asked.contains(&(WWW.to_owned(), "/card.json".to_owned())),
        "a card robots.txt disallows was fetched: {asked:?}"
    );
    assert!(found.catalog_cards.is_empty());
    // The record's robots section stays the measured origin's.
    let robots = site.robots().expect("robots read");
    assert_eq!(robots.url, format!("{}/robots.txt", origin(&server, SITE)));
    assert!(robots.skipped.iter().any(|u| u.ends_with("/card.json")));
}
