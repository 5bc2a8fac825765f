//! The AI crawlers robots.txt groups are read for: the product tokens their operators publish
//! (each matched case-insensitively, RFC 9309 §2.2.1), and what a group lets each do.

/// The AI crawlers' product tokens, in the order the record lists them: the Web Almanac's and
/// Radar's lists (training, search and on-demand fetchers of the large operators).
pub const AI_CRAWLERS: [&str; 16] = [
    "GPTBot",
    "ChatGPT-User",
    "OAI-SearchBot",
    "ClaudeBot",
    "Claude-User",
    "Claude-SearchBot",
    "anthropic-ai",
    "Google-Extended",
    "CCBot",
    "PerplexityBot",
    "Perplexity-User",
    "Bytespider",
    "Applebot-Extended",
    "meta-externalagent",
    "Amazonbot",
    "cohere-ai",
];

/// What the groups naming a crawler let it fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No rule disallows a path (or only empty `Disallow:` lines).
    Allow,
    /// `Disallow: /` and no `Allow:` with a path.
    Disallow,
    /// Some paths disallowed, others not.
    Partial,
}

impl Access {
    pub const fn as_str(self) -> &'static str {
        match self {
            Access::Allow => "allow",
            Access::Disallow => "disallow",
            Access::Partial => "partial",
        }
    }

    /// From a crawler's rules: `(allow, path)` pairs in file order.
    pub(super) fn of(rules: &[(bool, String)]) -> Access {
        let disallows: Vec<&str> = rules
            .iter()
            .filter(|(allow, path)| !allow && !path.is_empty())
            .map(|(_, path)| path.as_str())
            .collect();
        let allows = rules.iter().any(|(allow, path)| *allow && !path.is_empty());
        if disallows.is_empty() {
            Access::Allow
        } else if disallows.contains(&"/") && !allows {
            Access::Disallow
        } else {
            Access::Partial
        }
    }
}
