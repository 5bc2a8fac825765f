//! The discovery documents the survey fetches at the measured origin once the homepage is in,
//! in the survey's order, one row each: the path, what the record calls it, how long it gets
//! and how its body is read (for an MCP document, how an endpoint found in it is recorded; for
//! an API or agent surface document, the signal it gives). The documents phase walks this
//! table, so a new document is one row here and, if no reader fits, one reader.
//!
//! The homepage (followed through its redirects), the OpenAPI document a homepage
//! `service-desc` link names, and `<endpoint>/server-card` (after the session) are fetched
//! apart: where they are depends on what came before.

use std::time::Duration;

use mcpcensus_store::{DiscoveredVia, DocumentKind, SurfaceSignal};

use super::paths::{
    AGENT_CARD_PATH, AI_CATALOG_PATH, API_CATALOG_PATH, AUTH_SERVER_PATH, BARE_SERVER_CARD_PATH,
    DASHED_SERVER_CARD_PATH, MCP_JSON_PATH, MCP_PATH, PROTECTED_RESOURCE_PATH, SERVER_CARD_PATH,
};

/// Each discovery document gets at most this long.
pub const DOCUMENT_TIMEOUT: Duration = Duration::from_secs(10);
/// The `/mcp` GET is judged on its head (an endless event stream must not hold the scan);
/// it gets this long, so it can never eat the session's 12 s.
pub const MCP_GET_TIMEOUT: Duration = Duration::from_secs(5);

/// How the documents phase reads a document's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// A server card (`parse_card`): its remotes are endpoint candidates, recorded as found
    /// `via` this.
    Card(DiscoveredVia),
    /// An AI catalog (`parse_catalog`), walked breadth first with the cards and nested
    /// catalogs it lists on the site, within the walk's limits.
    Catalog(DiscoveredVia),
    /// One plain GET judged on its head, then a small body (`judge_mcp_head`): the MCP signal.
    McpPath,
    /// An API or agent surface document (`read_surface`): the signal it gives when it counts.
    Surface(SurfaceSignal),
}

/// One discovery document of the survey.
#[derive(Debug, Clone, Copy)]
pub struct DocumentRow {
    pub path: &'static str,
    pub kind: DocumentKind,
    pub timeout: Duration,
    pub reader: Reader,
}

const fn row(
    path: &'static str,
    kind: DocumentKind,
    timeout: Duration,
    reader: Reader,
) -> DocumentRow {
    DocumentRow {
        path,
        kind,
        timeout,
        reader,
    }
}

/// The survey's documents after the homepage, in its order: the current card path before the
/// legacy ones, the catalog, `/mcp`; then the API and agent surface documents (after the MCP
/// check's own, so its requests keep their order).
pub const SURVEY_DOCUMENTS: [DocumentRow; 10] = {
    use DiscoveredVia as Via;
    use DocumentKind as Kind;
    use SurfaceSignal as Signal;
    const T: Duration = DOCUMENT_TIMEOUT;
    [
        row(
            SERVER_CARD_PATH,
            Kind::ServerCard,
            T,
            Reader::Card(Via::ServerCard),
        ),
        row(
            MCP_JSON_PATH,
            Kind::LegacyCard,
            T,
            Reader::Card(Via::LegacyCard),
        ),
        row(
            DASHED_SERVER_CARD_PATH,
            Kind::LegacyCard,
            T,
            Reader::Card(Via::LegacyCard),
        ),
        row(
            BARE_SERVER_CARD_PATH,
            Kind::LegacyCard,
            T,
            Reader::Card(Via::LegacyCard),
        ),
        row(
            AI_CATALOG_PATH,
            Kind::AiCatalog,
            T,
            Reader::Catalog(Via::AiCatalog),
        ),
        row(MCP_PATH, Kind::McpPath, MCP_GET_TIMEOUT, Reader::McpPath),
        row(
            API_CATALOG_PATH,
            Kind::ApiCatalog,
            T,
            Reader::Surface(Signal::ApiCatalog),
        ),
        row(
            AGENT_CARD_PATH,
            Kind::AgentCard,
            T,
            Reader::Surface(Signal::A2aAgentCard),
        ),
        row(
            PROTECTED_RESOURCE_PATH,
            Kind::ProtectedResource,
            T,
            Reader::Surface(Signal::OauthProtectedResource),
        ),
        row(
            AUTH_SERVER_PATH,
            Kind::AuthServer,
            T,
            Reader::Surface(Signal::OauthAuthorizationServer),
        ),
    ]
};
