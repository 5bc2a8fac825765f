//! The HTTP client: [`Net`] holds what all sites share; [`SiteClient`] is one site's pool.
//!
//! A fetch pins the host (resolve once per site, guard every address), waits for politeness
//! (host pause, host rate, IP rate), then sends on a connection of the site's pool (`pool.rs`),
//! whose connector opens connections only to the pinned addresses: HTTP/1.1 by the crawler's
//! own exchange (`conn.rs`), HTTP/2 (when offered and chosen) by hyper. Redirects are returned,
//! never followed; no compression is asked for; no credentials, cookies or `Origin` are ever
//! sent.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use bytes::Bytes;
use http::header::{
    ACCEPT_ENCODING, AUTHORIZATION, COOKIE, HOST, ORIGIN, PROXY_AUTHORIZATION, USER_AGENT,
};
use http::{HeaderMap, HeaderName, HeaderValue};
use mcpcensus_store::inert::terminal_text;
use tokio::time::Instant;

use super::answer::{header_map, Answer};
use super::body::{BodyReader, Source};
use super::conn::{self, ExchangeError, Home};
use super::connector::Connector;
use super::error::NetError;
use super::fetch::{FetchError, FetchHead, FetchRequest, FetchResponse, TimeoutPhase};
use super::guard::Guard;
use super::h1;
use super::h2::{handshake_h2, send_h2};
use super::local::LocalResource;
use super::options::NetOptions;
use super::pins::Pins;
use super::pool::{ConnKey, Pool};
use super::resolver::{ResolveError, Resolver};
use super::retry_after::{pauses_host, retry_after};
use super::robots::RobotsRules;
use super::robots_cache::RobotsCache;
use super::server_deadline::ServerDeadline;
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
            robots_cache: RobotsCache::default(),
        };
        Ok(Self {
            shared: Arc::new(shared),
        })
    }

    /// A new connection pool for one site; drop it when the site is done.
    pub fn site_client(&self) -> SiteClient {
        self.site_client_counting(Arc::default())
    }

    /// The same, counting its waits on our own queues in `waits`: a ledger shared with the
    /// site's earlier client (its registry lookup's), so one deadline holds both.
    pub fn site_client_counting(&self, waits: Arc<OwnWaits>) -> SiteClient {
        let opts = &self.shared.opts;
        let pins = Arc::new(Pins::new(opts.max_hosts_per_site.get()));
        let connector = Connector::new(self.shared.clone(), pins.clone(), waits.clone());
        let pool = Arc::new(Pool::new(
            opts.pool_idle_timeout,
            opts.pool_max_idle_per_host,
        ));
        SiteClient {
            shared: self.shared.clone(),
            pins,
            connector,
            pool,
            robots: Mutex::new(HashMap::new()),
            waits,
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
    connector: Connector,
    /// The site's idle connections, a host each.
    pool: Arc<Pool>,
    /// Origin → its robots.txt, once read: every later GET there is checked against it.
    robots: Mutex<HashMap<String, Arc<RobotsRules>>>,
    /// Time this site spent in our own queues (DNS slots, politeness, connection slots).
    waits: Arc<OwnWaits>,
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
    /// The robots.txt answers the run has read, by origin (shared by every site).
    pub fn robots_cache(&self) -> &RobotsCache {
        &self.shared.robots_cache
    }

    /// The site's ledger of waits on the crawler's own queues: deadlines that measure the
    /// server move by it.
    pub fn waits(&self) -> &Arc<OwnWaits> {
        &self.waits
    }

    /// From now on, GETs to `origin` follow `rules` (and its Crawl-delay spaces them).
    pub fn set_robots(&self, origin: &url::Url, rules: impl Into<Arc<RobotsRules>>) {
        self.robots_map()
            .insert(super::names::origin_key(origin), rules.into());
    }

    /// True when `url`'s origin has no robots.txt rules set or they allow a GET of it.
    pub fn robots_allow(&self, url: &url::Url) -> bool {
        self.robots_for(url)
            .is_none_or(|r| r.allows(path_and_query(url)))
    }

    fn robots_for(&self, url: &url::Url) -> Option<Arc<RobotsRules>> {
        let robots = self.robots_map();
        if robots.is_empty() {
            return None;
        }
        robots.get(&super::names::origin_key(url)).cloned()
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
            closed_without_notify: head.body.closed_without_notify(),
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
        // Boxed: each layer above (the fetch, the scan's GET, the document's reader) would
        // otherwise hold the request's whole state inline and copy it as it is awaited: KBs
        // moved each request, and as many bytes for each site in flight at every layer.
        let result = Box::pin(self.send(req)).await;
        if let Some(resource) = result.as_ref().err().and_then(FetchError::local_resource) {
            let _ = self.local.set(resource);
        }
        result
    }

    async fn send(&self, req: FetchRequest) -> Result<FetchHead, FetchError> {
        let started = Instant::now();
        // Our own waits (DNS and connection slots, politeness) are not the server's time:
        // the request's timeout and its elapsed time leave them out.
        let deadline = ServerDeadline::after(req.timeout, self.waits.clone());
        let mut url = req.url;
        // Credentials in a URL are never sent, nor quoted (removing them cannot fail for
        // http(s) URLs); nor is a fragment.
        url.set_fragment(None);
        let _ = url.set_username("");
        let _ = url.set_password(None);
        let invalid = |reason| FetchError::InvalidUrl {
            url: url.to_string(),
            reason,
        };
        if !matches!(url.scheme(), "http" | "https") {
            return Err(invalid("scheme is not http or https"));
        }
        // One name per host for every decision below (opt-out, pin, politeness, pauses): a
        // trailing dot names the same host (`victim.example.` is `victim.example`).
        let host = match url.host() {
            Some(url::Host::Domain(d)) => super::names::host_key(d),
            Some(url::Host::Ipv4(ip)) => ip.to_string().into(),
            Some(url::Host::Ipv6(ip)) => ip.to_string().into(),
            None => return Err(invalid("no host")),
        };
        // Checked here, where every request is made, so no path can reach an opted-out host.
        if let Some(listed) = self.shared.opt_out.covering(&host) {
            return Err(FetchError::OptedOut {
                host: host.into_owned(),
                listed: listed.to_owned(),
            });
        }
        let robots = self.robots_for(&url);
        if req.method == http::Method::GET
            && robots
                .as_ref()
                .is_some_and(|r| !r.allows(path_and_query(&url)))
        {
            return Err(FetchError::Disallowed {
                url: url.to_string(),
            });
        }
        let addrs = self
            .pins
            .get_or_pin(&self.shared, &host, &self.waits)
            .await?;
        let port = url.port_or_known_default().unwrap_or(443);
        // The address this origin's connections use once one is open; before that, the one
        // the connector tries first (it charges another address itself if it moves on).
        let charged = match self.pins.used(&host, port) {
            Some(ip) => ip,
            None => addrs.first().copied().ok_or_else(|| FetchError::Resolve {
                host: host.to_string(),
                error: super::resolver::ResolveError::NoAddresses,
            })?,
        };
        // What the host asked for (its 429/503 pause, its Crawl-delay) is the server's time
        // for the site, but not part of this request's own timeout; our rates are neither.
        let asked = Instant::now();
        let gap = robots.and_then(|r| r.crawl_delay());
        self.shared.throttle.asked_by_host(&host, gap).await;
        let paused = asked.elapsed();
        let started = started + paused;
        let deadline = deadline.later_by(paused);
        let politeness = self.shared.throttle.rates(&host, charged);
        self.waits.during(politeness).await;

        let pause_on_bare_503 = req.pause_on_bare_503;
        let url_text = url.as_str();
        let method = req.method;
        let headers = self.headers(req.headers);
        let body = req.body.unwrap_or_default();
        let key = self.pool.key(&host, port, url.scheme() == "https");
        let exchange = self.exchange(&key, &url, url_text, method, headers, body);
        let answer = match deadline.run(exchange).await {
            None => {
                return Err(FetchError::Timeout {
                    url: url.into(),
                    phase: TimeoutPhase::Headers,
                })
            }
            Some(Err(err)) => {
                // The error can quote what the server sent: logged inert.
                let error = terminal_text(&err.to_string()).into_owned();
                tracing::debug!(host = %host, kind = err.kind(), %error, "fetch failed");
                return Err(err);
            }
            Some(Ok(answer)) => answer,
        };
        if pauses_host(answer.status, &answer.headers, pause_on_bare_503) {
            self.shared
                .throttle
                .slow_down(&host, retry_after(&answer.headers));
        }
        Ok(FetchHead {
            status: answer.status,
            headers: answer.headers,
            elapsed: deadline.server_time_since(started),
            address: answer.address,
            http_version: answer.version,
            body: BodyReader::new(answer.body, req.body_cap, deadline.at(), url.into()),
        })
    }

    /// Sends the request on a connection of the site's pool (or a new one) and reads the
    /// answer's head. A reused HTTP/1.1 connection the server had closed meanwhile gets a GET
    /// once more on a new connection, as browsers do; nothing else is sent twice.
    async fn exchange(
        &self,
        key: &ConnKey,
        url: &url::Url,
        url_text: &str,
        method: http::Method,
        headers: Vec<(HeaderName, HeaderValue)>,
        body: Bytes,
    ) -> Result<Answer, FetchError> {
        let origin = || format!("{}://{}", url.scheme(), url.host_str().unwrap_or_default());
        // Connecting, HTTP/2 and the lookup below are boxed: a site's future is as large as
        // its largest wait, and it waits on an answer far longer than on a handshake.
        if let Some(h2) = self.pool.h2(key) {
            return Box::pin(send_h2(h2, url_text, method, headers, body)).await;
        }
        let wire = h1::encode_request(&method, url, &headers, &body);
        let mut retried = false;
        loop {
            let (io, reused) = match self.pool.take_h1(key) {
                Some(io) => (io, true),
                None => {
                    self.pool.close_others(key);
                    let io = Box::pin(self.connector.connect(key, &origin())).await?;
                    (io, false)
                }
            };
            if io.is_h2() {
                let h2 = Box::pin(handshake_h2(io, url_text)).await?;
                self.pool.put_h2(key.clone(), h2.clone());
                return Box::pin(send_h2(h2, url_text, method, headers, body)).await;
            }
            let address = io.peer().addr;
            let home = Home {
                pool: self.pool.clone(),
                key: key.clone(),
            };
            match conn::exchange(io, &wire, &method, home).await {
                Ok((head, body)) => {
                    return Ok(Answer {
                        status: head.status,
                        headers: head.headers,
                        version: head.version,
                        address,
                        body: Source::H1(body),
                    })
                }
                Err(err)
                    if reused && !retried && err.unanswered() && method == http::Method::GET =>
                {
                    retried = true;
                    tracing::debug!(host = %key.host, "a reused connection had closed: once more");
                }
                Err(ExchangeError::Wire(wire)) => {
                    tracing::debug!(host = %key.host, wire = wire.name(), "broken HTTP/1.1");
                    return Err(FetchError::Protocol {
                        url: url_text.to_owned(),
                        detail: wire.to_string(),
                    });
                }
                Err(err) => {
                    return Err(FetchError::Reset {
                        url: url_text.to_owned(),
                        detail: err.to_string(),
                    })
                }
            }
        }
    }

    /// The headers a request carrying `given` goes out with, in order: `given` less those the
    /// client drops, then `User-Agent` and `Accept-Encoding` (the client adds `Host` and, for a
    /// body, `Content-Length`). For `mcpcensus check --explain`.
    pub fn outgoing_headers(&self, given: &[(HeaderName, HeaderValue)]) -> HeaderMap {
        header_map(self.headers(given.to_vec()))
    }

    /// In a list, not a map: HTTP/1.1 writes them in turn (only HTTP/2 needs the map).
    fn headers(&self, mut given: Vec<(HeaderName, HeaderValue)>) -> Vec<(HeaderName, HeaderValue)> {
        given.retain(|(name, _)| {
            let dropped = DROPPED_HEADERS.contains(name);
            if dropped {
                tracing::debug!(header = %name, "dropped a header the crawler never sends");
            }
            !dropped
        });
        given.push((USER_AGENT, self.shared.user_agent.clone()));
        given.push((ACCEPT_ENCODING, HeaderValue::from_static("identity")));
        given
    }
}

/// The path and query robots.txt rules are matched against (`/path?query`).
fn path_and_query(url: &url::Url) -> &str {
    &url[url::Position::BeforePath..url::Position::AfterQuery]
}
