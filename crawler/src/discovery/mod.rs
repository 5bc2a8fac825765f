//! Discovery, the pure part: where MCP documents live, how they are read, and which endpoint a
//! scan opens; and the API and agent surface documents beside them. Nothing here does I/O: the
//! scan fetches, these functions judge what it fetched (the survey for the endpoint choice and
//! the surface population, the discovery audit for the discovery source).

mod card;
mod catalog;
mod document;
mod endpoint;
mod fetched;
mod links;
mod mcp_path;
mod paths;
mod site;
mod source;
mod surface;
mod table;

pub use card::{
    parse_card, parse_card_value, CardShape, LegacyTransport, ParsedCard, Remote, RemoteRef,
    RemoteSource, RemoteTransport, ServerInfo, ToolEntry,
};
pub use catalog::{
    catalog_items, parse_catalog, CatalogEntry, CatalogItem, CatalogWalk, EntryKind, EntryProblem,
    ParsedCatalog, TypeKey, WalkStep, MAX_CATALOG_CARD_FETCHES, MAX_CATALOG_DEPTH,
    MAX_CATALOG_ENTRIES, MAX_CATALOG_FETCHES, MAX_INLINE_CARDS,
};
pub use document::{media_type, DocumentParse, Field, JsonKind};
pub use endpoint::{select_endpoint, Candidate, EndpointChoice, RejectReason};
pub use fetched::{Discovery, FetchedCard, FetchedCatalog, SurfaceDoc};
pub use links::{
    home_links, links_from_headers, links_from_html, parse_link_header, FoundLink, LinkKind,
    LinkValue, HTML_SCAN_LIMIT,
};
pub use mcp_path::{
    judge_mcp_body, judge_mcp_get, judge_mcp_head, not_now, HeadVerdict, McpSignal, NoSignalReason,
    MCP_PATH_BODY_LIMIT,
};
pub use paths::*;
pub use site::{MeasuredSite, Place, Placement, Site, SiteSide};
pub use source::{discovery_source, DiscoverySource, SourceHits};
pub use surface::{
    parse_agent_card, parse_api_catalog, parse_auth_server, parse_openapi,
    parse_protected_resource, read_surface, service_desc_url, SurfaceParse,
};
pub use table::{DocumentRow, Reader, DOCUMENT_TIMEOUT, MCP_GET_TIMEOUT, SURVEY_DOCUMENTS};

#[cfg(test)]
mod tests;
