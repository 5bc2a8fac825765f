//! The deep probe: at most 9 requests, no credential, https only, run after the survey's
//! capped session. It asks `server/discover`, falls back to `initialize` and to the legacy
//! HTTP+SSE transport, lists the tools (following `nextCursor` within the budget), reads the
//! OAuth metadata when the server refuses it, and classifies what it saw: transport,
//! authentication, spec version, deprecated features, migration status and checklist. The
//! server rules (SW-MCP-001, SW-MCP-011), the tool description grades and the fingerprints
//! then read the tool list. Only `sequence.rs` (the requests in order), `transport.rs`,
//! `legacy_sse.rs`, `metadata.rs` and the registry lookups (`registry.rs`, `registry_list.rs`)
//! do I/O; the rest is pure (`remotes.rs` reads an entry's declared remotes), so `mcpcensus grade FILE` runs the same rules and grades on a
//! pasted list.

mod auth;
mod checklist;
mod classify;
mod facts;
mod fingerprint;
mod grades;
mod legacy_sse;
mod metadata;
mod paste;
mod record;
mod registry;
mod registry_list;
mod remotes;
mod rules;
mod sequence;
pub(crate) mod server_urls;
mod transport;

#[cfg(test)]
mod tests;

pub use auth::{
    as_metadata_candidates, auth_kind, classify_auth, first_authorization_server, issuer_matches,
    prm_candidates, resource_metadata_param, AuthFacts,
};
pub use checklist::{checklist, step_text, ChecklistStep};
pub use classify::{classify, deprecated_features, spec_version, Classification};
pub use facts::{
    DeprecatedFeature, MigrationStatus, ProbeFacts, ToolsRead, MAX_KEPT_TOOLS, MODERN_VERSION,
};
pub use fingerprint::{tool_fingerprint, tool_list_fingerprint};
pub use grades::{grade_tool, grade_tools, Criterion, GradedTool, ToolGrades, LETTERS, MAX_GRADED};
pub use paste::{grade_pasted, pasted_entries, PasteError, PastedReport};
pub use registry::{
    resolve, resolve_entry, resolve_in, search_url, search_url_at, servers_url, stdio_record,
    RegistryError, Remote, RemoteKind, Resolved,
};
pub use registry_list::{list_url, read_page, Listed, Listing, ListingError, Page, MAX_PAGES};
pub use rules::{
    declares_read_only, instruction_like, server_rules, InstructionMatch, ListSource, SteerLevel,
    INSTRUCTION_LIKE_DESCRIPTION, PASTED_MAX_TOOLS, UNAUTHENTICATED_TOOL_LIST,
};
pub use sequence::{run_probe, ProbeReport, MCP_METHOD, PROBE_MAX_REQUESTS};
pub use transport::{ProbeClient, RpcRead, Stop};
