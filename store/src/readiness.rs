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

/// The list of checks this census implements: Cloudflare Radar's agent-readiness ids of its
/// 18-check list (2026), without the four commerce checks, plus `llmsFullTxt` and the two
/// catalog pointers (`agentmap`, `aiCatalogLink`) the census adds.
pub const CHECKS_VERSION: &str = "radar-2026-18";

/// One readiness check: the table every reader walks (the record's field, the flat column,
/// the report's row), so a new check is one row here and one field above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReadinessCheck {
    RobotsTxt,
    RobotsTxtAiRules,
    ContentSignals,
    Sitemap,
    LinkHeaders,
    MarkdownNegotiation,
    LlmsTxt,
    LlmsFullTxt,
    A2aAgentCard,
    AgentSkills,
    ApiCatalog,
    OauthDiscovery,
    OauthProtectedResource,
    McpServerCard,
    WebMcp,
    WebBotAuth,
    Agentmap,
    AiCatalogLink,
}

impl ReadinessCheck {
    /// Every check, in the record's (and the columns', and the report's) order.
    pub const ALL: [ReadinessCheck; 18] = {
        use ReadinessCheck as C;
        [
            C::RobotsTxt,
            C::RobotsTxtAiRules,
            C::ContentSignals,
            C::Sitemap,
            C::LinkHeaders,
            C::MarkdownNegotiation,
            C::LlmsTxt,
            C::LlmsFullTxt,
            C::A2aAgentCard,
            C::AgentSkills,
            C::ApiCatalog,
            C::OauthDiscovery,
            C::OauthProtectedResource,
            C::McpServerCard,
            C::WebMcp,
            C::WebBotAuth,
            C::Agentmap,
            C::AiCatalogLink,
        ]
    };

    /// The id: Radar's check id (the record's JSON key).
    pub const fn as_str(self) -> &'static str {
        use ReadinessCheck as C;
        match self {
            C::RobotsTxt => "robotsTxt",
            C::RobotsTxtAiRules => "robotsTxtAiRules",
            C::ContentSignals => "contentSignals",
            C::Sitemap => "sitemap",
            C::LinkHeaders => "linkHeaders",
            C::MarkdownNegotiation => "markdownNegotiation",
            C::LlmsTxt => "llmsTxt",
            C::LlmsFullTxt => "llmsFullTxt",
            C::A2aAgentCard => "a2aAgentCard",
            C::AgentSkills => "agentSkills",
            C::ApiCatalog => "apiCatalog",
            C::OauthDiscovery => "oauthDiscovery",
            C::OauthProtectedResource => "oauthProtectedResource",
            C::McpServerCard => "mcpServerCard",
            C::WebMcp => "webMcp",
            C::WebBotAuth => "webBotAuth",
            C::Agentmap => "agentmap",
            C::AiCatalogLink => "aiCatalogLink",
        }
    }

    /// The flat column (exports, ClickHouse): `readiness_` and the id in snake case.
    pub const fn column(self) -> &'static str {
        use ReadinessCheck as C;
        match self {
            C::RobotsTxt => "readiness_robots_txt",
            C::RobotsTxtAiRules => "readiness_robots_txt_ai_rules",
            C::ContentSignals => "readiness_content_signals",
            C::Sitemap => "readiness_sitemap",
            C::LinkHeaders => "readiness_link_headers",
            C::MarkdownNegotiation => "readiness_markdown_negotiation",
            C::LlmsTxt => "readiness_llms_txt",
            C::LlmsFullTxt => "readiness_llms_full_txt",
            C::A2aAgentCard => "readiness_a2a_agent_card",
            C::AgentSkills => "readiness_agent_skills",
            C::ApiCatalog => "readiness_api_catalog",
            C::OauthDiscovery => "readiness_oauth_discovery",
            C::OauthProtectedResource => "readiness_oauth_protected_resource",
            C::McpServerCard => "readiness_mcp_server_card",
            C::WebMcp => "readiness_web_mcp",
            C::WebBotAuth => "readiness_web_bot_auth",
            C::Agentmap => "readiness_agentmap",
            C::AiCatalogLink => "readiness_ai_catalog_link",
        }
    }

    /// The check named `id` (Radar's id), if this census has it.
    pub fn from_id(id: &str) -> Option<ReadinessCheck> {
        Self::ALL.into_iter().find(|c| c.as_str() == id)
    }
}

