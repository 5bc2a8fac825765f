//! Official MCP registry names (`com.example/server`): a GET of
//! `<registry>/v0.1/servers?search=<name>` (the current API), or of `/v0/servers` when that
//! path is not found (older registries), then the entry whose name matches exactly (the one the
//! registry marks `isLatest` when it lists several versions of the name): its remotes, every
//! one of them (the deep probe took only the first; the probers try each), else its repository.
//! A repository without an endpoint is a stdio server: Not probeable.

use http::header::ACCEPT;
use http::HeaderValue;
use mcpcensus_store::{FailureKind, ProbeDepth, Record, Transport};
use serde_json::Value;
use url::Url;

use super::facts::MigrationStatus;
pub use super::remotes::{Remote, RemoteKind};
use crate::net::json::parse_json;
use crate::net::{FetchRequest, SiteClient};
use crate::verdict::Verdict;

/// Most bytes of a registry answer read.
pub const REGISTRY_CAP: usize = 1024 * 1024;
/// Longest wait for the registry.
pub const REGISTRY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// What a registry name resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// The entry's remotes, streamable HTTP first, then legacy SSE (never empty).
    Remotes(Vec<Remote>),
    /// No remote: the entry's repository (a stdio server).
    Stdio(String),
}

/// Why a name did not resolve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    #[error("the registry URL {0} does not parse")]
    BadUrl(String),
    #[error("the registry at {url} did not answer: {error}")]
    Fetch {
        url: String,
        error: String,
        kind: FailureKind,
    },
    #[error("the registry answered {status} for {url}")]
    Status { url: String, status: u16 },
    #[error("the registry's answer at {0} is not a server list")]
    NotAList(String),
    #[error("no registry entry is named exactly {0:?}")]
    NotFound(String),
    #[error("the registry entry {0:?} has neither a remote nor a repository")]
    Empty(String),
}

impl RegistryError {
    /// The record's typed kind of the failed lookup.
    pub fn failure_kind(&self) -> FailureKind {
        match self {
            Self::BadUrl(_) => FailureKind::InvalidUrl,
            Self::Fetch { kind, .. } => *kind,
            Self::Status { .. } | Self::NotAList(_) => FailureKind::Answer,
            Self::NotFound(_) | Self::Empty(_) => FailureKind::NoEndpoint,
        }
    }
}

/// The registry API paths, current first: the v0.1 API freeze, then v0 for older registries.
pub const API_PATHS: [&str; 2] = ["v0.1", "v0"];

/// The registry's own metadata key on each entry (`isLatest`, `status`, `publishedAt`).
const OFFICIAL_META: &str = "io.modelcontextprotocol.registry/official";

/// The search URL for `name` on the current API path.
pub fn search_url(registry: &str, name: &str) -> Result<Url, RegistryError> {
    search_url_at(registry, API_PATHS[0], name)
}

/// The search URL for `name` under the API path `api`.
pub fn search_url_at(registry: &str, api: &str, name: &str) -> Result<Url, RegistryError> {
    let mut url = servers_url(registry, api)?;
    url.query_pairs_mut().append_pair("search", name);
    Ok(url)
}

/// `<registry>/<api>/servers`, without a query.
pub fn servers_url(registry: &str, api: &str) -> Result<Url, RegistryError> {
    let base = Url::parse(registry.trim_end_matches('/'))
        .map_err(|_| RegistryError::BadUrl(registry.to_owned()))?;
    base.join(&format!(
        "{}/{api}/servers",
        base.path().trim_end_matches('/')
    ))
    .map_err(|_| RegistryError::BadUrl(registry.to_owned()))
}

/// The registry's own mark on a list item: `Some(true)` for the latest version of its name,
/// `Some(false)` for an older one, `None` when the registry does not say (older registries).
/// The mark sits beside `server` in the v0.1 answer, inside it in earlier ones.
pub(super) fn latest_mark(item: &Value) -> Option<bool> {
    let server = item.get("server").unwrap_or(item);
    [item, server].iter().find_map(|v| {
        v.get("_meta")
            .and_then(|m| m.get(OFFICIAL_META))
            .and_then(|m| m.get("isLatest"))
            .and_then(Value::as_bool)
    })
}

fn is_latest(item: &Value) -> bool {
    latest_mark(item) == Some(true)
}

