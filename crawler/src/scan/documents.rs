//! The documents phase: the homepage's links, then the survey's table of documents in order
//! (the card paths, the AI catalog with the cards and nested catalogs it lists on the site,
//! one plain GET of `/mcp`, the API and agent surface documents), then the OpenAPI document a
//! homepage `service-desc` link names on the site. Each is recorded; the parsed documents are
//! kept for the endpoint choice, the audit and the surface population.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use mcpcensus_store::{DiscoveredVia, DocumentKind, DocumentLog, SurfaceSignal};
use tokio::time::Instant;
use url::Url;

use super::answer::redirect_of;
use super::answer::{empty_log, log_answer, Fetched};
use super::locate::{next_hop, Located};
use super::robots::{robots_before, robots_before_document};
use super::site::SiteScan;
use crate::discovery::{
    self as d, catalog_items, home_links, judge_mcp_body, judge_mcp_head, media_type, parse_card,
    parse_catalog, read_surface, service_desc_url, CatalogItem, CatalogWalk, Discovery,
    DocumentParse, DocumentRow, FetchedCard, FetchedCatalog, HeadVerdict, McpSignal,
    NoSignalReason, Reader, SurfaceDoc, WalkStep, DOCUMENT_TIMEOUT, MAX_CATALOG_ENTRIES,
    MAX_INLINE_CARDS, SURVEY_DOCUMENTS,
};
use crate::net::FetchError;
use crate::verdict::Verdict;

/// The discovery documents, at the origin the homepage's redirects led to (`located`): the
/// homepage's links, then each row of the survey's table in order. `Err` with the verdict
/// when nothing answers there.
pub(super) async fn fetch_documents(
    site: &mut SiteScan,
    located: &mut Located,
    doc_cap: usize,
    excluded: &(dyn Fn(&str) -> bool + Sync),
    found: &mut Discovery,
) -> Result<(), Verdict> {
    read_home(site, located, found)?;
    for row in &SURVEY_DOCUMENTS {
        let Ok(url) = located.origin.join(row.path) else {
            continue;
        };
        match row.reader {
            Reader::Card(via) => {
                let card = fetch_card_within(site, &url, row.kind, via, doc_cap, row.timeout);
                if let Some(card) = card.await {
                    found.cards.push(card);
                }
            }
            Reader::Catalog(via) => {
                // Boxed: the walk's state is the largest of the rows', and inline it would size
                // the scan future that every site in flight holds for its whole scan.
                Box::pin(walk_catalogs(site, url, row, via, doc_cap, located, found)).await;
            }
            Reader::McpPath => {
                let measured = located.measured.as_ref();
                let probe = probe_mcp_path(site, &url, row.timeout, measured, excluded);
                let (signal, may_pass) = probe.await;
                found.mcp_signal = Some(signal);
                found.mcp_may_pass = may_pass;
            }
            Reader::Surface(signal) => {
                let doc = fetch_surface(site, &url, row.kind, signal, doc_cap, row.timeout);
                found.surface_docs.push(doc.await);
            }
        }
    }
    let service_desc = located
        .measured
        .as_ref()
        .and_then(|measured| service_desc_url(&found.links, measured));
    if let Some(url) = service_desc {
        let (kind, signal) = (DocumentKind::Openapi, SurfaceSignal::Openapi);
        let doc = fetch_surface(site, &url, kind, signal, doc_cap, DOCUMENT_TIMEOUT);
        found.surface_docs.push(doc.await);
    }
    Ok(())
}

/// An API or agent surface document: counted when it answered 2xx and reads as the document
/// it should be (a soft 404's HTML page never does).
async fn fetch_surface(
    site: &mut SiteScan,
    url: &Url,
    kind: DocumentKind,
    signal: SurfaceSignal,
    cap: usize,
    timeout: Duration,
) -> SurfaceDoc {
    let Fetched::Body(headers, body) = fetch_doc_within(site, url, kind, cap, timeout).await else {
        return SurfaceDoc {
            signal,
            counted: false,
        };
    };
    // The client stops reading at the cap: a body that long was cut.
    let cut = body.len() >= cap;
    let parse = read_surface(signal, media_type(&headers).as_deref(), &body, cut);
    mark_parse(site, &parse);
    if let (DocumentParse::Parsed(Some(note)), Some(doc)) = (&parse, site.last_document_mut()) {
        doc.note = Some((*note).to_owned());
    }
    SurfaceDoc {
        signal,
        counted: parse.parsed().is_some(),
    }
}

