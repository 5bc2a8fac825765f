//! What the scan fetched on one site, as the discovery audit, the endpoint choice and the
//! surface population read it: the documents with their URLs and parses, the links, the `/mcp`
//! signal and the API and agent surface documents. Plain data (the scan fills it in), so the
//! audit depends on discovery only.

use std::sync::Arc;

use http::HeaderMap;
use mcpcensus_store::{DiscoveredVia, SurfaceSignal};
use url::Url;

use super::card::ParsedCard;
use super::catalog::ParsedCatalog;
use super::document::DocumentParse;
use super::endpoint::Candidate;
use super::links::{FoundLink, LinkKind};
use super::mcp_path::{McpSignal, NoSignalReason};

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

/// An API or agent surface document as read: the signal it gives, and whether it counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceDoc {
    pub signal: SurfaceSignal,
    /// Served (2xx) and read as the document it should be (`read_surface`).
    pub counted: bool,
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
    /// `/mcp`'s GET got no answer for a reason that may pass (the fetch's own typed verdict:
    /// a timeout, a reset, no connection): the site is worth a second look.
    pub mcp_may_pass: bool,
    /// The API and agent surface documents asked for, in order (the table's, then the OpenAPI
    /// document a `service-desc` link names).
    pub surface_docs: Vec<SurfaceDoc>,
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

    /// The kinds of API or agent surface evidence seen, each once, in [`SurfaceSignal`]'s
    /// order: the population the survey's MCP check is asked of is the sites where this is
    /// not empty (docs/rules.md, "The surface population").
    pub fn surface_signals(&self) -> Vec<SurfaceSignal> {
        SurfaceSignal::ALL
            .iter()
            .copied()
            .filter(|signal| self.saw(*signal))
            .collect()
    }

    fn saw(&self, signal: SurfaceSignal) -> bool {
        let linked = |kind: LinkKind| self.links.iter().any(|link| link.kind == kind);
        let counted = |signal| {
            self.surface_docs
                .iter()
                .any(|doc| doc.signal == signal && doc.counted)
        };
        match signal {
            SurfaceSignal::Mcp => self.mcp_evidence(),
            SurfaceSignal::AiCatalog => {
                self.catalogs.iter().any(|c| c.parse.parsed().is_some())
                    || linked(LinkKind::AiCatalog)
            }
            SurfaceSignal::ApiCatalog => linked(LinkKind::ApiCatalog) || counted(signal),
            SurfaceSignal::ServiceDesc => linked(LinkKind::ServiceDesc),
            SurfaceSignal::ServiceDoc => linked(LinkKind::ServiceDoc),
            SurfaceSignal::Openapi
            | SurfaceSignal::A2aAgentCard
            | SurfaceSignal::OauthProtectedResource
            | SurfaceSignal::OauthAuthorizationServer => counted(signal),
        }
    }

    /// The MCP evidence the surface flag was built from before the other signals: an MCP card
    /// served and parsed (at a card path, listed in a catalog, the endpoint's), an `mcp` or
    /// `mcp-server` Link relation, a `/mcp` signal, or a 401 on `/mcp`.
    fn mcp_evidence(&self) -> bool {
        let parsed = |card: &FetchedCard| card.parse.parsed().is_some();
        self.cards.iter().chain(&self.catalog_cards).any(parsed)
            || self.endpoint_card.as_ref().is_some_and(parsed)
            || self.links.iter().any(|link| link.kind == LinkKind::Mcp)
            || self.mcp_signal.is_some_and(|s| {
                s.signals()
                    || s == McpSignal::NoSignal {
                        why: NoSignalReason::Unauthorized,
                    }
            })
    }
}
