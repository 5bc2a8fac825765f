//! The catalog rules, for `/.well-known/ai-catalog.json` and every catalog nested in it that
//! the scan fetched on the site.

use std::collections::HashSet;

use mcpcensus_store::Finding;
use url::Url;

use super::evidence::{quoted, unusable_text};
use super::rules::{INCOMPLETE_ENTRY, NO_SPEC_VERSION, UNRECOGNISED_ENTRY_TYPE};
use crate::discovery::FetchedCatalog;
use crate::discovery::{catalog_items, CatalogEntry, CatalogItem, EntryProblem, ParsedCatalog};

/// The catalog rules' findings, at most `budget` of them (the record keeps no more), and the
/// entries left unaudited once that many were found.
pub(super) fn audit_catalogs(catalogs: &[FetchedCatalog], budget: usize) -> (Vec<Finding>, usize) {
    let parsed: Vec<(&Url, &ParsedCatalog)> = catalogs
        .iter()
        .filter_map(|catalog| Some((&catalog.url, catalog.parse.parsed()?)))
        .collect();
    let leading = leading_to_cards(&parsed);
    let mut out = Vec::new();
    let mut unaudited = 0usize;
    for (url, catalog) in &parsed {
        // The discovery audit: "the card was found through /.well-known/ai-catalog.json and that
        // catalog carries no specVersion": only catalogs on the way to a server card.
        if leading.contains(url.as_str()) {
            if let Some(why) = unusable_text("specVersion", &catalog.spec_version) {
                out.push(NO_SPEC_VERSION.finding(url, why));
            }
        }
        for (index, entry) in catalog.entries.get().into_iter().flatten().enumerate() {
            if out.len() >= budget {
                unaudited += 1;
                continue;
            }
            out.extend(audit_entry(url, index, entry));
        }
    }
    (out, unaudited)
}

/// The catalogs a server card was found through: those listing a server card entry, and
/// those listing a (fetched) catalog that does, to any depth.
fn leading_to_cards(parsed: &[(&Url, &ParsedCatalog)]) -> HashSet<String> {
    let mut leading: HashSet<String> = parsed
        .iter()
        .filter(|(_, catalog)| catalog.has_server_card_entry())
        .map(|(url, _)| url.to_string())
        .collect();
    loop {
        let before = leading.len();
        for (url, catalog) in parsed {
            let leads = catalog_items(catalog, url).iter().any(|item| match item {
                CatalogItem::Catalog { url: nested, .. } => leading.contains(nested.as_str()),
                _ => false,
            });
            if leads {
                leading.insert(url.to_string());
            }
        }
        if leading.len() == before {
            return leading;
        }
    }
}

/// `MCP-CAT-002` for what the entry lacks, `MCP-CAT-003` for a type outside the three.
fn audit_entry(url: &Url, index: usize, entry: &CatalogEntry) -> Vec<Finding> {
    let at = format!("entries[{index}]");
    let mut out = Vec::new();
    let mut lacks = Vec::new();
    for problem in entry.problems() {
        match problem {
            EntryProblem::NoIdentifier => lacks.push(
                unusable_text(&format!("{at}.identifier"), &entry.identifier)
                    .unwrap_or_else(|| format!("`{at}.identifier` is blank")),
            ),
            EntryProblem::NoType => lacks.push(
                unusable_text(&format!("{at}.type"), &entry.entry_type)
                    .unwrap_or_else(|| format!("`{at}.type` is blank")),
            ),
            EntryProblem::NoUrlOrData => lacks.push(format!("`{at}` has neither url nor data")),
            EntryProblem::UnrecognisedType(kind) => {
                let why = format!("`{at}.type` is {}", quoted(&kind));
                out.push(UNRECOGNISED_ENTRY_TYPE.finding(url, why));
            }
            // Both is usable (the scan takes the data); the discovery audit names only what is
            // missing.
            EntryProblem::UrlAndData => {}
        }
    }
    if let Some(kind) = entry.not_object {
        lacks = vec![format!("`{at}` is a {}, not an object", kind.as_str())];
    }
    if !lacks.is_empty() {
        out.insert(0, INCOMPLETE_ENTRY.finding(url, lacks.join("; ")));
    }
    out
}
