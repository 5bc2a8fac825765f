//! The card rules, for every server card the discovery audit reaches:
//! `/.well-known/mcp/server-card.json`, `<endpoint>/server-card`, and the cards the AI catalogs
//! list (fetched, or inline in `data`).

use http::header::{ACCESS_CONTROL_ALLOW_ORIGIN, CACHE_CONTROL};
use http::HeaderMap;
use mcpcensus_store::Finding;
use url::Url;

use super::evidence::{not_an_array, quoted, unusable_text, wrong_kind};
use super::revision::{classify_revision, Revision};
use super::rules::{
    Rule, CARD_NOT_JSON, NAME_NOT_REVERSE_DNS, NO_CACHE_CONTROL, NO_CORS, NO_REMOTES,
    NO_SUPPORTED_VERSIONS, ONLY_OLD_REVISIONS, REMOTE_URL, REQUIRED_FIELD_MISSING, TOOLS_IN_CARD,
    UNRECOGNISED_REVISION, UNRECOGNISED_TRANSPORT,
};
use crate::discovery::{DocumentParse, Field, ParsedCard, Remote};

/// The schema's bounds on `name` (3 to 200 characters).
const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=200;

/// One card to audit.
#[derive(Debug, Clone, Copy)]
pub(super) struct CardDoc<'a> {
    /// The card's URL; for an inline card, the catalog's.
    pub url: &'a Url,
    /// Where in the document the card sits (`entries[1].data` for an inline card), prefixed
    /// to every piece of evidence; empty for a card that is a document of its own.
    pub at: &'a str,
    pub parse: &'a DocumentParse<ParsedCard>,
    /// The card's response headers; `None` for an inline card (it has no response of its own).
    pub headers: Option<&'a HeaderMap>,
}

impl CardDoc<'_> {
    fn finding(&self, rule: &Rule, evidence: impl AsRef<str>) -> Finding {
        let evidence = evidence.as_ref();
        if self.at.is_empty() {
            rule.finding(self.url, evidence)
        } else {
            rule.finding(self.url, format!("{}: {evidence}", self.at))
        }
    }
}

pub(super) fn audit_card(doc: &CardDoc) -> Vec<Finding> {
    let card = match doc.parse {
        DocumentParse::Parsed(card) => card,
        unread => {
            let why = unread.why_not().unwrap_or_default();
            return vec![doc.finding(&CARD_NOT_JSON, why)];
        }
    };
    let mut out = Vec::new();
    for (key, field) in [
        ("$schema", &card.schema),
        ("name", &card.name),
        ("version", &card.version),
        ("description", &card.description),
    ] {
        if let Some(why) = unusable_text(key, field) {
            out.push(doc.finding(&REQUIRED_FIELD_MISSING, missing_evidence(key, why, card)));
        }
    }
    if let Some(name) = card.name.text().filter(|n| !n.trim().is_empty()) {
        if !is_reverse_dns(name) {
            let why = format!("`name` is {}, not namespace/name", quoted(name));
            out.push(doc.finding(&NAME_NOT_REVERSE_DNS, why));
        }
    }
    match &card.tools {
        Field::Absent => {}
        Field::Present(tools) => {
            let why = format!("`tools` lists {} tools", tools.len());
            out.push(doc.finding(&TOOLS_IN_CARD, why));
        }
        Field::WrongType { kind, raw } => {
            out.push(doc.finding(&TOOLS_IN_CARD, wrong_kind("tools", *kind, raw)));
        }
    }
    match &card.remotes {
        Field::Present(remotes) if !remotes.is_empty() => {
            for (index, remote) in remotes.iter().enumerate() {
                out.extend(audit_remote(doc, index, remote));
            }
        }
        other => {
            let why = not_an_array("remotes", other).unwrap_or_else(|| "`remotes` is []".into());
            out.push(doc.finding(&NO_REMOTES, with_older_endpoint(why, card)));
        }
    }
    out.extend(audit_revisions(doc, card));
    if let Some(headers) = doc.headers {
        let cache = headers.get(CACHE_CONTROL).is_none();
        match missing_cors(headers) {
            Some(why) if cache => {
                out.push(doc.finding(&NO_CORS, why + "; Cache-Control is absent"))
            }
            Some(why) => out.push(doc.finding(&NO_CORS, why)),
            None if cache => out.push(doc.finding(&NO_CACHE_CONTROL, "Cache-Control is absent")),
            None => {}
        }
    }
    out
}

/// A pre-SEP card spells name and version inside `serverInfo`; say so beside the evidence.
fn missing_evidence(key: &str, why: String, card: &ParsedCard) -> String {
    let older = card.server_info.get().and_then(|info| match key {
        "name" => info.name.text(),
        "version" => info.version.text(),
        _ => None,
    });
    match older {
        Some(value) => format!(
            "{why} (`serverInfo.{key}` is {}, the pre-SEP spelling)",
            quoted(value)
        ),
        None => why,
    }
}

/// Notes an endpoint the card names in an older field, which belongs in `remotes`.
fn with_older_endpoint(why: String, card: &ParsedCard) -> String {
    if card.remotes.is_present() {
        return why;
    }
    match card.remote_refs().first() {
        Some(older) => format!(
            "{why}; the endpoint {} is in a pre-SEP field",
            quoted(&older.url)
        ),
        None => why,
    }
}

