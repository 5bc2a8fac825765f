//! What the scan fetched on one site, as the discovery audit and the endpoint choice read it:
//! the documents with their URLs and parses, the links and the `/mcp` signal. Plain data (the
//! scan fills it in), so the audit depends on discovery only.

use std::sync::Arc;

use http::HeaderMap;
use mcpcensus_store::DiscoveredVia;
use url::Url;

use super::card::ParsedCard;
use super::catalog::ParsedCatalog;
use super::document::DocumentParse;
use super::endpoint::Candidate;
use super::links::FoundLink;
use super::mcp_path::McpSignal;

/// A card as fetched (or given inline in a catalog).
#[derive(Debug, Clone)]
pub struct FetchedCard {
    pub url: Url,
    pub via: DiscoveredVia,
    pub parse: DocumentParse<ParsedCard>,
    /// Shared: every inline card of a catalog has the catalog's headers.
    pub headers: Arc<HeaderMap>,
}

#[derive(Debug, Clone)]
pub struct FetchedCatalog {
    pub url: Url,
    pub depth: u8,
    pub parse: DocumentParse<ParsedCatalog>,
}

/// What discovery found on one site.
#[derive(Debug, Default)]
pub struct Discovery {
    pub links: Vec<FoundLink>,
    /// Cards at the card paths, in the survey's order.
    pub cards: Vec<FetchedCard>,
    pub catalogs: Vec<FetchedCatalog>,
    /// Cards the catalogs listed (fetched on the site, or inline).
    pub catalog_cards: Vec<FetchedCard>,
    /// `<endpoint>/server-card` (the discovery audit), fetched after the endpoint choice and the
    /// session (`endpoint_card.rs`); `None` until then, and when it answered without 2xx.
    pub endpoint_card: Option<FetchedCard>,
    pub mcp_signal: Option<McpSignal>,
}

impl Discovery {
    /// Every endpoint candidate, for `select_endpoint` (which orders them).
    pub fn candidates(&self, origin: &Url) -> Vec<Candidate> {
        let mut out = Vec::new();
        for card in self.cards.iter().chain(&self.catalog_cards) {
            if let Some(parsed) = card.parse.parsed() {
                out.extend(Candidate::from_card(parsed, &card.url, card.via));
            }
        }
        out.extend(Candidate::from_links(&self.links));
        if self.mcp_signal.is_some_and(McpSignal::signals) {
            out.push(Candidate::mcp_path(origin));
        }
        out
    }

    /// The site shows an API or agent surface (the population the survey's MCP check is asked
    /// of): a discovery document served and parsed (a card, a catalog, the endpoint's card), an
    /// MCP or agent Link relation, a `/mcp` signal, or a 401 on `/mcp`.
    pub fn surface(&self) -> bool {
        let parsed = |card: &FetchedCard| card.parse.parsed().is_some();
        self.cards.iter().chain(&self.catalog_cards).any(parsed)
            || self.endpoint_card.as_ref().is_some_and(parsed)
            || self.catalogs.iter().any(|c| c.parse.parsed().is_some())
            || !self.links.is_empty()
            || self.mcp_signal.is_some_and(|s| {
                s.signals()
                    || s == McpSignal::NoSignal {
                        why: super::NoSignalReason::Unauthorized,
                    }
            })
    }
}
