//! Every rule of seed 002: a stable id, a severity, the documents it reads, the title a site
//! owner sees and the fix, in our words. `docs/rules.md` documents the same table (a test
//! keeps the two in step). Ids never change meaning; a retired rule keeps its id unused.

pub use crate::rule::{AppliesTo, Rule, Severity};

pub const NO_SERVER: Rule = Rule {
    id: "MCP-DISC-001",
    severity: Severity::High,
    applies_to: AppliesTo::Site,
    title: "No MCP server discoverable",
    fix: "If you run an MCP server, publish a server card for it (at \
          /.well-known/mcp/server-card.json, or at the endpoint's URL plus /server-card) and \
          list it in /.well-known/ai-catalog.json. If you run none, there is nothing to fix.",
};
pub const MCP_JSON_SERVED: Rule = Rule {
    id: "MCP-DISC-002",
    severity: Severity::Reported,
    applies_to: AppliesTo::Manifest,
    title: "/.well-known/mcp.json is served",
    fix: "Publish a server card first; once it is up, delete /.well-known/mcp.json instead of \
          keeping two descriptions of one server.",
};
pub const MANIFEST_NO_NAME: Rule = Rule {
    id: "MCP-MAN-001",
    severity: Severity::Low,
    applies_to: AppliesTo::Manifest,
    title: "The manifest has no name",
    fix: "Add a name to /.well-known/mcp.json if you keep the file while clients move to \
          server cards.",
};
pub const MANIFEST_NO_DESCRIPTION: Rule = Rule {
    id: "MCP-MAN-002",
    severity: Severity::Low,
    applies_to: AppliesTo::Manifest,
    title: "The manifest has no description",
    fix: "Add a one-sentence description of what the server is for, in the words a caller \
          would use.",
};
pub const SOME_TOOLS_UNDESCRIBED: Rule = Rule {
    id: "MCP-MAN-003",
    severity: Severity::Low,
    applies_to: AppliesTo::Manifest,
    title: "Some tools have no description",
    fix: "Describe the remaining tools; better, let clients read descriptions from the live \
          tools/list call, where they are written next to the handler.",
};
pub const NO_TOOL_DESCRIBED: Rule = Rule {
    id: "MCP-MAN-004",
    severity: Severity::Low,
    applies_to: AppliesTo::Manifest,
    title: "No tool has a description",
    fix: "Give each tool a description: what it does, what it returns, and when to use it \
          rather than a similar tool.",
};
pub const TOOLS_EMPTY: Rule = Rule {
    id: "MCP-MAN-005",
    severity: Severity::Low,
    applies_to: AppliesTo::Manifest,
    title: "The tools array is empty",
    fix: "List the server's tools, or remove the empty array if the server has none.",
};
pub const NO_TOOLS_ARRAY: Rule = Rule {
    id: "MCP-MAN-006",
    severity: Severity::Low,
    applies_to: AppliesTo::Manifest,
    title: "No tools array",
    fix: "Add a tools array naming what can be called, or retire the manifest for a server \
          card.",
};
pub const NO_RESOURCES_ARRAY: Rule = Rule {
    id: "MCP-MAN-007",
    severity: Severity::Reported,
    applies_to: AppliesTo::Manifest,
    title: "No resources array",
    fix: "If the server exposes readable data, list it under resources; a tools-only server \
          can leave this as it is.",
};
pub const NO_PROTOCOL_VERSION: Rule = Rule {
    id: "MCP-MAN-008",
    severity: Severity::Low,
    applies_to: AppliesTo::Manifest,
    title: "No protocol version",
    fix: "Add protocolVersion with the revision the server speaks, such as \"2026-07-28\".",
};
pub const CARD_NOT_JSON: Rule = Rule {
    id: "MCP-CARD-001",
    severity: Severity::High,
    applies_to: AppliesTo::Card,
    title: "The card is not valid JSON",
    fix: "Serve the card as one valid JSON object (look for a trailing comma), and check the \
          URL does not answer with an HTML error page and status 200.",
};
pub const REQUIRED_FIELD_MISSING: Rule = Rule {
    id: "MCP-CARD-002",
    severity: Severity::Medium,
    applies_to: AppliesTo::Card,
    title: "A required field is missing",
    fix: "Add the field as a non-empty string: $schema, name, version and description are all \
          required.",
};
pub const NAME_NOT_REVERSE_DNS: Rule = Rule {
    id: "MCP-CARD-003",
    severity: Severity::Low,
    applies_to: AppliesTo::Card,
    title: "A name that is not in reverse-DNS form",
    fix: "Name the server namespace/name, the namespace a domain you control written in \
          reverse: com.example/docs, io.github.owner/server.",
};
pub const TOOLS_IN_CARD: Rule = Rule {
    id: "MCP-CARD-004",
    severity: Severity::Low,
    applies_to: AppliesTo::Card,
    title: "A tools array in the card",
    fix: "Remove tools from the card; clients get the list from the server's live tools/list \
          call.",
};
pub const NO_REMOTES: Rule = Rule {
    id: "MCP-CARD-005",
    severity: Severity::High,
    applies_to: AppliesTo::Card,
    title: "No remotes declared",
    fix: "Add a remotes array with at least one entry giving type, url and \
          supportedProtocolVersions.",
};
pub const UNRECOGNISED_TRANSPORT: Rule = Rule {
    id: "MCP-CARD-006",
    severity: Severity::Medium,
    applies_to: AppliesTo::Card,
    title: "An unrecognised transport",
    fix: "Set each remote's type to streamable-http (sse only for a legacy server).",
};
pub const REMOTE_URL: Rule = Rule {
    id: "MCP-CARD-007",
    severity: Severity::High,
    applies_to: AppliesTo::Card,
    title: "A remote with no url",
    fix: "Give each remote an absolute https:// URL, so a client that found the card through \
          another origin can resolve it.",
};
pub const NO_SUPPORTED_VERSIONS: Rule = Rule {
    id: "MCP-CARD-008",
    severity: Severity::Low,
    applies_to: AppliesTo::Card,
    title: "No supportedProtocolVersions",
    fix: "List the revisions each remote speaks in supportedProtocolVersions, newest first.",
};
pub const UNRECOGNISED_REVISION: Rule = Rule {
    id: "MCP-CARD-009",
    severity: Severity::Medium,
    applies_to: AppliesTo::Card,
    title: "An unrecognised revision",
    fix: "Declare revisions by their release dates: 2026-07-28, 2025-11-25, 2025-06-18, \
          2025-03-26 or 2024-11-05.",
};
pub const ONLY_OLD_REVISIONS: Rule = Rule {
    id: "MCP-CARD-010",
    severity: Severity::Medium,
    applies_to: AppliesTo::Card,
    title: "Only pre-2025-06 revisions supported",
    fix: "Support a current revision (2026-07-28, or at least 2025-06-18) and declare it.",
};
pub const NO_CORS: Rule = Rule {
    id: "MCP-CARD-011",
    severity: Severity::Medium,
    applies_to: AppliesTo::Card,
    title: "No CORS on the card",
    fix: "Serve the card with Access-Control-Allow-Origin: * and Cache-Control: public, \
          max-age=3600, best set once at the edge.",
};
pub const NO_SPEC_VERSION: Rule = Rule {
    id: "MCP-CAT-001",
    severity: Severity::Low,
    applies_to: AppliesTo::Catalog,
    title: "The catalog declares no version",
    fix: "Add \"specVersion\": \"1.0\" at the top level of the catalog.",
};
pub const INCOMPLETE_ENTRY: Rule = Rule {
    id: "MCP-CAT-002",
    severity: Severity::Medium,
    applies_to: AppliesTo::Catalog,
    title: "An incomplete catalog entry",
    fix: "Give every entry an identifier, a type, and either a url or an inline data object.",
};
pub const UNRECOGNISED_ENTRY_TYPE: Rule = Rule {
    id: "MCP-CAT-003",
    severity: Severity::Low,
    applies_to: AppliesTo::Catalog,
    title: "An unrecognised entry type",
    fix: "Use application/mcp-server-card+json, application/a2a-agent-card+json or \
          application/ai-catalog+json, or drop the entry.",
};

/// Every rule, in seed 002's order.
pub const RULES: [&Rule; 24] = [
    &NO_SERVER,
    &MCP_JSON_SERVED,
    &MANIFEST_NO_NAME,
    &MANIFEST_NO_DESCRIPTION,
    &SOME_TOOLS_UNDESCRIBED,
    &NO_TOOL_DESCRIBED,
    &TOOLS_EMPTY,
    &NO_TOOLS_ARRAY,
    &NO_RESOURCES_ARRAY,
    &NO_PROTOCOL_VERSION,
    &CARD_NOT_JSON,
    &REQUIRED_FIELD_MISSING,
    &NAME_NOT_REVERSE_DNS,
    &TOOLS_IN_CARD,
    &NO_REMOTES,
    &UNRECOGNISED_TRANSPORT,
    &REMOTE_URL,
    &NO_SUPPORTED_VERSIONS,
    &UNRECOGNISED_REVISION,
    &ONLY_OLD_REVISIONS,
    &NO_CORS,
    &NO_SPEC_VERSION,
    &INCOMPLETE_ENTRY,
    &UNRECOGNISED_ENTRY_TYPE,
];

/// The rule with this id (for `check --explain`: its title and fix).
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.into_iter().find(|rule| rule.id == id)
}
