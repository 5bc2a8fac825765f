//! Settings for the network core, with every default a named constant.
//!
//! The config layer fills a [`NetOptions`]; [`NetOptions::validate`] is pure and runs before
//! anything does I/O (it is also called by [`crate::net::Net::new`]).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::{NonZeroU32, NonZeroUsize};
use std::path::PathBuf;
use std::time::Duration;

use http::HeaderValue;
use ipnet::IpNet;

use super::error::NetError;

/// The User-Agent sent with every request: names the crawler, its version and a contact URL.
pub const DEFAULT_USER_AGENT: &str = concat!(
    "mcpcensus/",
    env!("CARGO_PKG_VERSION"),
    " (+https://github.com/mcpcensus/mcpcensus/blob/main/docs/bot.md)"
);
/// Time allowed to open a TCP connection (across all of a host's addresses).
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Time allowed for the TLS handshake once TCP is up.
pub const DEFAULT_TLS_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Requests per second to one host.
pub const DEFAULT_PER_HOST_RPS: f64 = 2.0;
/// Requests one host may receive back to back before the rate applies.
pub const DEFAULT_PER_HOST_BURST: NonZeroU32 = NonZeroU32::new(4).expect("non-zero");
/// Requests per second to one IP address (shared hosting: many hosts, one address).
pub const DEFAULT_PER_IP_RPS: f64 = 20.0;
/// Requests one IP address may receive back to back before the rate applies.
pub const DEFAULT_PER_IP_BURST: NonZeroU32 = NonZeroU32::new(20).expect("non-zero");
/// Concurrent connections to one IP address.
pub const DEFAULT_PER_IP_CONNECTIONS: NonZeroUsize = NonZeroUsize::new(8).expect("non-zero");
/// Most random delay added to a rate-limit wait, so the waiters for one limiter do not all
/// try at once (they still wake on the wait grid's points, spread over several).
pub const DEFAULT_THROTTLE_JITTER: Duration = Duration::from_millis(50);
/// Rate-limit waits end on a grid of this step (counted from the throttle's start; at most an
/// eighth of the limiter's spacing), so the requests whose turns fall within one step go out
/// on one wake-up of the runtime rather than one wake-up each: on a crawl paced by the
/// per-host rate, the wake-ups cost a third of the crawler's CPU (BENCHMARKS.md, "Paced
/// requests wake together"). A wait only ever grows, by less than one step; a rate with a
/// burst above one loses nothing, its late turns fall within the burst's tolerance.
pub const DEFAULT_THROTTLE_TICK: Duration = Duration::from_millis(50);
/// How long a host is left alone after a 429/503 that carries no usable Retry-After.
pub const DEFAULT_SLOW_DOWN: Duration = Duration::from_secs(5);
/// Longest pause a host's Retry-After can impose.
pub const DEFAULT_SLOW_DOWN_MAX: Duration = Duration::from_secs(60);
/// How often idle limiter state is evicted.
pub const DEFAULT_THROTTLE_SWEEP_INTERVAL: Duration = Duration::from_secs(10);
/// Time allowed for one DNS query to one server (hickory retries per `resolver_attempts`).
pub const DEFAULT_RESOLVER_TIMEOUT: Duration = Duration::from_secs(3);
/// Retries of a failed DNS query.
pub const DEFAULT_RESOLVER_ATTEMPTS: usize = 2;
/// DNS lookups in flight at once.
pub const DEFAULT_RESOLVER_CONCURRENCY: NonZeroUsize = NonZeroUsize::new(256).expect("non-zero");
/// Name servers one query is sent to at once (hickory's default, set explicitly: the
/// open-files planner counts the sockets a lookup holds by it).
pub const DNS_SERVERS_AT_ONCE: usize = 2;
/// DNS responses kept in the cache (positive and negative, each for its TTL).
pub const DEFAULT_RESOLVER_CACHE_SIZE: u64 = 65_536;
/// hickory resolvers the lookups are spread over, by name (each with an eighth of the cache).
/// One resolver takes an async lock on its connection list for every query, and on a busy
/// runtime that lock's waiters are woken one at a time, each after its turn on the runtime:
/// with 256 lookups in flight on one resolver the queue there reached 19 s (BENCHMARKS.md).
pub const DEFAULT_RESOLVER_SHARDS: NonZeroUsize = NonZeroUsize::new(8).expect("non-zero");
/// How long an idle pooled connection is kept for the site's next request.
pub const DEFAULT_POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(5);
/// Idle connections kept per origin in a site's pool (each holds a per-IP connection slot).
pub const DEFAULT_POOL_MAX_IDLE_PER_HOST: usize = 1;
/// Addresses of one host tried before a connection attempt gives up.
pub const DEFAULT_MAX_ADDRESSES_PER_HOST: NonZeroUsize = NonZeroUsize::new(4).expect("non-zero");
/// Whether connections offer HTTP/2 (ALPN `h2` before `http/1.1`). Off: a site's requests go
/// one after another anyway, and an HTTP/1.1 connection costs less memory and CPU.
pub const DEFAULT_OFFER_HTTP2: bool = false;
/// Distinct hosts one site client will pin (a site touches a handful).
pub const DEFAULT_MAX_HOSTS_PER_SITE: NonZeroUsize = NonZeroUsize::new(16).expect("non-zero");

