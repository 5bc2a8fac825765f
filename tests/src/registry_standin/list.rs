//! The stand-in's entries: each names its remotes as endpoints of the list, in a spelling.
//! Every endpoint has a host of its own (the variants and the shared URLs are one endpoint
//! each), so the web's request log by host is the log by endpoint URL.

use super::kind::Kind;
use crate::mcp_registry::SimRegistry;

/// One endpoint URL, written canonically: scheme and host lowercase, no default port, no
/// trailing slash; `{port}` stands for the web's port.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub kind: Kind,
    pub url: String,
}

impl Endpoint {
    /// The host, when the URL names one (a `{HOST}` template does not).
    pub fn host(&self) -> Option<&str> {
        let rest = self.url.split_once("://")?.1;
        let host = &rest[..rest.find([':', '/']).unwrap_or(rest.len())];
        (!host.contains('{')).then_some(host)
    }

    /// The path (after the host and port).
    pub fn path(&self) -> &str {
        let rest = self.url.split_once("://").map_or("", |(_, r)| r);
        rest.find('/').map_or("/", |i| &rest[i..])
    }

    /// The URL as the report keys it, on a web at `port`.
    pub fn canonical(&self, port: u16) -> String {
        self.url.replace("{port}", &port.to_string())
    }
}

/// How an entry writes its endpoint's URL: every spelling names the same URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    AsWritten,
    /// The host in capitals.
    UpperHost,
    /// A trailing slash.
    TrailingSlash,
    /// A query string.
    Query,
    /// The scheme's default port written out (`:443`).
    DefaultPort,
}

impl Spelling {
    /// `url` (canonical) in this spelling.
    pub fn spell(self, url: &str) -> String {
        let (scheme, rest) = url.split_once("://").expect("an absolute URL");
        let host_end = rest.find([':', '/']).unwrap_or(rest.len());
        let (host, tail) = rest.split_at(host_end);
        match self {
            Spelling::AsWritten => url.to_owned(),
            Spelling::UpperHost => format!("{scheme}://{}{tail}", host.to_ascii_uppercase()),
            Spelling::TrailingSlash => format!("{url}/"),
            Spelling::Query => format!("{url}?utm_source=registry"),
            Spelling::DefaultPort => {
                assert!(tail.starts_with('/'), "{url} already names a port");
                format!("{scheme}://{host}:443{tail}")
            }
        }
    }
}

/// One declared remote: an endpoint of the list, in a spelling.
#[derive(Debug, Clone, Copy)]
pub struct Remote {
    pub endpoint: usize,
    pub spelling: Spelling,
}

/// One registry entry (its latest version); no remote: a stdio server.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    pub remotes: Vec<Remote>,
}

/// The stand-in registry.
#[derive(Debug, Clone, Default)]
pub struct Standin {
    pub endpoints: Vec<Endpoint>,
    pub entries: Vec<Entry>,
    /// Older versions of listed names: `(entry, endpoint)`, never to be requested.
    pub older: Vec<(usize, usize)>,
}

/// Lone endpoints of each kind, and how many entries name its one shared endpoint.
const KINDS: [(Kind, usize, usize); 11] = [
    (Kind::Modern, 10, 2),
    (Kind::Sse, 9, 3),
    (Kind::Initialized400, 5, 3),
    (Kind::Unauthorized, 14, 2),
    (Kind::Forbidden, 9, 2),
    (Kind::SigninRedirect, 9, 3),
    (Kind::Html, 9, 2),
    (Kind::NoDns, 16, 2),
    (Kind::TooMany, 7, 2),
    (Kind::Unavailable, 7, 2),
    (Kind::Recovers, 5, 3),
];

impl Standin {
    /// The stand-in: 322 entries (and 10 older versions).
    pub fn new() -> Standin {
        use Spelling::*;
        let mut s = Standin::default();
        // One URL named by 60 entries, as the probers find on the real registry.
        let shared = s.endpoint(Kind::Live, "shared");
        for _ in 0..60 {
            s.entry(&[(shared, AsWritten)]);
        }
        // One URL in four spellings, two entries each.
        let variant = s.endpoint(Kind::Live, "variant");
        for spelling in [AsWritten, UpperHost, TrailingSlash, Query] {
            s.entry(&[(variant, spelling)]);
            s.entry(&[(variant, spelling)]);
        }
        // Six URLs named by four entries each: more shared URLs than the report lists.
        for i in 0..6 {
            let e = s.endpoint(Kind::Live, &format!("four-{i}"));
            for _ in 0..4 {
                s.entry(&[(e, AsWritten)]);
            }
        }
        let first_lone = s.entries.len();
        for i in 0..40 {
            let e = s.endpoint(Kind::Live, &format!("live-{i}"));
            s.entry(&[(e, AsWritten)]);
        }
        // Every other kind: lone URLs, and one URL several entries name.
        for (kind, lone, shared_by) in KINDS {
            for i in 0..lone {
                let e = s.endpoint(kind, &format!("{}-{i}", kind.slug()));
                s.entry(&[(e, AsWritten)]);
            }
            let e = s.endpoint(kind, &format!("{}-shared", kind.slug()));
            for _ in 0..shared_by {
                s.entry(&[(e, AsWritten)]);
            }
        }
        // A dead URL in three spellings (the default port written out among them).
        let gone = s.endpoint(Kind::NoDns, "gone-spelled");
        for spelling in [AsWritten, DefaultPort, UpperHost] {
            s.entry(&[(gone, spelling)]);
        }
        s.second_remotes();
        s.templates();
        for _ in 0..30 {
            s.entry(&[]);
        }
        // Older versions of the first lone live entries, on hosts of their own.
        for i in 0..10 {
            let e = s.endpoint(Kind::Live, &format!("old-{i}"));
            s.older.push((first_lone + i, e));
        }
        s
    }

