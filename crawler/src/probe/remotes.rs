//! A registry entry's declared remotes, as the probers read them: every remote with a URL,
//! streamable HTTP first (and any type the registry adds later), then legacy `sse`, each in
//! the entry's order. A URL with unexpanded `{...}` placeholders (`https://host:{PORT}/mcp`,
//! `https://{HOST}/mcp`) is a template the client fills in: kept as written, never requested.

use serde_json::Value;
use url::Url;

/// The transport a remote declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RemoteKind {
    /// `streamable-http` (or a type this crawler does not know, tried the same way).
    StreamableHttp,
    /// `sse`: the legacy HTTP+SSE transport.
    Sse,
}

impl RemoteKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RemoteKind::StreamableHttp => "streamable-http",
            RemoteKind::Sse => "sse",
        }
    }
}

/// One declared remote: its URL as the registry wrote it, and its transport.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remote {
    pub url: String,
    pub kind: RemoteKind,
}

impl Remote {
    /// The URL holds a `{` followed later by a `}`: a template, never requested.
    pub fn is_template(&self) -> bool {
        self.url
            .find('{')
            .is_some_and(|open| self.url[open..].contains('}'))
    }

    /// The URL to request; `None` for a template or a URL that does not parse.
    pub fn to_url(&self) -> Option<Url> {
        if self.is_template() {
            return None;
        }
        Url::parse(&self.url).ok()
    }
}

/// The entry's remotes with a URL, streamable HTTP first, then `sse` (a stable sort).
pub fn remotes_of(entry: &Value) -> Vec<Remote> {
    let mut remotes: Vec<Remote> = entry
        .get("remotes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let url = r.get("url").and_then(Value::as_str)?.trim();
            let kind = match r.get("type").and_then(Value::as_str) {
                Some(t) if t.eq_ignore_ascii_case("sse") => RemoteKind::Sse,
                _ => RemoteKind::StreamableHttp,
            };
            (!url.is_empty()).then(|| Remote {
                url: url.to_owned(),
                kind,
            })
        })
        .collect();
    remotes.sort_by_key(|r| r.kind);
    remotes
}