/// A list item's entry (`{"server": {...}}`, or bare in older answers) and its name.
pub(super) fn entry_of(item: &Value) -> (&Value, Option<&str>) {
    let entry = item.get("server").unwrap_or(item);
    (entry, entry.get("name").and_then(Value::as_str))
}

/// Picks the entry named exactly `name` from a `/v0/servers` answer (entries as
/// `{"server": {...}}`, or bare in older answers).
pub fn resolve_in(doc: &Value, name: &str) -> Result<Resolved, RegistryError> {
    let servers = doc
        .get("servers")
        .and_then(Value::as_array)
        .ok_or_else(|| RegistryError::NotAList(String::new()))?;
    let named: Vec<&Value> = servers
        .iter()
        .filter(|item| entry_of(item).1 == Some(name))
        .collect();
    // A search lists every version of a name; the latest is the one a client would install.
    let item = named
        .iter()
        .find(|item| is_latest(item))
        .or_else(|| named.first())
        .ok_or_else(|| RegistryError::NotFound(name.to_owned()))?;
    resolve_entry(entry_of(item).0, name)
}

/// An entry's remotes (`remotes.rs`), else its repository (a stdio server).
pub fn resolve_entry(entry: &Value, name: &str) -> Result<Resolved, RegistryError> {
    let remotes = super::remotes::remotes_of(entry);
    if !remotes.is_empty() {
        return Ok(Resolved::Remotes(remotes));
    }
    entry
        .get("repository")
        .and_then(|r| r.get("url"))
        .and_then(Value::as_str)
        .filter(|u| !u.is_empty())
        .map(|u| Resolved::Stdio(u.to_owned()))
        .ok_or_else(|| RegistryError::Empty(name.to_owned()))
}

/// GETs one server list (through the guard like any other request): the URL `at(api)` under
/// each API path in turn while the registry says the path is not found. Returns the API path
/// that answered and the parsed answer.
pub(super) async fn get_list(
    client: &SiteClient,
    apis: &[&'static str],
    at: impl Fn(&str) -> Result<Url, RegistryError>,
) -> Result<(&'static str, Value), RegistryError> {
    let mut tried = apis.iter().peekable();
    let (api, url, resp) = loop {
        let api = tried.next().copied().unwrap_or(API_PATHS[0]);
        let url = at(api)?;
        let req = FetchRequest::get(url.clone())
            .header(ACCEPT, HeaderValue::from_static("application/json"))
            .body_cap(REGISTRY_CAP)
            .timeout(REGISTRY_TIMEOUT);
        let resp = client.fetch(req).await.map_err(|e| RegistryError::Fetch {
            url: url.to_string(),
            error: e.to_string(),
            kind: e.failure_kind(),
        })?;
        // Only "no such path" moves on to the older API; any other answer is the registry's.
        if resp.status != http::StatusCode::NOT_FOUND || tried.peek().is_none() {
            break (api, url, resp);
        }
    };
    if !resp.status.is_success() {
        return Err(RegistryError::Status {
            url: url.to_string(),
            status: resp.status.as_u16(),
        });
    }
    let doc: Value =
        parse_json(&resp.body).map_err(|_| RegistryError::NotAList(url.to_string()))?;
    if doc.get("servers").and_then(Value::as_array).is_none() {
        return Err(RegistryError::NotAList(url.to_string()));
    }
    Ok((api, doc))
}

/// Looks `name` up in the registry at `registry` (one GET, through the guard like any other).
pub async fn resolve(
    client: &SiteClient,
    registry: &str,
    name: &str,
) -> Result<Resolved, RegistryError> {
    let (_, doc) = get_list(client, &API_PATHS, |api| search_url_at(registry, api, name)).await?;
    resolve_in(&doc, name)
}

/// The record of a stdio server: no address, nothing probed, Not probeable, no checklist.
pub fn stdio_record(run_id: &str, name: &str, repository: &str) -> Record {
    let reason = format!(
        "the registry entry has no remote, only the repository {repository}: a stdio server, \
         not probeable"
    );
    let mut r = Verdict::not_measured(FailureKind::NoEndpoint, reason).into_record(run_id, name, 1);
    r.probe = Some(ProbeDepth::Deep);
    r.transport = Some(Transport::Stdio);
    r.migration_status = Some(MigrationStatus::NotProbeable);
    r
}
