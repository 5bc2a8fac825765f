//! One site's discovery audit: the four places in the audit's order, which of them are served,
//! the discovery source, and every rule over the documents found.
//!
//! "Served" (the discovery audit's "hit" needs more: a document naming a server):
//! - At the paths the scan probes on its own (`/.well-known/mcp/server-card.json`,
//!   `<endpoint>/server-card`, `/.well-known/mcp.json`, `/.well-known/ai-catalog.json`), an
//!   HTML page or an empty body answered with 2xx is a soft 404: the site has no such file
//!   (many sites answer every path with their homepage). It is not served, gets no finding,
//!   and its document log carries `soft_404`.
//! - At a URL the site itself names (a catalog entry's `url`), the site says a card is there:
//!   an HTML page or an empty body is "the card is not valid JSON" (the discovery audit:
//!   "check the response is not an HTML error page returned with a 200").

use std::collections::HashSet;

use mcpcensus_store::bound::MAX_FINDINGS;
use mcpcensus_store::{Finding, Record};
use url::Url;

use super::card::{audit_card, CardDoc};
use super::catalog::audit_catalogs;
use super::manifest::{audit_manifest, served_evidence};
use super::rules::{Severity, MCP_JSON_SERVED, NO_SERVER};
use crate::discovery::{
    catalog_items, discovery_source, CatalogItem, DiscoverySource, DocumentParse, ParsedCard,
    SourceHits, MAX_INLINE_CARDS, MCP_JSON_PATH, SERVER_CARD_PATH,
};
use crate::discovery::{Discovery, FetchedCard};

/// The audit's result for one site.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteAudit {
    /// The first of the four places that named a server, or `None`: none did.
    pub source: Option<DiscoverySource>,
    pub findings: Vec<Finding>,
    /// Catalog entries left unaudited once the findings reached the record's bound.
    pub unaudited_entries: usize,
}

impl SiteAudit {
    /// Sets `discovery_source` and adds this audit's findings to the record (the scan audits
    /// once, after every document is in).
    pub fn apply_to(self, record: &mut Record) {
        record.discovery_source = self.source;
        record.findings.extend(self.findings);
        if self.unaudited_entries > 0 {
            let text = format!(
                "findings: the discovery audit stopped at {MAX_FINDINGS}; {} catalog entries \
                 not audited",
                self.unaudited_entries
            );
            record.truncated = Some(match record.truncated.take() {
                Some(before) => format!("{before}; {text}"),
                None => text,
            });
        }
    }
}

/// Audits what discovery found on the site at `origin`, `found.endpoint_card` included once the
/// scan has fetched it.
pub fn audit_site(found: &Discovery, origin: &Url) -> SiteAudit {
    let at_path = |path: &str| {
        found
            .cards
            .iter()
            .find(|card| card.url.path() == path)
            .filter(|card| is_served(&card.parse))
    };
    let well_known = at_path(SERVER_CARD_PATH);
    let manifest = at_path(MCP_JSON_PATH);
    let endpoint = found
        .endpoint_card
        .as_ref()
        .filter(|card| is_served(&card.parse));
    let inline = inline_cards(found);
    let listed = listed_cards(found);

    let hits = SourceHits {
        ai_catalog: found.catalogs.iter().any(|catalog| {
            catalog
                .parse
                .parsed()
                .is_some_and(|c| c.has_server_card_entry())
        }),
        server_card: SourceHits::card_hit(well_known.and_then(|card| card.parse.parsed())),
        endpoint_server_card: SourceHits::card_hit(endpoint.and_then(|card| card.parse.parsed())),
        mcp_json: SourceHits::card_hit(manifest.and_then(|card| card.parse.parsed())),
    };
    let source = discovery_source(&hits);

    let mut findings = Vec::new();
    if source.is_none() {
        findings.push(no_server(found, origin, [well_known, endpoint, manifest]));
    }
    if let Some(manifest) = manifest {
        // "Once a card exists": any card, at the other three places, that names a server.
        let card = [well_known, endpoint]
            .into_iter()
            .flatten()
            .chain(listed.iter().copied())
            .find(|card| SourceHits::card_hit(card.parse.parsed()))
            .map(|card| card.url.to_string())
            .or_else(|| {
                inline
                    .iter()
                    .find(|(_, _, parse)| SourceHits::card_hit(parse.parsed()))
                    .map(|(url, _, _)| url.to_string())
            });
        let parsed = manifest.parse.parsed();
        let evidence = served_evidence(parsed, manifest.parse.why_not(), card.as_deref());
        findings.push(MCP_JSON_SERVED.finding(&manifest.url, evidence));
        if let Some(parsed) = parsed {
            findings.extend(audit_manifest(&manifest.url, parsed));
        }
    }
    for card in well_known
        .into_iter()
        .chain(endpoint)
        .chain(listed.iter().copied())
    {
        findings.extend(audit_card(&CardDoc {
            url: &card.url,
            at: "",
            parse: &card.parse,
            headers: Some(&*card.headers),
        }));
    }
    for (url, at, parse) in &inline {
        findings.extend(audit_card(&CardDoc {
            url,
            at,
            parse,
            headers: None,
        }));
    }
    let budget = MAX_FINDINGS.saturating_sub(findings.len());
    let (catalog_findings, unaudited) = audit_catalogs(&found.catalogs, budget);
    findings.extend(catalog_findings);
    SiteAudit {
        source,
        findings: deduplicated(findings),
        unaudited_entries: unaudited,
    }
}

