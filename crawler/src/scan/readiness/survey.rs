//! The checks the survey's own documents decide, read from its document log (not asked
//! again): the API catalog, the A2A agent card, the OAuth metadata, the MCP server cards.

use mcpcensus_store::{DocumentKind, DocumentLog, ReadinessCheck, SurfaceSignal};

use super::tally::{Seen, Tally};
use crate::discovery::Discovery;

/// The survey's documents that decide a readiness check, and the signal that counts each.
const FROM_SURVEY: [(ReadinessCheck, DocumentKind, SurfaceSignal); 4] = [
    (
        ReadinessCheck::ApiCatalog,
        DocumentKind::ApiCatalog,
        SurfaceSignal::ApiCatalog,
    ),
    (
        ReadinessCheck::A2aAgentCard,
        DocumentKind::AgentCard,
        SurfaceSignal::A2aAgentCard,
    ),
    (
        ReadinessCheck::OauthProtectedResource,
        DocumentKind::ProtectedResource,
        SurfaceSignal::OauthProtectedResource,
    ),
    (
        ReadinessCheck::OauthDiscovery,
        DocumentKind::AuthServer,
        SurfaceSignal::OauthAuthorizationServer,
    ),
];

fn seen(doc: &DocumentLog) -> Seen<'_> {
    Seen {
        url: &doc.url,
        status: doc.status,
        content_type: doc.content_type.as_deref(),
        bytes: doc.bytes,
    }
}

/// The surface documents' checks: counted as the survey counted them; `null` when the survey
/// got no answer (robots.txt disallowed it, it failed).
pub(super) fn from_survey(tally: &mut Tally, docs: &[DocumentLog], found: &Discovery) {
    for (check, kind, signal) in FROM_SURVEY {
        let Some(doc) = docs.iter().find(|d| d.kind == kind) else {
            continue;
        };
        let counted = found
            .surface_docs
            .iter()
            .any(|d| d.signal == signal && d.counted);
        if doc.status.is_none() {
            let why = doc.note.clone().unwrap_or_default();
            tally.not_checked(
                check,
                &seen(doc),
                format!("the survey got no answer: {why}"),
            );
            continue;
        }
        let note = if counted {
            "the survey read it as the document".to_owned()
        } else {
            doc.note
                .clone()
                .unwrap_or_else(|| "the survey did not read it as the document".to_owned())
        };
        tally.decide_file(check, counted, &seen(doc), note);
    }
    server_cards(tally, docs, found);
}

/// `mcpServerCard`: a server card the survey parsed (at the card paths, listed by the AI
/// catalog, or at the endpoint's `/server-card`).
fn server_cards(tally: &mut Tally, docs: &[DocumentLog], found: &Discovery) {
    let check = ReadinessCheck::McpServerCard;
    let parsed = found
        .cards
        .iter()
        .chain(&found.catalog_cards)
        .chain(&found.endpoint_card)
        .any(|card| card.parse.parsed().is_some());
    let card_docs = docs
        .iter()
        .filter(|d| matches!(d.kind, DocumentKind::ServerCard | DocumentKind::LegacyCard));
    let mut answered = false;
    for doc in card_docs {
        if doc.status.is_none() {
            continue;
        }
        answered = true;
        let note = if doc.parsed {
            "the survey parsed a server card"
        } else {
            "not a server card"
        };
        tally.decide_file(check, doc.parsed, &seen(doc), note.to_owned());
    }
    if answered || parsed {
        tally.set(check, parsed);
    }
}
