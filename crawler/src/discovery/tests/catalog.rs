use std::collections::HashMap;

use url::Url;

use super::url;
use crate::discovery::*;

fn parsed(body: &str) -> ParsedCatalog {
    match parse_catalog(Some("application/ai-catalog+json"), body.as_bytes()) {
        DocumentParse::Parsed(catalog) => catalog,
        other => panic!("not parsed: {other:?}"),
    }
}

const SPEC_EXAMPLE: &str = r#"{"specVersion":"1.0",
 "host":{"displayName":"Acme","identifier":"did:web:acme.com"},
 "entries":[
  {"identifier":"urn:air:acme.com:mcp:code-review","type":"application/mcp-server-card+json","url":"/code-review/server-card"},
  {"identifier":"urn:air:acme.com:mcp:inline","type":"application/mcp-server-card+json",
   "data":{"name":"com.acme/inline","version":"1.0.0","description":"Inline card","remotes":[{"type":"streamable-http","url":"/mcp"}]}},
  {"identifier":"urn:air:acme.com:a2a:research","type":"application/a2a-agent-card+json","url":"https://agents.acme.com/research"},
  {"identifier":"urn:air:acme.com:catalog:finance","displayName":"Finance","type":"application/ai-catalog+json","url":"catalogs/finance.json"}]}"#;

#[test]
fn catalog_with_type_yields_cards_and_nested_catalogs_in_order() {
    let catalog = parsed(SPEC_EXAMPLE);
    assert_eq!(catalog.spec_version.text(), Some("1.0"));
    let entries = catalog.entries.get().unwrap();
    let kinds: Vec<EntryKind> = entries.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EntryKind::ServerCard,
            EntryKind::ServerCard,
            EntryKind::A2aAgentCard,
            EntryKind::Catalog
        ]
    );
    assert!(entries.iter().all(|e| e.type_key == TypeKey::Type));
    assert!(entries.iter().all(|e| e.problems().is_empty()));
    assert!(catalog.has_server_card_entry());

    let base = url("https://acme.com/.well-known/ai-catalog.json");
    let items = catalog_items(&catalog, &base);
    assert_eq!(items.len(), 3);
    assert_eq!(
        items[0],
        CatalogItem::CardUrl {
            entry: 0,
            url: url("https://acme.com/code-review/server-card")
        }
    );
    let CatalogItem::InlineCard { entry: 1, card } = &items[1] else {
        panic!("expected an inline card: {:?}", items[1]);
    };
    let card = card.parsed().unwrap();
    assert_eq!(card.name.text(), Some("com.acme/inline"));
    let candidates = Candidate::from_card(card, &base, mcpcensus_store::DiscoveredVia::AiCatalog);
    assert_eq!(
        candidates[0]
            .base
            .join(&candidates[0].raw)
            .unwrap()
            .as_str(),
        "https://acme.com/mcp"
    );
    assert_eq!(
        items[2],
        CatalogItem::Catalog {
            entry: 3,
            url: url("https://acme.com/.well-known/catalogs/finance.json")
        }
    );
}

#[test]
fn older_media_type_key_is_read() {
    let catalog = parsed(
        r#"{"entries":[{"identifier":"x","mediaType":"Application/MCP-Server-Card+JSON; charset=utf-8",
            "url":"https://example.com/.well-known/mcp/server-card.json"}]}"#,
    );
    assert!(catalog.spec_version.is_absent());
    let entry = &catalog.entries.get().unwrap()[0];
    assert_eq!(entry.type_key, TypeKey::MediaType);
    assert_eq!(entry.kind, EntryKind::ServerCard);
    assert!(catalog.has_server_card_entry());
    let items = catalog_items(
        &catalog,
        &url("https://example.com/.well-known/ai-catalog.json"),
    );
    assert!(matches!(&items[0], CatalogItem::CardUrl { url, .. }
        if url.as_str() == "https://example.com/.well-known/mcp/server-card.json"));
}

