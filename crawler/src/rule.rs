//! Every rule, the discovery audit's and the deep probe's server rules alike: one type (a
//! stable id, a default severity, what it applies to, a title and a fix) and one table,
//! `rules.toml` beside this file, from which the build makes a constant of each rule and
//! `RULES`. Pure data, below both users, so neither imports the other. `docs/rules.md`
//! documents the same table (one test keeps the two in step).

pub use mcpcensus_store::Severity;

use mcpcensus_store::Finding;
use url::Url;

/// The documents a rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppliesTo {
    /// The four places together.
    Site,
    /// `/.well-known/mcp.json`.
    Manifest,
    /// Server cards: `/.well-known/mcp/server-card.json`, `<endpoint>/server-card`, and the
    /// cards the AI catalogs list (fetched or inline).
    Card,
    /// `/.well-known/ai-catalog.json` and the catalogs nested in it on the site.
    Catalog,
    /// An MCP server, as the deep probe saw it.
    Server,
    /// One tool of a server's list.
    Tool,
}

impl AppliesTo {
    pub fn as_str(self) -> &'static str {
        match self {
            AppliesTo::Site => "site",
            AppliesTo::Manifest => "manifest",
            AppliesTo::Card => "card",
            AppliesTo::Catalog => "catalog",
            AppliesTo::Server => "server",
            AppliesTo::Tool => "tool",
        }
    }
}

include!(concat!(env!("OUT_DIR"), "/rules.rs"));

/// The rule with this id (for `check --explain`: its title and fix).
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.into_iter().find(|rule| rule.id == id)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub id: &'static str,
    pub severity: Severity,
    pub applies_to: AppliesTo,
    /// The finding as the rule's document titles it.
    pub title: &'static str,
    /// What to do about it.
    pub fix: &'static str,
}

impl Rule {
    /// True for the deep probe's rules (about a server or its tools), false for the
    /// discovery audit's (about the documents).
    pub fn is_probe_rule(&self) -> bool {
        matches!(self.applies_to, AppliesTo::Server | AppliesTo::Tool)
    }

    /// A finding of this rule about the document at `url`.
    pub fn finding(&self, url: &Url, evidence: impl Into<String>) -> Finding {
        self.finding_as(self.severity, url, evidence)
    }

    /// The same with another severity (`MCP-DISC-001` is `info` for a site with no server).
    pub fn finding_as(
        &self,
        severity: Severity,
        url: &Url,
        evidence: impl Into<String>,
    ) -> Finding {
        self.finding_on(severity, evidence.into(), Some(url.as_str()), None)
    }

    /// A finding with `severity` about the document or endpoint at `url` and, for a tool rule,
    /// the tool named `tool`.
    pub fn finding_on(
        &self,
        severity: Severity,
        evidence: String,
        url: Option<&str>,
        tool: Option<&str>,
    ) -> Finding {
        Finding {
            rule_id: self.id.to_owned(),
            severity,
            evidence,
            url: url.map(str::to_owned),
            tool: tool.map(str::to_owned),
        }
    }
}

#[cfg(test)]
#[path = "rule_tests.rs"]
mod tests;
