//! The readiness level's section of a record: the agent-facing signals a site publishes beside
//! MCP, one field per Cloudflare Radar agent-readiness check id (the JSON keys are Radar's), each
//! `true`, `false` or absent/`null` (not checked), with the evidence that decided it.

use rkyv::{Archive, Deserialize as FromRkyv, Serialize as ToRkyv};
use serde::{Deserialize, Serialize};

/// One site's readiness checks. `None` means the check was not made (the level was off for it,
/// robots.txt disallowed the path, the site deadline ran out first), never "absent".
#[derive(
    Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Archive, ToRkyv, FromRkyv,
)]
#[serde(rename_all = "camelCase")]
pub struct Readiness {
    /// Which list of checks this record implements (Radar's list drifted over 2026), e.g.
    /// `radar-2026-18`.
    pub checks_version: String,
    pub robots_txt: Option<bool>,
    pub robots_txt_ai_rules: Option<bool>,
    pub content_signals: Option<bool>,
    pub sitemap: Option<bool>,
    pub link_headers: Option<bool>,
    pub markdown_negotiation: Option<bool>,
    pub llms_txt: Option<bool>,
    pub llms_full_txt: Option<bool>,
    pub a2a_agent_card: Option<bool>,
    pub agent_skills: Option<bool>,
    pub api_catalog: Option<bool>,
    pub oauth_discovery: Option<bool>,
    pub oauth_protected_resource: Option<bool>,
    pub mcp_server_card: Option<bool>,
    pub web_mcp: Option<bool>,
    pub web_bot_auth: Option<bool>,
    /// An `Agentmap:` line in robots.txt.
    pub agentmap: Option<bool>,
    /// A `Link rel="ai-catalog"` header or `<link rel="ai-catalog">` on the homepage.
    pub ai_catalog_link: Option<bool>,
    /// The negative control: a path that cannot exist answered 2xx (a catch-all site).
    pub catch_all: Option<bool>,
    /// Check ids whose path answered 2xx without counting: what a naive 200 count would have
    /// called present (soft 404s, HTML where a file was expected).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub naive_only: Vec<String>,
    /// The AI crawlers robots.txt names and what each may do, e.g. `GPTBot=disallow`,
    /// `ClaudeBot=partial`, `CCBot=allow`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ai_bot_rules: Vec<String>,
    /// What decided each check made (one entry per document or header read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<ReadinessEvidence>,
}

/// What one readiness request returned and what it meant for its check.
#[derive(
    Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, Archive, ToRkyv, FromRkyv,
)]
pub struct ReadinessEvidence {
    /// The Radar check id this evidence decided, e.g. `llmsTxt`.
    pub check: String,
    pub url: String,
    pub status: Option<u16>,
    pub content_type: Option<String>,
    pub bytes: u64,
    /// Read as the document the check expects.
    pub parsed: bool,
    /// Why it did or did not count, in words.
    pub note: Option<String>,
}