    /// Entries with two remotes, where the second decides.
    fn second_remotes(&mut self) {
        use Spelling::AsWritten;
        for i in 0..8 {
            let dead = self.endpoint(Kind::NoDns, &format!("gone-first-{i}"));
            let live = self.endpoint(Kind::Live, &format!("live-second-{i}"));
            self.entry(&[(dead, AsWritten), (live, AsWritten)]);
        }
        // Declared SSE first: the streamable-http remote is still tried first.
        for i in 0..4 {
            let dead = self.endpoint(Kind::NoDns, &format!("gone-before-sse-{i}"));
            let sse = self.endpoint(Kind::Sse, &format!("sse-second-{i}"));
            self.entry(&[(sse, AsWritten), (dead, AsWritten)]);
        }
        // A web page, then a sign-in wall: auth-gated is the better class.
        for i in 0..3 {
            let html = self.endpoint(Kind::Html, &format!("html-first-{i}"));
            let gated = self.endpoint(Kind::Unauthorized, &format!("unauthorized-second-{i}"));
            self.entry(&[(html, AsWritten), (gated, AsWritten)]);
        }
    }

    /// Remotes whose URL is a template, alone or before a live remote.
    fn templates(&mut self) {
        use Spelling::AsWritten;
        for i in 0..5 {
            let url = format!("https://tpl-port-{i}.test:{{PORT}}/mcp");
            let e = self.raw_endpoint(Kind::Template, url);
            self.entry(&[(e, AsWritten)]);
        }
        for i in 0..5 {
            let url = format!("https://tpl-path-{i}.test:{{port}}/{{path}}/mcp");
            let e = self.raw_endpoint(Kind::Template, url);
            self.entry(&[(e, AsWritten)]);
        }
        let host = self.raw_endpoint(Kind::Template, "https://{HOST}/mcp".to_owned());
        for _ in 0..3 {
            self.entry(&[(host, AsWritten)]);
        }
        let both = "https://tpl-both.test:{PORT}/{tenant}/mcp".to_owned();
        let both = self.raw_endpoint(Kind::Template, both);
        self.entry(&[(both, AsWritten)]);
        for i in 0..2 {
            let url = format!("https://tpl-first-{i}.test:{{PORT}}/mcp");
            let tpl = self.raw_endpoint(Kind::Template, url);
            let live = self.endpoint(Kind::Live, &format!("live-after-tpl-{i}"));
            self.entry(&[(tpl, AsWritten), (live, AsWritten)]);
        }
    }

    /// A new endpoint of `kind` on host `<label>.test` (SSE at `/sse`, others at `/mcp`; a
    /// host not in DNS without a port, so its default port can be written out).
    fn endpoint(&mut self, kind: Kind, label: &str) -> usize {
        let url = match kind {
            Kind::Sse => format!("https://{label}.test:{{port}}/sse"),
            Kind::NoDns => format!("https://{label}.test/mcp"),
            _ => format!("https://{label}.test:{{port}}/mcp"),
        };
        self.raw_endpoint(kind, url)
    }

    fn raw_endpoint(&mut self, kind: Kind, url: String) -> usize {
        self.endpoints.push(Endpoint { kind, url });
        self.endpoints.len() - 1
    }

    fn entry(&mut self, remotes: &[(usize, Spelling)]) {
        let n = self.entries.len();
        let first = remotes.first().map(|(e, _)| self.endpoints[*e].kind);
        let slug = first.map_or("stdio", Kind::slug);
        self.entries.push(Entry {
            name: format!("io.standin/{slug}-{n:03}"),
            remotes: remotes
                .iter()
                .map(|&(endpoint, spelling)| Remote { endpoint, spelling })
                .collect(),
        });
    }

    /// The registry serving the list (older versions first, as a registry lists them).
    pub fn registry(&self) -> SimRegistry {
        let mut registry = SimRegistry::new();
        for &(entry, endpoint) in &self.older {
            let url = &self.endpoints[endpoint].url;
            registry = registry.remote(&self.entries[entry].name, "0.9.0", false, url);
        }
        for entry in &self.entries {
            if entry.remotes.is_empty() {
                let repo = format!("https://github.com/{}", entry.name);
                registry = registry.stdio(&entry.name, &repo);
                continue;
            }
            let spelled: Vec<(&str, String)> = entry
                .remotes
                .iter()
                .map(|r| {
                    let e = &self.endpoints[r.endpoint];
                    (e.kind.transport(), r.spelling.spell(&e.url))
                })
                .collect();
            let remotes: Vec<(&str, &str)> =
                spelled.iter().map(|(t, u)| (*t, u.as_str())).collect();
            registry = registry.remotes(&entry.name, "1.0.0", true, &remotes);
        }
        registry
    }
}
