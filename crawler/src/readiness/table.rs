//! The requests the readiness phase makes itself, one row each, in the order it makes them:
//! the path, the check it decides, the purpose its request is logged under, and the `Accept`
//! it sends. Everything else the checks read the survey fetched already (robots.txt, the
//! homepage and its links, the API catalog, the agent card, the OAuth metadata, the server
//! cards), and is not asked twice.

use mcpcensus_store::ReadinessCheck;

/// The byte cap of every readiness document. One cap for all, so a catch-all's page cut at it
/// compares equal with the control's cut at the same place.
pub const READINESS_CAP: usize = 256 * 1024;

/// A readiness request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetch {
    /// The negative control (its path from `control_path`).
    Control,
    /// The homepage again, with `Accept: text/markdown`.
    Markdown,
    LlmsTxt,
    LlmsFullTxt,
    /// Asked only when robots.txt names no sitemap.
    Sitemap,
    /// The A2A card's earlier path, asked only when the survey's `agent-card.json` did not count.
    LegacyAgentCard,
    AgentSkills,
    /// Asked only when the v0.2.0 index did not count.
    LegacySkills,
    /// Asked only when RFC 8414's metadata (the survey's) did not count.
    OpenidConfiguration,
}

/// One readiness request.
#[derive(Debug, Clone, Copy)]
pub struct FetchRow {
    pub fetch: Fetch,
    /// The check it decides (`None`: the control, which decides none by itself).
    pub check: Option<ReadinessCheck>,
    /// The path at the measured origin ("" for the control and the homepage: theirs are the
    /// site's own).
    pub path: &'static str,
    /// The request log's purpose.
    pub purpose: &'static str,
    pub accept: &'static str,
}

const fn row(
    fetch: Fetch,
    check: Option<ReadinessCheck>,
    path: &'static str,
    purpose: &'static str,
    accept: &'static str,
) -> FetchRow {
    FetchRow {
        fetch,
        check,
        path,
        purpose,
        accept,
    }
}

const TEXT: &str = "text/plain, text/markdown;q=0.9, */*;q=0.1";
const JSON: &str = "application/json, */*;q=0.1";

/// The readiness requests, in order: the control first, so every check after it can be judged
/// against it.
pub const READINESS_FETCHES: [FetchRow; 9] = {
    use Fetch as F;
    use ReadinessCheck as C;
    [
        row(F::Control, None, "", "readiness:control", TEXT),
        row(
            F::Markdown,
            Some(C::MarkdownNegotiation),
            "",
            "readiness:markdownNegotiation",
            "text/markdown",
        ),
        row(
            F::LlmsTxt,
            Some(C::LlmsTxt),
            "/llms.txt",
            "readiness:llmsTxt",
            TEXT,
        ),
        row(
            F::LlmsFullTxt,
            Some(C::LlmsFullTxt),
            "/llms-full.txt",
            "readiness:llmsFullTxt",
            TEXT,
        ),
        row(
            F::Sitemap,
            Some(C::Sitemap),
            "/sitemap.xml",
            "readiness:sitemap",
            "application/xml, text/xml;q=0.9, */*;q=0.1",
        ),
        row(
            F::LegacyAgentCard,
            Some(C::A2aAgentCard),
            "/.well-known/agent.json",
            "readiness:a2aAgentCard",
            JSON,
        ),
        row(
            F::AgentSkills,
            Some(C::AgentSkills),
            "/.well-known/agent-skills/index.json",
            "readiness:agentSkills",
            JSON,
        ),
        row(
            F::LegacySkills,
            Some(C::AgentSkills),
            "/.well-known/skills/index.json",
            "readiness:agentSkills",
            JSON,
        ),
        row(
            F::OpenidConfiguration,
            Some(C::OauthDiscovery),
            "/.well-known/openid-configuration",
            "readiness:oauthDiscovery",
            JSON,
        ),
    ]
};
