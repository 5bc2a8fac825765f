//! DNS: hickory's caching resolver behind a concurrency bound, plus static host pins.
//!
//! Names are looked up as absolute names (no search-list expansion) and `/etc/hosts` is not
//! consulted: a measurement must not depend on the crawling machine's local names. Use
//! [`NetOptions::static_hosts`] to pin a name. Answers are not judged here; the guard does that.
//!
//! A lookup that outlives hickory's own bounds (its per-query timeout and retries) has stalled
//! in the resolver, not at the name server: the time past those bounds is the crawler's own
//! wait, and a lookup that reaches the stall deadline is asked again once, on a resolver
//! built afresh, before "no answer in time" becomes the site's verdict. Lookups are spread by
//! name over a few resolvers ([`NetOptions::resolver_shards`]), so the queue on any one
//! resolver's connection lock stays short.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use hickory_resolver::config::{
    LookupIpStrategy, NameServerConfig, ResolveHosts, ResolverConfig, ResolverOpts,
};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::net::{DnsError, NetError as HickoryError};
use hickory_resolver::proto::op::ResponseCode;
use hickory_resolver::proto::rr::Name;
use hickory_resolver::TokioResolver;
use tokio::sync::Semaphore;

use super::dns_silence::{DnsSilence, Heard};
use super::error::NetError;
use super::local::LocalResource;
use super::options::NetOptions;
use super::waits::OwnWaits;

/// Why a name did not resolve to addresses (an expected outcome, not a fault of ours).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolveError {
    /// The name does not exist.
    NxDomain,
    /// The DNS server failed (SERVFAIL).
    ServFail,
    /// No answer in time.
    Timeout,
    /// The name exists but has no A or AAAA records.
    NoAddresses,
    /// This machine ran out of something (never the name's doing).
    Local(LocalResource),
    /// Anything else (refused, malformed name, transport failure).
    Other(String),
}

impl ResolveError {
    /// The record's typed kind: `dns`, or `local_resource` when this machine ran out.
    pub fn failure_kind(&self) -> mcpcensus_store::FailureKind {
        match self {
            Self::Local(_) => mcpcensus_store::FailureKind::LocalResource,
            _ => mcpcensus_store::FailureKind::Dns,
        }
    }

    /// A failure that may pass (a name server's failure or silence), worth a second look;
    /// a name that does not exist or has no address is the name's answer.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::ServFail | Self::Timeout)
    }

    /// A short stable name, fit for a metric label.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::NxDomain => "nxdomain",
            Self::ServFail => "servfail",
            Self::Timeout => "timeout",
            Self::NoAddresses => "no_addresses",
            Self::Local(_) => "local",
            Self::Other(_) => "other",
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NxDomain => f.write_str("no such domain (NXDOMAIN)"),
            Self::ServFail => f.write_str("DNS server failure (SERVFAIL)"),
            Self::Timeout => f.write_str("DNS timeout"),
            Self::NoAddresses => f.write_str("no A or AAAA records"),
            Self::Local(resource) => resource.fmt(f),
            Self::Other(detail) => write!(f, "DNS error: {detail}"),
        }
    }
}

/// One lookup's answer: the addresses as the name server gave them (A then AAAA).
pub(crate) type LookupFuture =
    Pin<Box<dyn Future<Output = Result<Vec<IpAddr>, ResolveError>> + Send>>;

/// Where lookups go: hickory in a crawl; tests put a stand-in here.
pub(crate) trait Lookups: Send + Sync {
    /// Looks up the A and AAAA records of an absolute name.
    fn lookup(&self, name: Name) -> LookupFuture;
}

/// Builds a fresh [`Lookups`] (its own sockets, connections and cache).
pub(crate) type LookupsFactory = Box<dyn Fn() -> Result<Arc<dyn Lookups>, NetError> + Send + Sync>;

impl Lookups for TokioResolver {
    fn lookup(&self, name: Name) -> LookupFuture {
        let dns = self.clone();
        Box::pin(async move {
            let lookup = dns.lookup_ip(name).await.map_err(|e| classify(&e))?;
            Ok(lookup.iter().collect())
        })
    }
}

/// One shard: the resolver in use and its generation.
type Shard = Mutex<(u64, Arc<dyn Lookups>)>;

/// A caching resolver shared by every site.
pub struct Resolver {
    factory: LookupsFactory,
    /// Per shard, the resolver in use and its generation (bumped each time one is built
    /// afresh). A name always goes to the same shard, so its cached answer is found again.
    shards: Box<[Shard]>,
    static_hosts: HashMap<String, Vec<IpAddr>>,
    permits: Semaphore,
    /// hickory's own bound on a lookup: its per-query timeout times its tries, and a second
    /// of slack for a busy machine. Past it, the time is the resolver's, not the server's.
    budget: Duration,
    /// Past this the lookup has stalled: room for a CNAME the cache chases with another query.
    deadline: Duration,
    stalls: AtomicU64,
    silence: DnsSilence,
}

