//! The HTTP client: [`Net`] holds what all sites share; [`SiteClient`] is one site's pool.
//!
//! A fetch pins the host (resolve once per site, guard every address), waits for politeness
//! (host pause, host rate, IP rate), then sends through hyper's pool, whose connector opens
//! connections only to the pinned addresses. Redirects are returned, never followed; no
//! compression is asked for; no credentials, cookies or `Origin` are ever sent.

use std::collections::HashMap;
use std::error::Error as _;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use bytes::Bytes;
use http::header::{
    ACCEPT_ENCODING, AUTHORIZATION, COOKIE, HOST, ORIGIN, PROXY_AUTHORIZATION, USER_AGENT,
};
use http::{HeaderMap, HeaderName, HeaderValue, Uri};
use http_body_util::Full;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use mcpcensus_store::inert::terminal_text;
use tokio::time::Instant;

use super::body::BodyReader;
use super::connector::{Connector, PeerInfo};
use super::error::NetError;
use super::fetch::{FetchError, FetchHead, FetchRequest, FetchResponse, TimeoutPhase};
use super::guard::Guard;
use super::local::LocalResource;
use super::options::NetOptions;
use super::pins::Pins;
use super::resolver::{ResolveError, Resolver};
use super::retry_after::{pauses_host, retry_after};
use super::reuse::{ConnKey, Reuse};
use super::robots::RobotsRules;
use super::shared::Shared;
use super::throttle::Throttle;
use super::tls;
use super::waits::OwnWaits;
use crate::input::Exclusions;

/// Headers a caller may not set: credentials, cookies, `Origin`, and those the client owns.
const DROPPED_HEADERS: [HeaderName; 7] = [
    AUTHORIZATION,
    PROXY_AUTHORIZATION,
    COOKIE,
    ORIGIN,
    ACCEPT_ENCODING,
    USER_AGENT,
    HOST,
];

/// The network core: resolver, guard, throttle and TLS configuration, shared by all sites.
/// Cheap to clone.
#[derive(Clone)]
pub struct Net {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Net")
            .field("resolver", &self.shared.resolver)
            .field("guard", &self.shared.guard)
            .field("throttle", &self.shared.throttle)
            .finish_non_exhaustive()
    }
}

impl Net {
    /// Validates the options and builds the shared parts (reads CA files and, without explicit
    /// nameservers, the system DNS configuration).
    pub fn new(opts: NetOptions) -> Result<Self, NetError> {
        Self::with_opt_out(opts, Arc::default())
    }

    /// The same, with the opt-out list every site client checks before each request.
    pub fn with_opt_out(opts: NetOptions, opt_out: Arc<Exclusions>) -> Result<Self, NetError> {
        opts.validate()?;
        let user_agent = HeaderValue::from_str(&opts.full_user_agent()).map_err(|_| {
            NetError::InvalidOption {
                field: "user_agent",
                reason: "not a valid header value".to_owned(),
            }
        })?;
        let shared = Shared {
            resolver: Resolver::new(&opts)?,
            guard: Guard::new(opts.allow_nets.clone()).excluding(opts.exclude_nets.clone()),
            throttle: Throttle::new(&opts)?,
            tls: tls::client_config(&opts.ca_files, opts.offer_http2)?,
            user_agent,
            opt_out,
            opts,
        };
        Ok(Self {
            shared: Arc::new(shared),
        })
    }

