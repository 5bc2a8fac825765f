//! Audit unit tests, one file per rule family, on documents as the scan would have parsed them.

mod card;
mod catalog;
mod manifest;
mod revision;
mod site;

use std::collections::BTreeSet;

use http::{HeaderMap, HeaderName, HeaderValue};
use mcpcensus_store::{DiscoveredVia, Finding};
use serde_json::{json, Value};
use url::Url;

use super::{audit_site, SiteAudit};
use crate::discovery::{media_type, parse_card, parse_catalog};
use crate::discovery::{Discovery, FetchedCard, FetchedCatalog};

const ORIGIN: &str = "https://example.com";

fn url(path: &str) -> Url {
    Url::parse(ORIGIN).unwrap().join(path).unwrap()
}

fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.insert(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    map
}

/// The headers of a card served as the extension recommends.
fn card_headers() -> HeaderMap {
    headers(&[
        ("content-type", "application/mcp-server-card+json"),
        ("access-control-allow-origin", "*"),
        ("cache-control", "public, max-age=3600"),
    ])
}

/// A card with nothing to report.
fn good_card() -> Value {
    json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
        "name": "com.example/docs",
        "version": "1.0.0",
        "description": "Search and read the Example documentation.",
        "websiteUrl": "https://example.com",
        "remotes": [{
            "type": "streamable-http",
            "url": "https://example.com/mcp",
            "supportedProtocolVersions": ["2026-07-28", "2025-11-25"]
        }]
    })
}

/// A manifest with nothing to report but being served.
fn good_manifest() -> Value {
    json!({
        "name": "com.example/docs",
        "description": "Search and read the Example documentation.",
        "protocolVersion": "2025-11-25",
        "endpoint": "https://example.com/mcp",
        "tools": [{"name": "search_docs", "description": "Search the documentation."}],
        "resources": [{"uri": "docs://index", "name": "Index"}]
    })
}

/// A catalog listing one card at `card_path`.
fn good_catalog(card_path: &str) -> Value {
    json!({
        "specVersion": "1.0",
        "entries": [{
            "identifier": "urn:air:example.com:mcp:docs",
            "type": "application/mcp-server-card+json",
            "url": card_path
        }]
    })
}

/// `value` with the member a JSON pointer names set to `new` (`/remotes/0/type`).
fn with(mut value: Value, pointer: &str, new: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    value
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap()
        .insert(key.to_owned(), new);
    value
}

/// `value` without the member a JSON pointer names.
fn without(mut value: Value, pointer: &str) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    value
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap()
        .remove(key);
    value
}

fn fetched(path: &str, via: DiscoveredVia, body: &str, headers: HeaderMap) -> FetchedCard {
    FetchedCard {
        url: url(path),
        via,
        parse: parse_card(media_type(&headers).as_deref(), body.as_bytes()),
        headers: headers.into(),
    }
}

/// What discovery found on a test site, built document by document.
#[derive(Default)]
struct Docs {
    found: Discovery,
}

impl Docs {
    fn new() -> Docs {
        Docs::default()
    }

    /// A card or manifest at one of the card paths, served with `headers`.
    fn raw_at(mut self, path: &str, body: &str, headers: HeaderMap) -> Docs {
        let via = if path == crate::discovery::SERVER_CARD_PATH {
            DiscoveredVia::ServerCard
        } else {
            DiscoveredVia::LegacyCard
        };
        self.found.cards.push(fetched(path, via, body, headers));
        self
    }

    /// `/.well-known/mcp/server-card.json`, served with the recommended headers.
    fn card(self, card: Value) -> Docs {
        self.raw_at(
            crate::discovery::SERVER_CARD_PATH,
            &card.to_string(),
            card_headers(),
        )
    }

    /// `/.well-known/mcp.json`.
    fn manifest(self, manifest: Value) -> Docs {
        let headers = headers(&[("content-type", "application/json")]);
        self.raw_at(
            crate::discovery::MCP_JSON_PATH,
            &manifest.to_string(),
            headers,
        )
    }

    /// `<endpoint>/server-card` for the endpoint `/mcp`.
    fn endpoint_card(mut self, body: &str, headers: HeaderMap) -> Docs {
        let card = fetched("/mcp/server-card", DiscoveredVia::McpPath, body, headers);
        self.found.endpoint_card = Some(card);
        self
    }

    /// A catalog at `path` (the walk order is the order added).
    fn catalog(mut self, path: &str, depth: u8, catalog: Value) -> Docs {
        let body = catalog.to_string();
        self.found.catalogs.push(FetchedCatalog {
            url: url(path),
            depth,
            parse: parse_catalog(Some("application/json"), body.as_bytes()),
        });
        self
    }

    /// A card a catalog listed, fetched from `path`.
    fn listed(mut self, path: &str, body: &str, headers: HeaderMap) -> Docs {
        let card = fetched(path, DiscoveredVia::AiCatalog, body, headers);
        self.found.catalog_cards.push(card);
        self
    }

    fn audit(&self) -> SiteAudit {
        audit_site(&self.found, &url("/"))
    }
}

fn ids(audit: &SiteAudit) -> BTreeSet<&str> {
    audit.findings.iter().map(|f| f.rule_id.as_str()).collect()
}

/// Asserts the exact set of rule ids, showing the findings when it differs.
#[track_caller]
fn assert_ids(audit: &SiteAudit, expected: &[&str]) {
    let expected: BTreeSet<&str> = expected.iter().copied().collect();
    assert_eq!(ids(audit), expected, "findings: {:#?}", audit.findings);
}

/// The only finding of `rule_id`.
#[track_caller]
fn only<'a>(audit: &'a SiteAudit, rule_id: &str) -> &'a Finding {
    let found: Vec<&Finding> = audit
        .findings
        .iter()
        .filter(|f| f.rule_id == rule_id)
        .collect();
    assert_eq!(found.len(), 1, "{rule_id}: {:#?}", audit.findings);
    found[0]
}