/// Largest rate accepted for any limiter (one request per nanosecond is already absurd).
const MAX_RPS: f64 = 1_000_000.0;

/// Everything the network core needs, filled by the config layer.
#[derive(Debug, Clone)]
pub struct NetOptions {
    /// Time allowed to open a TCP connection to a host (all its addresses together).
    pub connect_timeout: Duration,
    /// Time allowed for the TLS handshake.
    pub tls_handshake_timeout: Duration,
    /// Requests per second to one host.
    pub per_host_rps: f64,
    /// Burst allowed to one host.
    pub per_host_burst: NonZeroU32,
    /// Requests per second to one IP address.
    pub per_ip_rps: f64,
    /// Burst allowed to one IP address.
    pub per_ip_burst: NonZeroU32,
    /// Concurrent connections to one IP address.
    pub per_ip_connections: NonZeroUsize,
    /// Most random delay added to a rate-limit wait.
    pub throttle_jitter: Duration,
    /// Step of the grid rate-limit waits end on (zero: no grid).
    pub throttle_tick: Duration,
    /// Pause for a host after a 429/503 without a usable Retry-After.
    pub slow_down: Duration,
    /// Cap on the pause a Retry-After can impose.
    pub slow_down_max: Duration,
    /// How often idle limiter state is evicted.
    pub throttle_sweep_interval: Duration,
    /// DNS servers to ask (UDP with TCP fallback); empty means the system configuration.
    pub nameservers: Vec<SocketAddr>,
    /// Time allowed for one DNS query.
    pub resolver_timeout: Duration,
    /// Retries of a failed DNS query.
    pub resolver_attempts: usize,
    /// DNS lookups in flight at once.
    pub resolver_concurrency: NonZeroUsize,
    /// DNS responses cached (over all shards).
    pub resolver_cache_size: u64,
    /// hickory resolvers the lookups are spread over, by name.
    pub resolver_shards: NonZeroUsize,
    /// Fixed host → addresses answers that bypass DNS (`--resolve`-style pinning and tests).
    /// The addresses still pass through the guard.
    pub static_hosts: HashMap<String, Vec<IpAddr>>,
    /// Ranges the guard lets through although they are not public (e.g. 127.0.0.0/8 in tests).
    pub allow_nets: Vec<IpNet>,
    /// Ranges never connected to, whatever the allow list says (the operator's IP-range
    /// opt-outs, like ZMap's blocklist).
    pub exclude_nets: Vec<IpNet>,
    /// PEM files whose certificates are trusted besides the webpki roots.
    pub ca_files: Vec<PathBuf>,
    /// The User-Agent header sent with every request (the contact is added to it).
    pub user_agent: String,
    /// The operator's contact (a URL or a mail address), named in the User-Agent.
    pub contact: Option<String>,
    /// How long an idle pooled connection is kept.
    pub pool_idle_timeout: Duration,
    /// Idle connections kept per origin in a site's pool.
    pub pool_max_idle_per_host: usize,
    /// Addresses of one host tried per connection attempt.
    pub max_addresses_per_host: NonZeroUsize,
    /// Distinct hosts one site client will pin.
    pub max_hosts_per_site: NonZeroUsize,
    /// Offer HTTP/2 in the TLS handshake (else HTTP/1.1 only).
    pub offer_http2: bool,
}

impl Default for NetOptions {
    fn default() -> Self {
        Self {
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            tls_handshake_timeout: DEFAULT_TLS_HANDSHAKE_TIMEOUT,
            per_host_rps: DEFAULT_PER_HOST_RPS,
            per_host_burst: DEFAULT_PER_HOST_BURST,
            per_ip_rps: DEFAULT_PER_IP_RPS,
            per_ip_burst: DEFAULT_PER_IP_BURST,
            per_ip_connections: DEFAULT_PER_IP_CONNECTIONS,
            throttle_jitter: DEFAULT_THROTTLE_JITTER,
            throttle_tick: DEFAULT_THROTTLE_TICK,
            slow_down: DEFAULT_SLOW_DOWN,
            slow_down_max: DEFAULT_SLOW_DOWN_MAX,
            throttle_sweep_interval: DEFAULT_THROTTLE_SWEEP_INTERVAL,
            nameservers: Vec::new(),
            resolver_timeout: DEFAULT_RESOLVER_TIMEOUT,
            resolver_attempts: DEFAULT_RESOLVER_ATTEMPTS,
            resolver_concurrency: DEFAULT_RESOLVER_CONCURRENCY,
            resolver_cache_size: DEFAULT_RESOLVER_CACHE_SIZE,
            resolver_shards: DEFAULT_RESOLVER_SHARDS,
            static_hosts: HashMap::new(),
            allow_nets: Vec::new(),
            exclude_nets: Vec::new(),
            ca_files: Vec::new(),
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            contact: None,
            pool_idle_timeout: DEFAULT_POOL_IDLE_TIMEOUT,
            pool_max_idle_per_host: DEFAULT_POOL_MAX_IDLE_PER_HOST,
            max_addresses_per_host: DEFAULT_MAX_ADDRESSES_PER_HOST,
            max_hosts_per_site: DEFAULT_MAX_HOSTS_PER_SITE,
            offer_http2: DEFAULT_OFFER_HTTP2,
        }
    }
}