    /// A new connection pool for one site; drop it when the site is done.
    pub fn site_client(&self) -> SiteClient {
        let opts = &self.shared.opts;
        let pins = Arc::new(Pins::new(opts.max_hosts_per_site.get()));
        let waits = Arc::new(OwnWaits::default());
        let reuse = Arc::new(Reuse::default());
        let connector = Connector::new(
            self.shared.clone(),
            pins.clone(),
            waits.clone(),
            reuse.clone(),
        );
        let http = Client::builder(TokioExecutor::new())
            .timer(TokioTimer::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(opts.pool_idle_timeout)
            .pool_max_idle_per_host(opts.pool_max_idle_per_host)
            .build(connector);
        SiteClient {
            shared: self.shared.clone(),
            pins,
            http,
            robots: Mutex::new(HashMap::new()),
            waits,
            reuse,
            local: OnceLock::new(),
        }
    }

    /// The shared resolver.
    pub fn resolver(&self) -> &Resolver {
        &self.shared.resolver
    }

    /// The shared guard.
    pub fn guard(&self) -> &Guard {
        &self.shared.guard
    }

    /// The shared politeness state.
    pub fn throttle(&self) -> &Throttle {
        &self.shared.throttle
    }

    /// The options in force.
    pub fn options(&self) -> &NetOptions {
        &self.shared.opts
    }
}

/// One site's connection pool, reused across the site's requests.
pub struct SiteClient {
    shared: Arc<Shared>,
    pins: Arc<Pins>,
    http: Client<Connector, Full<Bytes>>,
    /// Origin → its robots.txt, once read: every later GET there is checked against it.
    robots: Mutex<HashMap<String, Arc<RobotsRules>>>,
    /// Time this site spent in our own queues (DNS slots, politeness, connection slots).
    waits: Arc<OwnWaits>,
    /// The site's live connections and requests in flight, shared with its connector.
    reuse: Arc<Reuse>,
    /// The first resource of this machine that ran out during one of the site's requests
    /// (set from the OS error number only): the run retries such a site, never records it.
    local: OnceLock<LocalResource>,
}

impl std::fmt::Debug for SiteClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SiteClient")
            .field("pins", &self.pins)
            .finish_non_exhaustive()
    }
}

impl SiteClient {
    /// The site's ledger of waits on the crawler's own queues: deadlines that measure the
    /// server move by it.
    pub fn waits(&self) -> &Arc<OwnWaits> {
        &self.waits
    }

    /// From now on, GETs to `origin` follow `rules` (and its Crawl-delay spaces them).
    pub fn set_robots(&self, origin: &url::Url, rules: RobotsRules) {
        self.robots_map()
            .insert(super::names::origin_key(origin), Arc::new(rules));
    }

    /// True when `url`'s origin has no robots.txt rules set or they allow a GET of it.
    pub fn robots_allow(&self, url: &url::Url) -> bool {
        self.robots_for(url)
            .is_none_or(|r| r.allows(&path_and_query(url)))
    }

    fn robots_for(&self, url: &url::Url) -> Option<Arc<RobotsRules>> {
        let key = super::names::origin_key(url);
        self.robots_map().get(&key).cloned()
    }