/// How one try of a lookup ended.
enum Try {
    Done(Result<Vec<IpAddr>, ResolveError>),
    Stalled,
}

impl fmt::Debug for Resolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resolver")
            .field("static_hosts", &self.static_hosts.len())
            .field("shards", &self.shards.len())
            .field("budget", &self.budget)
            .field("deadline", &self.deadline)
            .field("stalls", &self.stalls())
            .finish_non_exhaustive()
    }
}

impl Resolver {
    /// Builds the resolver: the given nameservers (UDP, falling back to TCP), or the system's.
    pub fn new(opts: &NetOptions) -> Result<Self, NetError> {
        let (config, mut resolver_opts) = if opts.nameservers.is_empty() {
            hickory_resolver::system_conf::read_system_conf()
                .map_err(|source| NetError::SystemDns { source })?
        } else {
            let servers = opts
                .nameservers
                .iter()
                .map(|addr| nameserver(*addr))
                .collect();
            (
                ResolverConfig::from_name_servers(servers),
                ResolverOpts::default(),
            )
        };
        resolver_opts.timeout = opts.resolver_timeout;
        resolver_opts.attempts = opts.resolver_attempts;
        // Each shard caches its own names.
        resolver_opts.cache_size =
            (opts.resolver_cache_size / opts.resolver_shards.get() as u64).max(1);
        resolver_opts.ip_strategy = LookupIpStrategy::Ipv4AndIpv6;
        resolver_opts.use_hosts_file = ResolveHosts::Never;
        resolver_opts.try_tcp_on_error = true;
        resolver_opts.ndots = 0;
        resolver_opts.num_concurrent_reqs = super::options::DNS_SERVERS_AT_ONCE;
        let factory: LookupsFactory = Box::new(move || {
            let dns =
                TokioResolver::builder_with_config(config.clone(), TokioRuntimeProvider::default())
                    .with_options(resolver_opts.clone())
                    .build()
                    .map_err(|source| NetError::Resolver { source })?;
            Ok(Arc::new(dns) as Arc<dyn Lookups>)
        });
        Self::with_lookups(opts, factory)
    }

    /// The same over lookups built by `factory` (tests give a stand-in), one per shard.
    pub(crate) fn with_lookups(
        opts: &NetOptions,
        factory: LookupsFactory,
    ) -> Result<Self, NetError> {
        let shards = (0..opts.resolver_shards.get())
            .map(|_| Ok(Mutex::new((0, factory()?))))
            .collect::<Result<Box<[_]>, NetError>>()?;
        let static_hosts = opts
            .static_hosts
            .iter()
            .map(|(host, addrs)| (normalize(host), addrs.clone()))
            .collect();
        let tries = u32::try_from(opts.resolver_attempts.saturating_add(1)).unwrap_or(u32::MAX);
        let own_bound = opts.resolver_timeout.saturating_mul(tries);
        Ok(Self {
            factory,
            shards,
            static_hosts,
            permits: Semaphore::new(opts.resolver_concurrency.get()),
            budget: own_bound.saturating_add(STALL_SLACK),
            deadline: own_bound.saturating_mul(2).saturating_add(STALL_SLACK),
            stalls: AtomicU64::new(0),
            silence: DnsSilence::default(),
        })
    }

    /// Lookups that stalled in the resolver and were asked again on a fresh one.
    pub fn stalls(&self) -> u64 {
        self.stalls.load(Ordering::Relaxed)
    }

    /// The host's addresses (A then AAAA, deduplicated), from a static pin, an IP literal, the
    /// cache or DNS. Waits for a lookup slot when the concurrency bound is reached.
    pub async fn resolve(&self, host: &str) -> Result<Arc<[IpAddr]>, ResolveError> {
        self.resolve_for(host, &OwnWaits::default()).await
    }

