//! The discovery fetches of the survey, in its order: the homepage, the card paths, the AI
//! catalog (with the cards and nested catalogs it lists on the site), and one plain GET of
//! `/mcp`. Each is recorded; the parsed documents are kept for the endpoint choice and audit.

use std::sync::Arc;
use std::time::Duration;

use mcpcensus_store::{DiscoveredVia, DocumentKind, DocumentLog, FailureKind};
use tokio::time::Instant;
use url::Url;

use super::answer::{empty_log, log_answer, Fetched, DOCUMENT_TIMEOUT};
use super::locate::{locate, Located};
use super::site::SiteScan;
use crate::discovery::{
    self as d, card_via, catalog_items, home_links, judge_mcp_body, judge_mcp_head, media_type,
    parse_card, parse_catalog, CatalogItem, CatalogWalk, Discovery, DocumentParse, FetchedCard,
    FetchedCatalog, HeadVerdict, McpSignal, NoSignalReason, WalkStep, MAX_INLINE_CARDS,
};
use crate::net::FetchError;

/// The `/mcp` GET is judged on its head (an endless event stream must not hold the scan);
/// it gets this long, so it can never eat the session's 12 s.
pub const MCP_GET_TIMEOUT: Duration = Duration::from_secs(5);
/// The discovery documents, at the origin the homepage's redirects lead to; `Err` with the
/// verdict's reason when they leave the site (see [`locate`]).
pub async fn fetch_documents(
    site: &mut SiteScan,
    doc_cap: usize,
    excluded: &(dyn Fn(&str) -> bool + Sync),
) -> Result<Discovery, (FailureKind, String)> {
    let mut found = Discovery::default();
    let (home_url, home) = match locate(site, doc_cap, excluded).await {
        Located::Home(url, fetched) => (url, fetched),
        Located::Left(kind, reason) => return Err((kind, reason)),
        Located::NoAnswer(e) => {
            found.home_failure = Some(e);
            return Ok(found);
        }
    };
    let origin = site.origin.clone();
    let measured = d::Site::from_origin(&origin);
    let on_site = |url: &Url| measured.as_ref().is_some_and(|s| s.contains(url));

    // The homepage: its Link header and <link> elements.
    match home {
        Fetched::Body(headers, body) => {
            found.links = home_links(&headers, &body, &home_url);
            if let Some(doc) = site.record.documents.last_mut() {
                doc.parsed = true;
            }
        }
        Fetched::Status => {}
        Fetched::Failed(e) => {
            // Nothing answers: the other documents would only wait out the same failure.
            if matches!(
                e,
                FetchError::Connect { .. }
                    | FetchError::Tls { .. }
                    | FetchError::Guard { .. }
                    | FetchError::Resolve { .. }
            ) {
                found.home_failure = Some(e);
                return Ok(found);
            }
        }
    }
    for path in d::CARD_PATHS {
        let Ok(url) = origin.join(path) else { continue };
        let via = card_via(path).unwrap_or(DiscoveredVia::LegacyCard);
        let kind = if via == DiscoveredVia::ServerCard {
            DocumentKind::ServerCard
        } else {
            DocumentKind::LegacyCard
        };
        if let Some(card) = fetch_card(site, &url, kind, via, doc_cap).await {
            found.cards.push(card);
        }
    }
    // The catalog, breadth first, with the walk's depth, cycle and count limits.
    let mut walk = CatalogWalk::new();
    let mut queue = Vec::new();
    if let Ok(url) = origin.join(d::AI_CATALOG_PATH) {
        queue.push((url, 0u8));
    }
    while !queue.is_empty() {
        let (url, depth) = queue.remove(0);
        if walk.visit_catalog(&url, depth) != WalkStep::Fetch {
            continue;
        }
        let Fetched::Body(headers, body) =
            fetch_doc(site, &url, DocumentKind::AiCatalog, doc_cap).await
        else {
            continue;
        };
        let parse = parse_catalog(media_type(&headers).as_deref(), &body);
        mark_parse(site, &parse);
        let log_at = site.record.documents.len() - 1;
        let mut inline_cut = 0usize;
        if let Some(catalog) = parse.parsed() {
            for item in catalog_items(catalog, &url) {
                match item {
                    CatalogItem::CardUrl { url: card_url, .. } => {
                        if !on_site(&card_url) || walk.visit_card(&card_url) != WalkStep::Fetch {
                            continue;
                        }
                        let kind = DocumentKind::CatalogCard;
                        let via = DiscoveredVia::AiCatalog;
                        if let Some(card) = fetch_card(site, &card_url, kind, via, doc_cap).await {
                            found.catalog_cards.push(card);
                        }
                    }
                    CatalogItem::InlineCard { .. } if walk.visit_inline() != WalkStep::Fetch => {
                        inline_cut += 1;
                    }
                    CatalogItem::InlineCard { card, .. } => found.catalog_cards.push(FetchedCard {
                        url: url.clone(),
                        via: DiscoveredVia::AiCatalog,
                        parse: card,
                        headers: Arc::clone(&headers),
                    }),
                    CatalogItem::Catalog { url: nested, .. } if on_site(&nested) => {
                        queue.push((nested, depth.saturating_add(1)));
                    }
                    CatalogItem::Catalog { .. } | CatalogItem::BadUrl { .. } => {}
                }
            }
        }
        if inline_cut > 0 {
            note_cut(&mut site.record.documents[log_at], inline_cut);
        }
        found.catalogs.push(FetchedCatalog { url, depth, parse });
    }
    if let Ok(url) = origin.join(d::MCP_PATH) {
        found.mcp_signal = Some(probe_mcp_path(site, &url).await);
    }
    Ok(found)
}

