//! DNS: hickory's caching resolver behind a concurrency bound, plus static host pins.
//!
//! Names are looked up as absolute names (no search-list expansion) and `/etc/hosts` is not
//! consulted: a measurement must not depend on the crawling machine's local names. Use
//! [`NetOptions::static_hosts`] to pin a name. Answers are not judged here; the guard does that.

use std::collections::HashMap;
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
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

/// A caching resolver shared by every site.
pub struct Resolver {
    dns: TokioResolver,
    static_hosts: HashMap<String, Vec<IpAddr>>,
    permits: Semaphore,
    deadline: Duration,
}

impl fmt::Debug for Resolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resolver")
            .field("static_hosts", &self.static_hosts.len())
            .field("deadline", &self.deadline)
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
        resolver_opts.cache_size = opts.resolver_cache_size;
        resolver_opts.ip_strategy = LookupIpStrategy::Ipv4AndIpv6;
        resolver_opts.use_hosts_file = ResolveHosts::Never;
        resolver_opts.try_tcp_on_error = true;
        resolver_opts.ndots = 0;
        let dns = TokioResolver::builder_with_config(config, TokioRuntimeProvider::default())
            .with_options(resolver_opts)
            .build()
            .map_err(|source| NetError::Resolver { source })?;
        let static_hosts = opts
            .static_hosts
            .iter()
            .map(|(host, addrs)| (normalize(host), addrs.clone()))
            .collect();
        // hickory bounds each query; this outer deadline catches anything it does not.
        let tries = u32::try_from(opts.resolver_attempts.saturating_add(1)).unwrap_or(u32::MAX);
        let deadline = opts
            .resolver_timeout
            .saturating_mul(tries.saturating_mul(2))
            .saturating_add(Duration::from_secs(1));
        Ok(Self {
            dns,
            static_hosts,
            permits: Semaphore::new(opts.resolver_concurrency.get()),
            deadline,
        })
    }

    /// The host's addresses (A then AAAA, deduplicated), from a static pin, an IP literal, the
    /// cache or DNS. Waits for a lookup slot when the concurrency bound is reached.
    pub async fn resolve(&self, host: &str) -> Result<Arc<[IpAddr]>, ResolveError> {
        self.resolve_for(host, &OwnWaits::default()).await
    }

    /// The same, counting the wait for a lookup slot in a site's `waits` (our queue, not the
    /// DNS server's time).
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
        let lookup = tokio::time::timeout(self.deadline, self.dns.lookup_ip(name))
            .await
            .map_err(|_| ResolveError::Timeout)?
            .map_err(|e| classify(&e))?;
        let mut addrs: Vec<IpAddr> = Vec::new();
        for ip in lookup.iter() {
            if !addrs.contains(&ip) {
                addrs.push(ip);
            }
        }
        if addrs.is_empty() {
            return Err(ResolveError::NoAddresses);
        }
        Ok(Arc::from(addrs))
    }
}

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