/// The homepage: its Link header and `<link>` elements. `Err` when nothing answers: the other
/// documents would only wait out the same failure.
///
/// The body is taken, not borrowed: nothing reads it after its links, and kept it would live
/// through every later request of the phase (a homepage's bytes for each site in flight).
fn read_home(
    site: &mut SiteScan,
    located: &mut Located,
    found: &mut Discovery,
) -> Result<(), Verdict> {
    match std::mem::replace(&mut located.home, Fetched::Status) {
        Fetched::Body(headers, body) => {
            found.links = home_links(&headers, &body, &located.home_url);
            if let Some(doc) = site.last_document_mut() {
                doc.parsed = true;
            }
        }
        Fetched::Status => {}
        Fetched::Failed(
            e @ (FetchError::Connect { .. }
            | FetchError::Tls { .. }
            | FetchError::Guard { .. }
            | FetchError::Resolve { .. }),
        ) => return Err(Verdict::no_answer(&e)),
        Fetched::Failed(_) => {}
    }
    Ok(())
}

/// The catalog at `url`, breadth first with the cards and nested catalogs it lists on the
/// site, within the walk's depth, cycle and count limits.
async fn walk_catalogs(
    site: &mut SiteScan,
    url: Url,
    row: &DocumentRow,
    via: DiscoveredVia,
    doc_cap: usize,
    located: &Located,
    found: &mut Discovery,
) {
    let on_site = |url: &Url| located.measured.as_ref().is_some_and(|s| s.contains(url));
    let mut walk = CatalogWalk::new();
    let mut queue = VecDeque::from([(url, 0u8)]);
    while let Some((url, depth)) = queue.pop_front() {
        if walk.visit_catalog(&url, depth) != WalkStep::Fetch {
            continue;
        }
        let fetched = fetch_doc_within(site, &url, row.kind, doc_cap, row.timeout).await;
        let Fetched::Body(headers, body) = fetched else {
            continue;
        };
        let parse = parse_catalog(media_type(&headers).as_deref(), &body);
        mark_parse(site, &parse);
        let log_at = site.documents().len().saturating_sub(1);
        let mut inline_cut = 0usize;
        if let Some(catalog) = parse.parsed() {
            for item in catalog_items(catalog, &url) {
                match item {
                    CatalogItem::CardUrl { url: card_url, .. } => {
                        if !on_site(&card_url) || walk.visit_card(&card_url) != WalkStep::Fetch {
                            continue;
                        }
                        let kind = DocumentKind::CatalogCard;
                        let card =
                            fetch_card_within(site, &card_url, kind, via, doc_cap, row.timeout);
                        if let Some(card) = card.await {
                            found.catalog_cards.push(card);
                        }
                    }
                    CatalogItem::InlineCard { .. } if walk.visit_inline() != WalkStep::Fetch => {
                        inline_cut += 1;
                    }
                    CatalogItem::InlineCard { card, .. } => found.catalog_cards.push(FetchedCard {
                        url: url.clone(),
                        via,
                        parse: card,
                        headers: Arc::clone(&headers),
                    }),
                    CatalogItem::Catalog { url: nested, .. } if on_site(&nested) => {
                        queue.push_back((nested, depth.saturating_add(1)));
                    }
                    CatalogItem::Catalog { .. } | CatalogItem::BadUrl { .. } => {}
                }
            }
        }
        if let Some(log) = site.document_mut(log_at).filter(|_| inline_cut > 0) {
            note_cut(log, inline_cut);
        }
        let unread = parse.parsed().map_or(0, |c| c.entries_unread);
        if let Some(log) = site.document_mut(log_at).filter(|_| unread > 0) {
            let what =
                format!("{unread} entries not read (at most {MAX_CATALOG_ENTRIES} a catalog)");
            add_note(log, what);
        }
        found.catalogs.push(FetchedCatalog { url, depth, parse });
    }
}

