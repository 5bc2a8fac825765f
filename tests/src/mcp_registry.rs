//! A simulated official MCP registry: `GET /v0.1/servers` (or `/v0/servers`) with the real
//! API's shape: `{"servers": [{"server": {...}, "_meta": {...isLatest...}}], "metadata":
//! {"nextCursor", "count"}}`, paged with `limit` and an opaque `cursor`, searchable with
//! `search` (a substring of the name), every version of a name listed with one marked
//! `isLatest`. An entry declares remotes (`streamable-http` or `sse`, any number) or a
//! repository. `{port}` in a remote's URL becomes the web's port when answered. A page can be
//! made to fail, to test a listing that breaks part-way.

use std::sync::Arc;

use serde_json::{json, Value};

use crate::{RecordedRequest, Reply, Site};

const OFFICIAL_META: &str = "io.modelcontextprotocol.registry/official";
/// The page size when the client asks for none (the real registry's default).
const DEFAULT_LIMIT: usize = 30;

/// One version of one server.
#[derive(Debug, Clone)]
struct Entry {
    name: String,
    version: String,
    latest: bool,
    /// `(type, url)`, in the order declared.
    remotes: Vec<(String, String)>,
    repository: Option<String>,
}

/// The registry's contents and how it answers.
#[derive(Debug, Clone)]
pub struct SimRegistry {
    entries: Vec<Entry>,
    /// The most entries a page holds, whatever `limit` asks.
    page_size: usize,
    /// This page (1-based) answers 503.
    fail_page: Option<usize>,
    /// The API path served (`v0.1` or `v0`).
    api: &'static str,
    /// Each page answers after this long.
    page_delay: std::time::Duration,
}

impl Default for SimRegistry {
    fn default() -> Self {
        SimRegistry {
            entries: Vec::new(),
            page_size: 100,
            fail_page: None,
            api: "v0.1",
            page_delay: std::time::Duration::ZERO,
        }
    }
}

impl SimRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// A version of a remote server at `url` (`{port}` is filled in when answered).
    pub fn remote(self, name: &str, version: &str, latest: bool, url: &str) -> Self {
        self.remotes(name, version, latest, &[("streamable-http", url)])
    }

    /// A version of a server declaring `remotes`, `(type, url)` in this order (`{port}` in a
    /// URL is filled in when answered).
    pub fn remotes(
        mut self,
        name: &str,
        version: &str,
        latest: bool,
        remotes: &[(&str, &str)],
    ) -> Self {
        self.entries.push(Entry {
            name: name.to_owned(),
            version: version.to_owned(),
            latest,
            remotes: remotes
                .iter()
                .map(|(t, u)| ((*t).to_owned(), (*u).to_owned()))
                .collect(),
            repository: None,
        });
        self
    }

    /// The latest (and only) version of a stdio server: a repository, no remote.
    pub fn stdio(mut self, name: &str, repository: &str) -> Self {
        self.entries.push(Entry {
            name: name.to_owned(),
            version: "1.0.0".to_owned(),
            latest: true,
            remotes: Vec::new(),
            repository: Some(repository.to_owned()),
        });
        self
    }

    /// At most `n` entries a page.
    pub fn page_size(mut self, n: usize) -> Self {
        self.page_size = n.max(1);
        self
    }

    /// Page `n` (1-based) answers 503.
    pub fn fail_on_page(mut self, n: usize) -> Self {
        self.fail_page = Some(n);
        self
    }

    /// Each page answers after `delay` (a listing that takes a while).
    pub fn page_delay(mut self, delay: std::time::Duration) -> Self {
        self.page_delay = delay;
        self
    }

    /// Serves the older `/v0/servers` path only.
    pub fn v0_only(mut self) -> Self {
        self.api = "v0";
        self
    }

    /// The names listed, each once.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.entries.iter().map(|e| e.name.clone()).collect();
        names.sort();
        names.dedup();
        names
    }

    /// Entries listed (every version).
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// The registry as a site named `host`.
    pub fn site(self, host: &str) -> Site {
        let path = format!("/{}/servers", self.api);
        let registry = Arc::new(self);
        Site::new(host).route(
            &path,
            Reply::handler(move |req: &RecordedRequest| registry.answer(req)),
        )
    }

    fn answer(&self, req: &RecordedRequest) -> Reply {
        let query = req.query().unwrap_or_default();
        let param = |key: &str| {
            query.split('&').find_map(|pair| {
                let (k, v) = pair.split_once('=')?;
                (k == key).then(|| percent_decode(v))
            })
        };
        let search = param("search");
        let limit = param("limit")
            .and_then(|l| l.parse::<usize>().ok())
            .unwrap_or(DEFAULT_LIMIT)
            .clamp(1, self.page_size);
        // The cursor is the index of the page's first entry, as text the client must not read.
        let start = match param("cursor") {
            None => 0,
            Some(c) => match c.strip_prefix("after-").and_then(|n| n.parse().ok()) {
                Some(n) => n,
                None => return Reply::status(400),
            },
        };
        if self.fail_page.is_some_and(|p| start == (p - 1) * limit) {
            return Reply::status(503);
        }
        let port = req.local.port().to_string();
        let matching: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| search.as_deref().is_none_or(|s| e.name.contains(s)))
            .collect();
        let page: Vec<Value> = matching
            .iter()
            .skip(start)
            .take(limit)
            .map(|e| e.json(&port))
            .collect();
        let next = start + limit;
        let mut metadata = json!({"count": page.len()});
        if next < matching.len() {
            metadata["nextCursor"] = json!(format!("after-{next}"));
        }
        Reply::json(json!({"servers": page, "metadata": metadata})).delay(self.page_delay)
    }
}

impl Entry {
    fn json(&self, port: &str) -> Value {
        let mut server = json!({
            "$schema": "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
            "name": self.name,
            "description": "a simulated server",
            "version": self.version,
        });
        if !self.remotes.is_empty() {
            let remotes: Vec<Value> = self
                .remotes
                .iter()
                .map(|(t, url)| json!({"type": t, "url": url.replace("{port}", port)}))
                .collect();
            server["remotes"] = Value::Array(remotes);
        }
        if let Some(repo) = &self.repository {
            server["repository"] = json!({"url": repo, "source": "github"});
            server["packages"] = json!([{"registryType": "npm", "identifier": self.name,
                "transport": {"type": "stdio"}}]);
        }
        json!({"server": server, "_meta": {OFFICIAL_META: {
            "status": "active", "isLatest": self.latest,
            "publishedAt": "2026-01-01T00:00:00Z"}}})
    }
}

/// `%XX` and `+` decoded (query values the crawler sends).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() && text.is_char_boundary(i + 3) => {
                match u8::from_str_radix(&text[i + 1..i + 3], 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