impl NetOptions {
    /// Checks every setting without doing any I/O.
    pub fn validate(&self) -> Result<(), NetError> {
        nonzero("connect_timeout", self.connect_timeout)?;
        nonzero("tls_handshake_timeout", self.tls_handshake_timeout)?;
        nonzero("resolver_timeout", self.resolver_timeout)?;
        nonzero("throttle_sweep_interval", self.throttle_sweep_interval)?;
        nonzero("pool_idle_timeout", self.pool_idle_timeout)?;
        rate("per_host_rps", self.per_host_rps)?;
        rate("per_ip_rps", self.per_ip_rps)?;
        if self.per_ip_connections.get() > tokio::sync::Semaphore::MAX_PERMITS {
            return Err(invalid("per_ip_connections", "too large"));
        }
        if self.slow_down > self.slow_down_max {
            return Err(invalid("slow_down", "exceeds slow_down_max"));
        }
        if self.resolver_cache_size == 0 {
            return Err(invalid("resolver_cache_size", "must be positive"));
        }
        if let Some(ns) = self.nameservers.iter().find(|ns| ns.port() == 0) {
            return Err(invalid("nameservers", format!("{ns}: port 0")));
        }
        for (host, addrs) in &self.static_hosts {
            if host.is_empty() || host.contains(|c: char| c.is_whitespace() || c == '/') {
                return Err(invalid("static_hosts", format!("bad host name {host:?}")));
            }
            if addrs.is_empty() {
                return Err(invalid("static_hosts", format!("{host}: no addresses")));
            }
        }
        if self.user_agent.trim().is_empty() {
            return Err(invalid("user_agent", "empty"));
        }
        if let Some(contact) = &self.contact {
            check_contact(contact).map_err(|reason| invalid("contact", reason))?;
        }
        if HeaderValue::from_str(&self.full_user_agent()).is_err() {
            return Err(invalid("user_agent", "not a valid header value"));
        }
        Ok(())
    }

    /// The User-Agent as sent: the configured one with the operator's contact inside its
    /// comment, e.g. `mcpcensus/0.1.0 (+https://…/bot.md; contact: ops@example.org)`.
    pub fn full_user_agent(&self) -> String {
        let base = self.user_agent.trim();
        match &self.contact {
            None => base.to_owned(),
            Some(contact) => match base.strip_suffix(')') {
                Some(open) => format!("{open}; contact: {contact})"),
                None => format!("{base} (contact: {contact})"),
            },
        }
    }
}

/// A contact is an http(s) URL or a mail address, without spaces or parentheses (it goes
/// inside the User-Agent's comment).
pub fn check_contact(contact: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("{contact:?}: {why}"));
    if contact.is_empty() || !contact.is_ascii() {
        return bad("must be non-empty ASCII");
    }
    if contact
        .contains(|c: char| c.is_ascii_whitespace() || c.is_ascii_control() || "()".contains(c))
    {
        return bad("must not contain spaces, control characters or parentheses");
    }
    let mail = contact.strip_prefix("mailto:").unwrap_or(contact);
    let is_url = url::Url::parse(contact)
        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some());
    let is_mail = mail
        .split_once('@')
        .is_some_and(|(user, domain)| !user.is_empty() && domain.contains('.'));
    if is_url || is_mail {
        Ok(())
    } else {
        bad("is neither an http(s) URL nor a mail address")
    }
}

fn invalid(field: &'static str, reason: impl Into<String>) -> NetError {
    NetError::InvalidOption {
        field,
        reason: reason.into(),
    }
}

fn nonzero(field: &'static str, value: Duration) -> Result<(), NetError> {
    if value.is_zero() {
        return Err(invalid(field, "must be positive"));
    }
    Ok(())
}

fn rate(field: &'static str, value: f64) -> Result<(), NetError> {
    if !value.is_finite() || value <= 0.0 || value > MAX_RPS {
        return Err(invalid(
            field,
            format!("{value} is not a rate in (0, {MAX_RPS}]"),
        ));
    }
    Ok(())
}