    fn robots_map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<RobotsRules>>> {
        self.robots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sends the request and reads the body up to its cap.
    pub async fn fetch(&self, req: FetchRequest) -> Result<FetchResponse, FetchError> {
        let mut head = self.fetch_head(req).await?;
        let body_started = Instant::now();
        let (body, truncated) = head.body.read_to_end().await?;
        Ok(FetchResponse {
            status: head.status,
            headers: head.headers,
            body,
            truncated,
            elapsed: head.elapsed + body_started.elapsed(),
            address: head.address,
            http_version: head.http_version,
        })
    }

    /// The resource of this machine that ran out during one of this site's requests, if one
    /// did: the typed flag the run's retry decision reads (never a record's text).
    pub fn local_failure(&self) -> Option<LocalResource> {
        self.local.get().copied()
    }

    /// Notes a lookup made for this site outside [`SiteClient::fetch_head`] (the scan's first
    /// resolve) that failed for want of a local resource.
    pub fn note_resolve_error(&self, error: &ResolveError) {
        if let ResolveError::Local(resource) = error {
            let _ = self.local.set(*resource);
        }
    }

    /// Sends the request and returns as soon as the response head arrives; the body is read
    /// on demand through [`FetchHead::body`] (or dropped unread).
    pub async fn fetch_head(&self, req: FetchRequest) -> Result<FetchHead, FetchError> {
        let result = self.send(req).await;
        if let Some(resource) = result.as_ref().err().and_then(FetchError::local_resource) {
            let _ = self.local.set(resource);
        }
        result
    }

    async fn send(&self, req: FetchRequest) -> Result<FetchHead, FetchError> {
        let started = Instant::now();
        // Our own waits (DNS and connection slots, politeness) are not the server's time:
        // the request's timeout and its elapsed time leave them out.
        let waited_before = self.waits.total();
        let waited = || self.waits.total().saturating_sub(waited_before);
        let url_text = req.url.to_string();
        let invalid = |reason| FetchError::InvalidUrl {
            url: url_text.clone(),
            reason,
        };
        if !matches!(req.url.scheme(), "http" | "https") {
            return Err(invalid("scheme is not http or https"));
        }
        // One name per host for every decision below (opt-out, pin, politeness, pauses): a
        // trailing dot names the same host (`victim.example.` is `victim.example`).
        let host = match req.url.host() {
            Some(url::Host::Domain(d)) => super::names::host_key(d).into_owned(),
            Some(url::Host::Ipv4(ip)) => ip.to_string(),
            Some(url::Host::Ipv6(ip)) => ip.to_string(),
            None => return Err(invalid("no host")),
        };
        // Checked here, where every request is made, so no path can reach an opted-out host.
        if let Some(listed) = self.shared.opt_out.covering(&host) {
            return Err(FetchError::OptedOut {
                host,
                listed: listed.to_owned(),
            });
        }
        let robots = self.robots_for(&req.url);
        if req.method == http::Method::GET
            && robots
                .as_ref()
                .is_some_and(|r| !r.allows(&path_and_query(&req.url)))
        {
            return Err(FetchError::Disallowed {
                url: url_text.clone(),
            });
        }
        let addrs = self
            .pins
            .get_or_pin(&self.shared, &host, &self.waits)
            .await?;
        let port = req.url.port_or_known_default().unwrap_or(443);
        // The address this origin's connections use once one is open; before that, the one
        // the connector tries first (it charges another address itself if it moves on).
        let charged = match self.pins.used(&host, port) {
            Some(ip) => ip,
            None => addrs.first().copied().ok_or_else(|| FetchError::Resolve {
                host: host.clone(),
                error: super::resolver::ResolveError::NoAddresses,
            })?,
        };
        // What the host asked for (its 429/503 pause, its Crawl-delay) is the server's time
        // for the site, but not part of this request's own timeout; our rates are neither.
        let asked = Instant::now();
        let gap = robots.and_then(|r| r.crawl_delay());
        self.shared.throttle.asked_by_host(&host, gap).await;
        let started = started + asked.elapsed();
        let politeness = self.shared.throttle.rates(&host, charged);
        self.waits.during(politeness).await;

        let pause_on_bare_503 = req.pause_on_bare_503;
        let mut url = req.url;
        url.set_fragment(None);
        // Credentials in a URL are never sent (removing them cannot fail for http(s) URLs).
        let _ = url.set_username("");
        let _ = url.set_password(None);
        let url_text = url.to_string();
        let uri: Uri = url_text
            .parse()
            .map_err(|_| invalid("not a valid request URI"))?;
        let mut request = http::Request::new(Full::new(req.body.unwrap_or_default()));
        *request.method_mut() = req.method;
        *request.uri_mut() = uri;
        *request.headers_mut() = self.headers(req.headers);

        let deadline = started + req.timeout + waited();
        let tls = url.scheme() == "https";
        let in_flight = self.reuse.request(&ConnKey::new(&host, port, tls));
        let sent = self.waits.deadline(deadline, self.http.request(request));
        let response = match sent.await {
            None => {
                return Err(FetchError::Timeout {
                    url: url_text,
                    phase: TimeoutPhase::Headers,
                })
            }
            Some(Err(err)) => {
                let err = classify(&err, &url_text);
                // The error can quote what the server sent: logged inert.
                let error = terminal_text(&err.to_string()).into_owned();
                tracing::debug!(host = %host, kind = err.kind(), %error, "fetch failed");
                return Err(err);
            }
            Some(Ok(response)) => response,
        };
        let (parts, body) = response.into_parts();
        if pauses_host(parts.status, &parts.headers, pause_on_bare_503) {
            self.shared
                .throttle
                .slow_down(&host, retry_after(&parts.headers));
        }
        let address = parts
            .extensions
            .get::<PeerInfo>()
            .map(|peer| peer.addr)
            .ok_or_else(|| FetchError::Protocol {
                url: url_text.clone(),
                detail: "response came over a connection without peer information".to_owned(),
            })?;
        let waited = waited();
        let deadline = started + req.timeout + waited;
        Ok(FetchHead {
            status: parts.status,
            headers: parts.headers,
            elapsed: started.elapsed().saturating_sub(waited),
            address,
            http_version: parts.version,
            body: BodyReader::new(body, req.body_cap, deadline, url_text, in_flight),
        })
    }

    /// The headers a request carrying `given` goes out with, in order: `given` less those the
    /// client drops, then `User-Agent` and `Accept-Encoding` (hyper adds `Host` and, for a
    /// body, `Content-Length`). For `mcpcensus check --explain`.
    pub fn outgoing_headers(&self, given: &[(HeaderName, HeaderValue)]) -> HeaderMap {
        self.headers(given.to_vec())
    }

    fn headers(&self, given: Vec<(HeaderName, HeaderValue)>) -> HeaderMap {
        let mut headers = HeaderMap::with_capacity(given.len() + 2);
        for (name, value) in given {
            if DROPPED_HEADERS.contains(&name) {
                tracing::debug!(header = %name, "dropped a header the crawler never sends");
                continue;
            }
            headers.append(name, value);
        }
        headers.insert(USER_AGENT, self.shared.user_agent.clone());
        headers.insert(ACCEPT_ENCODING, HeaderValue::from_static("identity"));
        headers
    }
}

/// The path and query robots.txt rules are matched against.
fn path_and_query(url: &url::Url) -> String {
    match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_owned(),
    }
}