/// Says on a catalog's log how many of its inline cards went unread.
fn note_cut(log: &mut DocumentLog, cut: usize) {
    add_note(
        log,
        format!("{cut} inline card(s) not read (at most {MAX_INLINE_CARDS} a site)"),
    );
}

fn add_note(log: &mut DocumentLog, what: String) {
    log.note = Some(match log.note.take() {
        Some(note) => format!("{note}; {what}"),
        None => what,
    });
}

/// GETs a document within `timeout` and records it.
async fn fetch_doc_within(
    site: &mut SiteScan,
    url: &Url,
    kind: DocumentKind,
    cap: usize,
    timeout: Duration,
) -> Fetched {
    // Every origin a document is asked of has its robots.txt read there first (a card a
    // catalog lists on a subdomain, the endpoint's card).
    robots_before_document(site, url).await;
    let result = site.get_document(url, kind.as_str(), cap, timeout).await;
    log_answer(site, kind, url, cap, result)
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
    if let Some(doc) = site.last_document_mut() {
        doc.parsed = parse.parsed().is_some();
        doc.soft_404 = matches!(parse, DocumentParse::Html) && doc.status == Some(200);
        if let Some(why) = parse.why_not() {
            doc.note = Some(why);
        }
    }
}

/// One plain GET of `/mcp`, judged on status and headers as soon as they arrive; a small body
/// is read only when the head cannot decide. A redirect is followed while it stays on the
/// measured site (as the survey's reproduction follows this GET with `curl -L`; the session's
/// POSTs still follow none), and the document log names where it led.
async fn probe_mcp_path(
    site: &mut SiteScan,
    url: &Url,
    timeout: Duration,
    measured: Option<&d::MeasuredSite>,
    excluded: &(dyn Fn(&str) -> bool + Sync),
) -> (McpSignal, bool) {
    let purpose = DocumentKind::McpPath.as_str();
    let in_scope = |u: &Url| measured.is_some_and(|m| m.contains(u));
    let mut at = url.clone();
    let mut seen = vec![at.clone()];
    let mut followed = Vec::new();
    let mut not_followed = None;
    let (started, head) = loop {
        let started = Instant::now();
        let head = site
            .get_head(&at, purpose, d::MCP_PATH_BODY_LIMIT, timeout)
            .await;
        let hop = head
            .as_ref()
            .ok()
            .and_then(|h| redirect_of(h.status, &h.headers));
        let Some((_, location)) = hop else {
            break (started, head);
        };
        match next_hop(&at, &location, &in_scope, &seen, seen.len(), excluded) {
            Ok(next) => {
                if let Ok(mut h) = head {
                    h.body.abort();
                }
                // Boxed: a redirect off the origin is rare, and inline its robots.txt read
                // would set the size of every site's `/mcp` probe.
                if let Err(e) = Box::pin(robots_before(site, &next)).await {
                    break (started, Err(e));
                }
                followed.push(next.to_string());
                seen.push(next.clone());
                at = next;
            }
            Err(reason) => {
                not_followed = Some(reason);
                break (started, head);
            }
        }
    };
    let mut log = empty_log(DocumentKind::McpPath, url);
    let may_pass = head.as_ref().err().is_some_and(FetchError::is_transient);
    let signal = match head {
        Err(e) => {
            log.note = Some(match e {
                FetchError::Timeout { .. } => {
                    format!("no answer within {} s", timeout.as_secs())
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
            d::not_now(head.status, verdict)
        }
    };
    log.parsed = signal.signals();
    if let Some(reason) = not_followed {
        log.note = Some(reason);
    } else if let McpSignal::NoSignal { why } = signal {
        log.note.get_or_insert_with(|| why.as_str().to_owned());
    } else {
        log.note = Some(signal.as_str().to_owned());
    }
    if !followed.is_empty() {
        let note = log.note.take().unwrap_or_default();
        log.note = Some(format!("followed to {}; {note}", followed.join(" then ")));
    }
    if let Some(entry) = site.last_request_mut() {
        entry.ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
    }
    site.log_document(log);
    (signal, may_pass)
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