impl std::fmt::Display for ReadinessCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Readiness {
    /// The check's result: `None` when it was not made.
    pub fn get(&self, check: ReadinessCheck) -> Option<bool> {
        match check {
            ReadinessCheck::RobotsTxt => self.robots_txt,
            ReadinessCheck::RobotsTxtAiRules => self.robots_txt_ai_rules,
            ReadinessCheck::ContentSignals => self.content_signals,
            ReadinessCheck::Sitemap => self.sitemap,
            ReadinessCheck::LinkHeaders => self.link_headers,
            ReadinessCheck::MarkdownNegotiation => self.markdown_negotiation,
            ReadinessCheck::LlmsTxt => self.llms_txt,
            ReadinessCheck::LlmsFullTxt => self.llms_full_txt,
            ReadinessCheck::A2aAgentCard => self.a2a_agent_card,
            ReadinessCheck::AgentSkills => self.agent_skills,
            ReadinessCheck::ApiCatalog => self.api_catalog,
            ReadinessCheck::OauthDiscovery => self.oauth_discovery,
            ReadinessCheck::OauthProtectedResource => self.oauth_protected_resource,
            ReadinessCheck::McpServerCard => self.mcp_server_card,
            ReadinessCheck::WebMcp => self.web_mcp,
            ReadinessCheck::WebBotAuth => self.web_bot_auth,
            ReadinessCheck::Agentmap => self.agentmap,
            ReadinessCheck::AiCatalogLink => self.ai_catalog_link,
        }
    }

    /// Sets the check's result.
    pub fn set(&mut self, check: ReadinessCheck, value: Option<bool>) {
        let slot = match check {
            ReadinessCheck::RobotsTxt => &mut self.robots_txt,
            ReadinessCheck::RobotsTxtAiRules => &mut self.robots_txt_ai_rules,
            ReadinessCheck::ContentSignals => &mut self.content_signals,
            ReadinessCheck::Sitemap => &mut self.sitemap,
            ReadinessCheck::LinkHeaders => &mut self.link_headers,
            ReadinessCheck::MarkdownNegotiation => &mut self.markdown_negotiation,
            ReadinessCheck::LlmsTxt => &mut self.llms_txt,
            ReadinessCheck::LlmsFullTxt => &mut self.llms_full_txt,
            ReadinessCheck::A2aAgentCard => &mut self.a2a_agent_card,
            ReadinessCheck::AgentSkills => &mut self.agent_skills,
            ReadinessCheck::ApiCatalog => &mut self.api_catalog,
            ReadinessCheck::OauthDiscovery => &mut self.oauth_discovery,
            ReadinessCheck::OauthProtectedResource => &mut self.oauth_protected_resource,
            ReadinessCheck::McpServerCard => &mut self.mcp_server_card,
            ReadinessCheck::WebMcp => &mut self.web_mcp,
            ReadinessCheck::WebBotAuth => &mut self.web_bot_auth,
            ReadinessCheck::Agentmap => &mut self.agentmap,
            ReadinessCheck::AiCatalogLink => &mut self.ai_catalog_link,
        };
        *slot = value;
    }
}

#[cfg(test)]
mod tests {
    use super::ReadinessCheck;

    #[test]
    fn every_check_has_one_id_one_column_in_the_exports_and_clickhouse() {
        let sites = crate::export::SITES.columns;
        for check in ReadinessCheck::ALL {
            assert_eq!(ReadinessCheck::from_id(check.as_str()), Some(check));
            assert!(
                sites.iter().any(|(name, _)| *name == check.column()),
                "{check}: no {} column",
                check.column()
            );
            assert!(crate::clickhouse::SCHEMA_SQL
                .contains(&format!("{} Nullable(UInt8)", check.column())));
        }
        let mut columns: Vec<&str> = ReadinessCheck::ALL.iter().map(|c| c.column()).collect();
        columns.sort_unstable();
        columns.dedup();
        assert_eq!(columns.len(), ReadinessCheck::ALL.len());
    }

    #[test]
    fn a_readiness_section_serializes_with_radars_ids() {
        let mut r = super::Readiness::default();
        r.set(ReadinessCheck::LlmsFullTxt, Some(true));
        r.set(ReadinessCheck::A2aAgentCard, Some(false));
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["llmsFullTxt"], true);
        assert_eq!(json["a2aAgentCard"], false);
        assert!(json["robotsTxt"].is_null());
        for check in ReadinessCheck::ALL {
            assert!(json.get(check.as_str()).is_some(), "{check}");
        }
    }
}