/// Maps a pool error to a fetch error: the connector's own errors come back as they were made.
fn classify(err: &hyper_util::client::legacy::Error, url: &str) -> FetchError {
    let mut hyper_err = None;
    let mut io_err = false;
    let mut detail = String::new();
    let mut next: Option<&(dyn std::error::Error + 'static)> = err.source();
    while let Some(e) = next {
        if let Some(fetch) = e.downcast_ref::<FetchError>() {
            return match fetch {
                FetchError::Timeout { phase, .. } => FetchError::Timeout {
                    url: url.to_owned(),
                    phase: *phase,
                },
                other => other.clone(),
            };
        }
        hyper_err = hyper_err.or(e.downcast_ref::<hyper::Error>());
        io_err |= e.is::<std::io::Error>();
        if !detail.is_empty() {
            detail.push_str(": ");
        }
        detail.push_str(&e.to_string());
        next = e.source();
    }
    if detail.is_empty() {
        detail = err.to_string();
    }
    let url = url.to_owned();
    match hyper_err {
        Some(h) if h.is_timeout() => FetchError::Timeout {
            url,
            phase: TimeoutPhase::Headers,
        },
        Some(h) if h.is_parse() || h.is_parse_status() || h.is_user() => {
            FetchError::Protocol { url, detail }
        }
        Some(h) if h.is_incomplete_message() || h.is_closed() || h.is_canceled() => {
            FetchError::Reset { url, detail }
        }
        _ if io_err => FetchError::Reset { url, detail },
        _ => FetchError::Protocol { url, detail },
    }
}