/// Served at a probed path: anything but a soft 404 (an HTML page) or an empty body.
fn is_served(parse: &DocumentParse<ParsedCard>) -> bool {
    !matches!(parse, DocumentParse::Html | DocumentParse::Empty)
}

/// The catalog-listed cards the scan fetched (inline cards carry their catalog's URL).
fn listed_cards(found: &Discovery) -> Vec<&FetchedCard> {
    let catalog_urls: HashSet<&str> = found.catalogs.iter().map(|c| c.url.as_str()).collect();
    found
        .catalog_cards
        .iter()
        .filter(|card| !catalog_urls.contains(card.url.as_str()))
        .collect()
}

/// The cards given inline in the catalogs: the catalog's URL, the entry, the card.
fn inline_cards(found: &Discovery) -> Vec<(Url, String, DocumentParse<ParsedCard>)> {
    let mut out = Vec::new();
    for catalog in &found.catalogs {
        let Some(parsed) = catalog.parse.parsed() else {
            continue;
        };
        for item in catalog_items(parsed, &catalog.url) {
            if let CatalogItem::InlineCard { entry, card } = item {
                // The scan read no more than these; the audit judges the same ones.
                if out.len() == MAX_INLINE_CARDS {
                    return out;
                }
                out.push((catalog.url.clone(), format!("entries[{entry}].data"), card));
            }
        }
    }
    out
}

/// `MCP-DISC-001`: `high` when the scan saw signs of a server (an endpoint candidate, or a
/// document at one of the four places that names none), `info` when the site runs none.
fn no_server(found: &Discovery, origin: &Url, served: [Option<&FetchedCard>; 3]) -> Finding {
    let broken: Vec<&str> = served
        .iter()
        .flatten()
        .map(|card| card.url.path())
        .collect();
    let candidates = found.candidates(origin);
    if let Some(candidate) = candidates.first() {
        let named = candidate
            .base
            .join(candidate.raw.trim())
            .map_or_else(|_| candidate.raw.clone(), String::from);
        let evidence = format!(
            "nothing at the four places, yet the scan found an MCP endpoint: {named} (via {})",
            candidate.via.as_str()
        );
        NO_SERVER.finding(origin, evidence)
    } else if !broken.is_empty() {
        let evidence = format!(
            "nothing at the four places names a server; served but unusable: {}",
            broken.join(", ")
        );
        NO_SERVER.finding(origin, evidence)
    } else {
        let evidence = "no MCP server found on the site: nothing to fix if you run none";
        NO_SERVER.finding_as(Severity::Info, origin, evidence)
    }
}

/// The same document reached twice (a catalog listing the well-known card) gives the same
/// findings twice; keep the first.
fn deduplicated(findings: Vec<Finding>) -> Vec<Finding> {
    let mut seen = HashSet::new();
    findings
        .into_iter()
        .filter(|f| seen.insert((f.rule_id.clone(), f.url.clone(), f.evidence.clone())))
        .collect()
}