/// Says on a catalog's log how many of its inline cards went unread.
fn note_cut(log: &mut DocumentLog, cut: usize) {
    let what = format!("{cut} inline card(s) not read (at most {MAX_INLINE_CARDS} a site)");
    log.note = Some(match log.note.take() {
        Some(note) => format!("{note}; {what}"),
        None => what,
    });
}

/// GETs a document and records it.
async fn fetch_doc(site: &mut SiteScan, url: &Url, kind: DocumentKind, cap: usize) -> Fetched {
    fetch_doc_within(site, url, kind, cap, DOCUMENT_TIMEOUT).await
}

/// The same, with its own time limit.
async fn fetch_doc_within(
    site: &mut SiteScan,
    url: &Url,
    kind: DocumentKind,
    cap: usize,
    timeout: Duration,
) -> Fetched {
    let result = site.get_document(url, kind.as_str(), cap, timeout).await;
    log_answer(site, kind, url, cap, result)
}

async fn fetch_card(
    site: &mut SiteScan,
    url: &Url,
    kind: DocumentKind,
    via: DiscoveredVia,
    cap: usize,
) -> Option<FetchedCard> {
    fetch_card_within(site, url, kind, via, cap, DOCUMENT_TIMEOUT).await
}

/// A card's fetch with its own time limit: `None` unless it answered 2xx.
pub(super) async fn fetch_card_within(
    site: &mut SiteScan,
    url: &Url,
    kind: DocumentKind,
    via: DiscoveredVia,
    cap: usize,
    timeout: Duration,
) -> Option<FetchedCard> {
    let Fetched::Body(headers, body) = fetch_doc_within(site, url, kind, cap, timeout).await else {
        return None;
    };
    let parse = parse_card(media_type(&headers).as_deref(), &body);
    mark_parse(site, &parse);
    Some(FetchedCard {
        url: url.clone(),
        via,
        parse,
        headers,
    })
}

/// Notes on the last document log how its body read.
fn mark_parse<T>(site: &mut SiteScan, parse: &DocumentParse<T>) {
    if let Some(doc) = site.record.documents.last_mut() {
        doc.parsed = parse.parsed().is_some();
        doc.soft_404 = matches!(parse, DocumentParse::Html) && doc.status == Some(200);
        if let Some(why) = parse.why_not() {
            doc.note = Some(why);
        }
    }
}

/// One plain GET of `/mcp`, judged on status and headers as soon as they arrive; a small body
/// is read only when the head cannot decide.
async fn probe_mcp_path(site: &mut SiteScan, url: &Url) -> McpSignal {
    let started = Instant::now();
    let head = site
        .get_head(url, "mcp_path", d::MCP_PATH_BODY_LIMIT, MCP_GET_TIMEOUT)
        .await;
    let mut log = empty_log(DocumentKind::McpPath, url);
    let signal = match head {
        Err(e) => {
            log.note = Some(match e {
                FetchError::Timeout { .. } => {
                    format!("no answer within {} s", MCP_GET_TIMEOUT.as_secs())
                }
                other => other.to_string(),
            });
            McpSignal::NoSignal {
                why: NoSignalReason::NoAnswer,
            }
        }
        Ok(mut head) => {
            log.status = Some(head.status.as_u16());
            log.content_type = media_type(&head.headers);
            let verdict = match judge_mcp_head(head.status, &head.headers) {
                HeadVerdict::Decided(signal) => signal,
                HeadVerdict::ReadBody => {
                    let body = read_some(&mut head.body, d::MCP_PATH_BODY_LIMIT).await;
                    site.note_body(&body);
                    log.bytes = body.len() as u64;
                    judge_mcp_body(&body)
                }
            };
            // Drop the stream now: an event stream may never end.
            head.body.abort();
            verdict
        }
    };
    log.parsed = signal.signals();
    if let McpSignal::NoSignal { why } = signal {
        log.note.get_or_insert_with(|| why.as_str().to_owned());
    } else {
        log.note = Some(signal.as_str().to_owned());
    }
    if let Some(entry) = site.record.requests.last_mut() {
        entry.ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
    }
    site.record.documents.push(log);
    signal
}

/// Reads up to `limit` bytes (less if the body ends, fails or times out first).
async fn read_some(body: &mut crate::net::BodyReader, limit: usize) -> Vec<u8> {
    let mut out = Vec::new();
    while out.len() < limit {
        match body.chunk().await {
            Ok(Some(chunk)) => out.extend_from_slice(&chunk),
            _ => break,
        }
    }
    out.truncate(limit);
    out
}
