//! The discovery documents the survey fetches at the measured origin once the homepage is in,
//! in the survey's order, one row each: the path, what the record calls it, how an endpoint
//! found in it is recorded, how long it gets and how its body is read. The documents phase
//! walks this table, so a new document is one row here and, if no reader fits, one reader.
//!
//! The homepage (followed through its redirects) and `<endpoint>/server-card` (after the
//! session) are phases of their own: where they are fetched depends on what came before.

use std::time::Duration;

use mcpcensus_store::{DiscoveredVia, DocumentKind};

use super::paths::{
    AI_CATALOG_PATH, BARE_SERVER_CARD_PATH, DASHED_SERVER_CARD_PATH, MCP_JSON_PATH, MCP_PATH,
    SERVER_CARD_PATH,
};

/// Each discovery document gets at most this long.
pub const DOCUMENT_TIMEOUT: Duration = Duration::from_secs(10);
/// The `/mcp` GET is judged on its head (an endless event stream must not hold the scan);
/// it gets this long, so it can never eat the session's 12 s.
pub const MCP_GET_TIMEOUT: Duration = Duration::from_secs(5);

/// How the documents phase reads a document's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// A server card (`parse_card`): its remotes are endpoint candidates.
    Card,
    /// An AI catalog (`parse_catalog`), walked breadth first with the cards and nested
    /// catalogs it lists on the site, within the walk's limits.
    Catalog,
    /// One plain GET judged on its head, then a small body (`judge_mcp_head`): the MCP signal.
    McpPath,
}

/// One discovery document of the survey.
#[derive(Debug, Clone, Copy)]
pub struct DocumentRow {
    pub path: &'static str,
    pub kind: DocumentKind,
    /// How an endpoint found through it is recorded (`discovered_via`).
    pub via: DiscoveredVia,
    pub timeout: Duration,
    pub reader: Reader,
}

const fn row(
    path: &'static str,
    kind: DocumentKind,
    via: DiscoveredVia,
    timeout: Duration,
    reader: Reader,
) -> DocumentRow {
    DocumentRow {
        path,
        kind,
        via,
        timeout,
        reader,
    }
}

/// The survey's documents after the homepage, in its order: the current card path before the
/// legacy ones, the catalog, then `/mcp`.
pub const SURVEY_DOCUMENTS: [DocumentRow; 6] = {
    use DiscoveredVia as Via;
    use DocumentKind as Kind;
    [
        row(
            SERVER_CARD_PATH,
            Kind::ServerCard,
            Via::ServerCard,
            DOCUMENT_TIMEOUT,
            Reader::Card,
        ),
        row(
            MCP_JSON_PATH,
            Kind::LegacyCard,
            Via::LegacyCard,
            DOCUMENT_TIMEOUT,
            Reader::Card,
        ),
        row(
            DASHED_SERVER_CARD_PATH,
            Kind::LegacyCard,
            Via::LegacyCard,
            DOCUMENT_TIMEOUT,
            Reader::Card,
        ),
        row(
            BARE_SERVER_CARD_PATH,
            Kind::LegacyCard,
            Via::LegacyCard,
            DOCUMENT_TIMEOUT,
            Reader::Card,
        ),
        row(
            AI_CATALOG_PATH,
            Kind::AiCatalog,
            Via::AiCatalog,
            DOCUMENT_TIMEOUT,
            Reader::Catalog,
        ),
        row(
            MCP_PATH,
            Kind::McpPath,
            Via::McpPath,
            MCP_GET_TIMEOUT,
            Reader::McpPath,
        ),
    ]
};