/// The schema's pattern `^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$` and its length bounds.
fn is_reverse_dns(name: &str) -> bool {
    let Some((namespace, local)) = name.split_once('/') else {
        return false;
    };
    let namespace_ok = |b: u8| b.is_ascii_alphanumeric() || b == b'.' || b == b'-';
    let local_ok = |b: u8| namespace_ok(b) || b == b'_';
    NAME_CHARS.contains(&name.chars().count())
        && !namespace.is_empty()
        && !local.is_empty()
        && namespace.bytes().all(namespace_ok)
        && local.bytes().all(local_ok)
}

fn audit_remote(doc: &CardDoc, index: usize, remote: &Remote) -> Vec<Finding> {
    let at = format!("remotes[{index}]");
    if let Some(kind) = remote.not_object {
        let why = format!("`{at}` is a {}, not an object with a url", kind.as_str());
        return vec![doc.finding(&REMOTE_URL, why)];
    }
    let mut out = Vec::new();
    match &remote.transport {
        Field::Present(kind) if kind == "streamable-http" || kind == "sse" => {}
        Field::Present(kind) => {
            let why = format!("`{at}.type` is {}", quoted(kind));
            out.push(doc.finding(&UNRECOGNISED_TRANSPORT, why));
        }
        other => {
            let why = unusable_text(&format!("{at}.type"), other).unwrap_or_default();
            out.push(doc.finding(&UNRECOGNISED_TRANSPORT, why));
        }
    }
    let url_problem = match unusable_text(&format!("{at}.url"), &remote.url) {
        Some(why) => Some(why),
        None => remote.url.text().and_then(|url| {
            not_absolute_https(url).map(|why| format!("`{at}.url` {} is {why}", quoted(url)))
        }),
    };
    if let Some(why) = url_problem {
        out.push(doc.finding(&REMOTE_URL, why));
    }
    match &remote.supported_protocol_versions {
        Field::Present(versions) if !versions.is_empty() => {}
        other => {
            let key = format!("{at}.supportedProtocolVersions");
            let why = not_an_array(&key, other).unwrap_or_else(|| format!("`{key}` is []"));
            out.push(doc.finding(&NO_SUPPORTED_VERSIONS, why));
        }
    }
    out
}

/// Why a remote URL is not an absolute `https://` URL, or `None` when it is. `{variables}`
/// (which the schema allows) stand for a value while parsing.
fn not_absolute_https(raw: &str) -> Option<&'static str> {
    let filled = fill_variables(raw.trim());
    match Url::parse(&filled) {
        Err(url::ParseError::RelativeUrlWithoutBase) => Some("relative"),
        Err(_) => Some("not a valid URL"),
        Ok(url) if url.scheme() != "https" => Some("not https"),
        Ok(url) if url.host().is_none() => Some("not a valid URL"),
        Ok(_) => None,
    }
}

fn fill_variables(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push('x');
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// Every revision the card declares, with where: each remote's `supportedProtocolVersions`,
/// and the older top-level `supportedProtocolVersions` and `protocolVersion`.
fn declared_revisions(card: &ParsedCard) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    if let Some(remotes) = card.remotes.get() {
        for (index, remote) in remotes.iter().enumerate() {
            for version in remote
                .supported_protocol_versions
                .get()
                .into_iter()
                .flatten()
            {
                out.push((
                    format!("remotes[{index}].supportedProtocolVersions"),
                    version.as_str(),
                ));
            }
        }
    }
    for version in card.supported_protocol_versions.get().into_iter().flatten() {
        out.push(("supportedProtocolVersions".to_owned(), version.as_str()));
    }
    if let Some(version) = card.protocol_version.text() {
        out.push(("protocolVersion".to_owned(), version));
    }
    out
}

/// `MCP-CARD-009` per unrecognised value; `MCP-CARD-010` once when every recognised value is
/// older than 2025-06-18.
fn audit_revisions(doc: &CardDoc, card: &ParsedCard) -> Vec<Finding> {
    let declared = declared_revisions(card);
    let mut out = Vec::new();
    let mut recognised = Vec::new();
    for (at, text) in &declared {
        let revision = classify_revision(text);
        match revision.why_unrecognised() {
            Some(why) => {
                let evidence = format!("`{at}` holds {}: {why}", quoted(text));
                out.push(doc.finding(&UNRECOGNISED_REVISION, evidence));
            }
            None => recognised.push((*text, revision)),
        }
    }
    let all_old = recognised
        .iter()
        .all(|(_, revision)| *revision == Revision::Released { pre_2025_06: true });
    if !recognised.is_empty() && all_old {
        let mut listed: Vec<&str> = recognised.iter().map(|(text, _)| *text).collect();
        listed.sort_unstable_by(|a, b| b.cmp(a));
        listed.dedup();
        let evidence = format!("declares only {}", listed.join(", "));
        out.push(doc.finding(&ONLY_OLD_REVISIONS, evidence));
    }
    out
}

/// What the card's response lacks of `Access-Control-Allow-Origin: *` (CORS: what
/// MCP-CARD-011 is about; a missing `Cache-Control` alone is MCP-CARD-012).
fn missing_cors(headers: &HeaderMap) -> Option<String> {
    match headers
        .get(ACCESS_CONTROL_ALLOW_ORIGIN)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
    {
        None => Some("Access-Control-Allow-Origin is absent".to_owned()),
        Some(origin) if origin != "*" => Some(format!(
            "Access-Control-Allow-Origin is {}, not *",
            quoted(&origin)
        )),
        Some(_) => None,
    }
}