    /// The same, counting the wait for a lookup slot in a site's `waits` (our queue, not the
    /// DNS server's time), and the time a lookup spends stalled in the resolver.
    pub async fn resolve_for(
        &self,
        host: &str,
        waits: &OwnWaits,
    ) -> Result<Arc<[IpAddr]>, ResolveError> {
        let host = normalize(host);
        if let Ok(ip) = host.parse::<IpAddr>() {
            return Ok(Arc::from([ip]));
        }
        if let Some(addrs) = self.static_hosts.get(&host) {
            return Ok(Arc::from(addrs.as_slice()));
        }
        let mut name =
            Name::from_ascii(&host).map_err(|e| ResolveError::Other(format!("bad name: {e}")))?;
        name.set_fqdn(true);
        let _permit = waits
            .during(self.permits.acquire())
            .await
            .map_err(|_| ResolveError::Other("resolver shut down".to_owned()))?;
        let shard = &self.shards[shard_of(&host, self.shards.len())];
        let (generation, lookups) = in_use(shard);
        let found = match self.try_once(lookups.as_ref(), name.clone(), waits).await {
            Try::Done(found) => found,
            Try::Stalled => {
                self.stalls.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(
                    host = %host,
                    after = ?self.deadline,
                    "a DNS lookup stalled in the resolver; asking again on a fresh one"
                );
                // The whole second try is the crawler's doing, not the server's time.
                let _own = waits.begin();
                let fresh = self.renew(shard, generation);
                match self.try_once(fresh.as_ref(), name, waits).await {
                    Try::Done(found) => found,
                    // A fresh resolver stalled on it too: the name's doing after all.
                    Try::Stalled => Err(ResolveError::Timeout),
                }
            }
        };
        self.silence.observe(match &found {
            Err(ResolveError::Timeout) => Heard::Nothing,
            Err(ResolveError::Local(_)) => Heard::Unknown,
            _ => Heard::Answer,
        });
        let mut addrs: Vec<IpAddr> = Vec::new();
        for ip in found? {
            if !addrs.contains(&ip) {
                addrs.push(ip);
            }
        }
        if addrs.is_empty() {
            return Err(ResolveError::NoAddresses);
        }
        Ok(Arc::from(addrs))
    }

    /// One try on `lookups`: its answer, or `Stalled` at the stall deadline. Time past
    /// hickory's own bound is counted in `waits`.
    async fn try_once(&self, lookups: &dyn Lookups, name: Name, waits: &OwnWaits) -> Try {
        let lookup = lookups.lookup(name);
        tokio::pin!(lookup);
        tokio::select! {
            biased;
            found = &mut lookup => return Try::Done(found),
            () = tokio::time::sleep(self.budget) => {}
        }
        let _own = waits.begin();
        match tokio::time::timeout(self.deadline.saturating_sub(self.budget), lookup).await {
            Ok(found) => Try::Done(found),
            Err(_) => Try::Stalled,
        }
    }

    /// A resolver built afresh for `shard` in place of generation `stalled`, or the one
    /// already built in its place (lookups that stalled together renew it once). Lookups in
    /// flight on the old one finish there. Building one fails only on this machine's doing,
    /// never the name's: the one in use is asked again instead, not a verdict made of it.
    fn renew(&self, shard: &Shard, stalled: u64) -> Arc<dyn Lookups> {
        let mut current = shard.lock().unwrap_or_else(PoisonError::into_inner);
        if current.0 == stalled {
            match (self.factory)() {
                Ok(fresh) => *current = (stalled + 1, fresh),
                Err(error) => {
                    tracing::warn!(%error, "could not build a fresh resolver; asking the one in use");
                }
            }
        }
        current.1.clone()
    }
}

fn in_use(shard: &Shard) -> (u64, Arc<dyn Lookups>) {
    let current = shard.lock().unwrap_or_else(PoisonError::into_inner);
    (current.0, current.1.clone())
}

/// The shard a (normalized) name goes to: the same one every time.
fn shard_of(host: &str, shards: usize) -> usize {
    let hash = xxhash_rust::xxh3::xxh3_64(host.as_bytes());
    usize::try_from(hash % shards as u64).unwrap_or(0)
}

/// Slack over hickory's own bound before a lookup counts as stalled: a busy machine's late
/// wake-ups.
const STALL_SLACK: Duration = Duration::from_secs(1);

fn nameserver(addr: SocketAddr) -> NameServerConfig {
    let mut config = NameServerConfig::udp_and_tcp(addr.ip());
    for connection in &mut config.connections {
        connection.port = addr.port();
    }
    config
}

/// Lower case, without brackets around IPv6 literals or a trailing dot.
fn normalize(host: &str) -> String {
    let host = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase()
}

pub(super) fn classify(err: &HickoryError) -> ResolveError {
    if err.is_nx_domain() {
        return ResolveError::NxDomain;
    }
    if err.is_no_records_found() {
        return ResolveError::NoAddresses;
    }
    match err {
        HickoryError::Timeout => ResolveError::Timeout,
        HickoryError::Dns(DnsError::ResponseCode(ResponseCode::ServFail)) => ResolveError::ServFail,
        HickoryError::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => ResolveError::Timeout,
        HickoryError::Io(io) => LocalResource::from_io(io)
            .map_or_else(|| ResolveError::Other(err.to_string()), ResolveError::Local),
        HickoryError::NoConnections => ResolveError::Local(LocalResource::DnsSockets),
        other => ResolveError::Other(other.to_string()),
    }
}