#[test]
fn entry_problems() {
    let catalog = parsed(
        r#"{"specVersion":"1.0","entries":[
            {"type":"application/mcp-server-card+json","url":"/a"},
            {"identifier":"b","url":"/b"},
            {"identifier":"c","type":"application/mcp-server-card+json"},
            {"identifier":"d","type":"application/mcp-server-card+json","url":"/d","data":{"name":"d"}},
            {"identifier":"e","type":"application/agent-skills+zip","url":"/e.zip"},
            {"identifier":"f","type":"application/mcp-server-card+json","data":null},
            "g"
        ]}"#,
    );
    let problems: Vec<Vec<EntryProblem>> = catalog
        .entries
        .get()
        .unwrap()
        .iter()
        .map(CatalogEntry::problems)
        .collect();
    assert_eq!(
        problems,
        vec![
            vec![EntryProblem::NoIdentifier],
            vec![EntryProblem::NoType],
            vec![EntryProblem::NoUrlOrData],
            vec![EntryProblem::UrlAndData],
            vec![EntryProblem::UnrecognisedType(
                "application/agent-skills+zip".into()
            )],
            vec![EntryProblem::NoUrlOrData],
            vec![
                EntryProblem::NoIdentifier,
                EntryProblem::NoType,
                EntryProblem::NoUrlOrData
            ],
        ]
    );
    let items = catalog_items(
        &catalog,
        &url("https://example.com/.well-known/ai-catalog.json"),
    );
    // Entry 0 (no identifier, still usable), entry 3 by its data; the rest are not cards.
    let entries: Vec<usize> = items
        .iter()
        .map(|item| match item {
            CatalogItem::CardUrl { entry, .. }
            | CatalogItem::InlineCard { entry, .. }
            | CatalogItem::Catalog { entry, .. }
            | CatalogItem::BadUrl { entry, .. } => *entry,
        })
        .collect();
    assert_eq!(entries, [0, 3]);
    assert!(matches!(items[1], CatalogItem::InlineCard { .. }));
}

#[test]
fn unresolvable_urls_and_documents_that_are_not_catalogs() {
    let catalog = parsed(
        r#"{"specVersion":"1.0","entries":[
            {"identifier":"a","type":"application/mcp-server-card+json","url":"https://[bad/card"}]}"#,
    );
    let items = catalog_items(
        &catalog,
        &url("https://example.com/.well-known/ai-catalog.json"),
    );
    assert_eq!(
        items,
        [CatalogItem::BadUrl {
            entry: 0,
            url: "https://[bad/card".into()
        }]
    );
    assert_eq!(
        parse_catalog(Some("text/html"), b"<html><body>404</body></html>"),
        DocumentParse::Html
    );
    let no_entries = parsed(r#"{"specVersion":"1.0","agents":[]}"#);
    assert!(no_entries.entries.is_absent());
    assert!(!no_entries.has_server_card_entry());
    assert_eq!(no_entries.keys, ["agents", "specVersion"]);
}

#[test]
fn walk_limits_depth_and_refuses_revisits() {
    let mut walk = CatalogWalk::new();
    for depth in 0..=MAX_CATALOG_DEPTH {
        let u = url(&format!("https://example.com/c{depth}.json"));
        assert_eq!(
            walk.visit_catalog(&u, depth),
            WalkStep::Fetch,
            "depth {depth}"
        );
    }
    assert_eq!(
        walk.visit_catalog(&url("https://example.com/c5.json"), MAX_CATALOG_DEPTH + 1),
        WalkStep::TooDeep
    );
    assert_eq!(
        walk.visit_catalog(&url("https://example.com/c0.json#top"), 2),
        WalkStep::AlreadyVisited
    );
    for n in 0..(MAX_CATALOG_FETCHES - 5) {
        let u = url(&format!("https://example.com/wide{n}.json"));
        assert_eq!(walk.visit_catalog(&u, 1), WalkStep::Fetch);
    }
    assert_eq!(
        walk.visit_catalog(&url("https://example.com/one-more.json"), 1),
        WalkStep::TooMany
    );

    let card = url("https://example.com/card.json");
    assert_eq!(walk.visit_card(&card), WalkStep::Fetch);
    assert_eq!(walk.visit_card(&card), WalkStep::AlreadyVisited);
    for n in 1..MAX_CATALOG_CARD_FETCHES {
        let u = url(&format!("https://example.com/card{n}.json"));
        assert_eq!(walk.visit_card(&u), WalkStep::Fetch);
    }
    assert_eq!(
        walk.visit_card(&url("https://example.com/late.json")),
        WalkStep::TooMany
    );
}

#[test]
fn inline_cards_are_capped_per_site() {
    let mut walk = CatalogWalk::new();
    for _ in 0..MAX_INLINE_CARDS {
        assert_eq!(walk.visit_inline(), WalkStep::Fetch);
    }
    assert_eq!(walk.visit_inline(), WalkStep::TooMany);
    // Fetched cards have their own count.
    let card = url("https://example.com/card.json");
    assert_eq!(walk.visit_card(&card), WalkStep::Fetch);
}

/// Walks catalogs the way the scan does, over an in-memory web, collecting card URLs.
fn walk_all(web: &HashMap<&str, String>, root: &str) -> (Vec<String>, Vec<(String, WalkStep)>) {
    let mut walk = CatalogWalk::new();
    let mut cards = Vec::new();
    let mut refused = Vec::new();
    let mut stack: Vec<(Url, u8)> = vec![(url(root), 0)];
    while let Some((at, depth)) = stack.pop() {
        match walk.visit_catalog(&at, depth) {
            WalkStep::Fetch => {}
            step => {
                refused.push((at.to_string(), step));
                continue;
            }
        }
        let body = web.get(at.as_str()).unwrap();
        let catalog = parse_catalog(None, body.as_bytes()).into_parsed().unwrap();
        let mut nested = Vec::new();
        for item in catalog_items(&catalog, &at) {
            match item {
                CatalogItem::CardUrl { url, .. } => cards.push(url.to_string()),
                CatalogItem::Catalog { url, .. } => nested.push((url, depth + 1)),
                other => panic!("unexpected {other:?}"),
            }
        }
        // Depth first, in document order.
        stack.extend(nested.into_iter().rev());
    }
    (cards, refused)
}

fn chain_catalog(card: &str, next: Option<&str>) -> String {
    let mut entries = vec![format!(
        r#"{{"identifier":"{card}","type":"application/mcp-server-card+json","url":"{card}"}}"#
    )];
    if let Some(next) = next {
        entries.push(format!(
            r#"{{"identifier":"{next}","type":"application/ai-catalog+json","url":"{next}"}}"#
        ));
    }
    format!(
        r#"{{"specVersion":"1.0","entries":[{}]}}"#,
        entries.join(",")
    )
}

#[test]
fn nested_catalogs_stop_at_the_depth_limit() {
    let names: Vec<String> = (0..=6)
        .map(|n| format!("https://example.com/n{n}.json"))
        .collect();
    let mut web = HashMap::new();
    for n in 0..=6 {
        let next = names.get(n + 1).map(String::as_str);
        web.insert(names[n].as_str(), chain_catalog(&format!("/card{n}"), next));
    }
    let (cards, refused) = walk_all(&web, &names[0]);
    assert_eq!(
        cards,
        (0..=4)
            .map(|n| format!("https://example.com/card{n}"))
            .collect::<Vec<_>>()
    );
    assert_eq!(refused, [(names[5].clone(), WalkStep::TooDeep)]);
}

#[test]
fn a_catalog_cycle_is_fetched_once() {
    let a = "https://example.com/a.json";
    let b = "https://example.com/b.json";
    let web = HashMap::from([
        (a, chain_catalog("/card-a", Some(b))),
        (b, chain_catalog("/card-b", Some("/a.json"))),
    ]);
    let (cards, refused) = walk_all(&web, a);
    assert_eq!(
        cards,
        ["https://example.com/card-a", "https://example.com/card-b"]
    );
    assert_eq!(refused, [(a.to_owned(), WalkStep::AlreadyVisited)]);
}
