//! [`SimWeb`]: the running simulated web, and its builder.

use std::collections::BTreeSet;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rustls_pki_types::CertificateDer;
use tokio::runtime::Handle;
use tokio_rustls::TlsAcceptor;

use crate::ca::TestCa;
use crate::certs::{server_config, SniResolver};
use crate::config::Config;
use crate::dns::{DnsRule, DnsServer};
use crate::record::{ConnStats, RecordedRequest, Recorder};
use crate::registry::Registry;
use crate::server::{accept_loop, bind, bind_common, Shared};
use crate::site::{normalize_host, Site};
use crate::Error;

/// How often [`SimWeb::wait_for_requests`] looks.
const WAIT_POLL: Duration = Duration::from_millis(10);

/// Builds a [`SimWeb`]: sites, DNS rules and settings, then [`SimWebBuilder::start`].
#[derive(Debug, Default)]
pub struct SimWebBuilder {
    sites: Vec<Site>,
    dns_rules: Vec<DnsRule>,
    extra_ips: BTreeSet<IpAddr>,
    config: Config,
}

impl SimWebBuilder {
    /// Adds a site.
    pub fn site(mut self, site: Site) -> Self {
        self.sites.push(site);
        self
    }

    /// Adds many sites.
    pub fn sites(mut self, sites: impl IntoIterator<Item = Site>) -> Self {
        self.sites.extend(sites);
        self
    }

    /// Adds a DNS rule (it wins over a site of the same name).
    pub fn dns(mut self, rule: DnsRule) -> Self {
        self.dns_rules.push(rule);
        self
    }

    /// Also listens on `ip` (a loopback address) even if no site uses it yet.
    /// Adds several DNS rules.
    pub fn dns_rules(mut self, rules: impl IntoIterator<Item = DnsRule>) -> Self {
        for rule in rules {
            self = self.dns(rule);
        }
        self
    }

    pub fn listen_on(mut self, ip: impl Into<IpAddr>) -> Self {
        self.extra_ips.insert(ip.into());
        self
    }

    /// Default TTL of DNS answers.
    pub fn dns_ttl(mut self, seconds: u32) -> Self {
        self.config.dns_ttl_secs = seconds;
        self
    }

    /// Time for a connection's first byte and TLS handshake.
    pub fn handshake_timeout(mut self, timeout: Duration) -> Self {
        self.config.handshake_timeout = timeout;
        self
    }

    /// Connections served at once.
    pub fn max_connections(mut self, n: usize) -> Self {
        self.config.max_connections = n.max(1);
        self
    }

    /// Replaces all settings.
    pub fn config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }

    /// Generates the CA, binds the listeners and the DNS server, and starts serving.
    /// Must be called inside a tokio runtime.
    pub async fn start(self) -> Result<SimWeb, Error> {
        let handle = Handle::try_current().map_err(|_| Error::NoRuntime)?;
        let registry = Arc::new(Registry::default());
        let mut ips: BTreeSet<IpAddr> = self.extra_ips;
        ips.insert(IpAddr::V4(Ipv4Addr::LOCALHOST));
        for ip in &ips {
            check_loopback(*ip)?;
        }
        for site in &self.sites {
            site.validate()?;
            ips.extend(site_ips(site));
        }
        for site in self.sites {
            registry.insert_site(site);
        }
        for rule in self.dns_rules {
            registry.insert_dns(rule);
        }

        let ca = Arc::new(TestCa::generate()?);
        let resolver = Arc::new(SniResolver::new(Arc::clone(&ca), Arc::clone(&registry))?);
        let tls = TlsAcceptor::from(server_config(resolver)?);
        let started = Instant::now();
        let recorder = Recorder::new(started, self.config.record);
        let shared = Arc::new(Shared::new(
            Arc::clone(&registry),
            recorder,
            self.config.clone(),
            tls,
        ));

        let dns = Arc::new(DnsServer::new(
            Arc::clone(&registry),
            self.config.dns_ttl_secs,
        ));
        let dns_addr = if self.config.dns {
            Some(dns.start(&shared.cancel, &shared.tracker)?)
        } else {
            None
        };

        let (port, listeners) = bind_common(&ips, self.config.listen_backlog)?;
        let mut bound = BTreeSet::new();
        for (ip, listener) in listeners {
            bound.insert(ip);
            shared
                .tracker
                .spawn(accept_loop(Arc::clone(&shared), listener));
        }
        tracing::debug!(
            port,
            ?dns_addr,
            sites = registry.site_count(),
            "simweb started"
        );
        Ok(SimWeb {
            shared,
            ca,
            dns,
            dns_addr,
            port,
            bound: Mutex::new(bound),
            handle,
        })
    }
}

/// The running simulated web. Dropping it stops every task (connections get the shutdown
/// grace period); [`SimWeb::shutdown`] also waits for them.
pub struct SimWeb {
    shared: Arc<Shared>,
    ca: Arc<TestCa>,
    dns: Arc<DnsServer>,
    dns_addr: Option<SocketAddr>,
    port: u16,
    bound: Mutex<BTreeSet<IpAddr>>,
    handle: Handle,
}

impl std::fmt::Debug for SimWeb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimWeb")
            .field("port", &self.port)
            .field("dns_addr", &self.dns_addr)
            .field("sites", &self.shared.registry.site_count())
            .finish_non_exhaustive()
    }
}

impl SimWeb {
    /// A builder with default settings.
    pub fn builder() -> SimWebBuilder {
        SimWebBuilder::default()
    }

    /// The port every site listens on, on every address.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The DNS server's address (UDP and TCP). With DNS turned off in the config, an address
    /// where nothing answers (127.0.0.1:1).
    pub fn dns_addr(&self) -> SocketAddr {
        self.dns_addr
            .unwrap_or_else(|| SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 1))
    }

    /// The test CA in PEM form, for `--ca-file`.
    pub fn ca_pem(&self) -> String {
        self.ca.pem().to_string()
    }

    /// Writes the test CA in PEM form to `path` (for `--ca-file`).
    pub fn write_ca_pem(&self, path: impl AsRef<std::path::Path>) -> std::io::Result<()> {
        std::fs::write(path, self.ca.pem())
    }

    /// The test CA in DER form, for a rustls root store.
    pub fn ca_der(&self) -> CertificateDer<'static> {
        self.ca.der().clone()
    }

    /// When the web started (the zero of [`RecordedRequest::ms`]).
    pub fn started_at(&self) -> Instant {
        self.shared.recorder.start()
    }

    /// The loopback addresses listened on.
    pub fn ips(&self) -> Vec<IpAddr> {
        let bound = self.bound.lock().unwrap_or_else(PoisonError::into_inner);
        bound.iter().copied().collect()
    }

    /// Adds (or replaces) a site while running; binds its address on the shared port first if
    /// no site used it yet. Cheap: no certificate is made until a client asks for one.
    pub fn add_site(&self, site: Site) -> Result<(), Error> {
        site.validate()?;
        for ip in site_ips(&site) {
            self.ensure_listening(ip)?;
        }
        self.shared.registry.insert_site(site);
        Ok(())
    }

    /// Removes a site; returns whether it existed.
    pub fn remove_site(&self, name: &str) -> bool {
        self.shared
            .registry
            .remove_site(&normalize_host(name))
            .is_some()
    }

    /// Adds (or replaces) a DNS rule while running.
    pub fn add_dns(&self, rule: DnsRule) {
        self.shared.registry.insert_dns(rule);
    }

    /// Removes a DNS rule; returns whether it existed.
    pub fn remove_dns(&self, name: &str) -> bool {
        self.shared.registry.remove_dns(&normalize_host(name))
    }

    /// Listens on another loopback address (on the shared port).
    pub fn ensure_listening(&self, ip: impl Into<IpAddr>) -> Result<(), Error> {
        let ip = ip.into();
        check_loopback(ip)?;
        if self.shared.cancel.is_cancelled() {
            return Err(Error::Stopped);
        }
        let mut bound = self.bound.lock().unwrap_or_else(PoisonError::into_inner);
        if bound.contains(&ip) {
            return Ok(());
        }
        let _runtime = self.handle.enter();
        let listener = bind(ip, self.port, self.shared.config.listen_backlog)?;
        self.shared
            .tracker
            .spawn(accept_loop(Arc::clone(&self.shared), listener));
        bound.insert(ip);
        Ok(())
    }

    /// The address a site is served on (its IPv4 address and the shared port).
    pub fn addr(&self, host: &str) -> Option<SocketAddr> {
        let site = self.shared.registry.site(&normalize_host(host))?;
        Some(SocketAddr::new(IpAddr::V4(site.ipv4()), self.port))
    }

    /// `host:port`, the crawler's input form.
    pub fn input(&self, host: &str) -> String {
        format!("{}:{}", normalize_host(host), self.port)
    }

    /// `https://host:port` (or `http://` for a plain-HTTP-only site).
    pub fn origin(&self, host: &str) -> String {
        let host = normalize_host(host);
        let scheme = match self.shared.registry.site(&host) {
            Some(site) if !site.serves_tls() => "http",
            _ => "https",
        };
        format!("{scheme}://{host}:{}", self.port)
    }

    /// The origin followed by `path`.
    pub fn url(&self, host: &str, path: &str) -> String {
        format!("{}{path}", self.origin(host))
    }

    /// The requests kept for `host`, oldest first.
    pub fn requests(&self, host: &str) -> Vec<RecordedRequest> {
        self.shared.recorder.requests(&normalize_host(host))
    }

    /// How many requests `host` received (exact, even past the kept ones).
    pub fn request_count(&self, host: &str) -> u64 {
        self.shared.recorder.count(&normalize_host(host))
    }

    /// Requests received in all.
    pub fn total_requests(&self) -> u64 {
        self.shared.recorder.total()
    }

    /// Every kept request of every host, in order of arrival.
    pub fn all_requests(&self) -> Vec<RecordedRequest> {
        self.shared.recorder.all()
    }

    /// The hosts that received requests.
    pub fn requested_hosts(&self) -> Vec<String> {
        self.shared.recorder.hosts()
    }

    /// Waits until `host` has received at least `n` requests; returns whether it did in time.
    pub async fn wait_for_requests(&self, host: &str, n: u64, timeout: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if self.request_count(host) >= n {
                return true;
            }
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(WAIT_POLL).await;
        }
    }

    /// Connection counts for connections made to `ip`.
    pub fn connections(&self, ip: impl Into<IpAddr>) -> ConnStats {
        self.shared.conns.stats(ip.into())
    }

    /// Connection counts for every address that had connections.
    pub fn all_connections(&self) -> Vec<(IpAddr, ConnStats)> {
        self.shared.conns.all()
    }

    /// DNS queries received for `name` (any type).
    pub fn dns_queries(&self, name: &str) -> u64 {
        self.dns.queries(name)
    }

    /// DNS queries received in all.
    pub fn dns_queries_total(&self) -> u64 {
        self.dns.total()
    }

    /// Forgets recorded requests and zeroes the connection and DNS counts (connections open
    /// now stay counted as open).
    pub fn clear_records(&self) {
        self.shared.recorder.clear();
        self.shared.conns.reset();
        self.dns.reset_counts();
    }

    /// Stops accepting, lets open connections finish within the grace period, and waits for
    /// every task.
    pub async fn shutdown(self) {
        self.shared.cancel.cancel();
        self.shared.tracker.close();
        let grace = self.shared.config.shutdown_grace + Duration::from_secs(1);
        if tokio::time::timeout(grace, self.shared.tracker.wait())
            .await
            .is_err()
        {
            tracing::debug!("simweb tasks still running after the shutdown grace period");
        }
    }
}

impl Drop for SimWeb {
    fn drop(&mut self) {
        self.shared.cancel.cancel();
        self.shared.tracker.close();
    }
}

/// The addresses a site needs listened on.
fn site_ips(site: &Site) -> Vec<IpAddr> {
    let mut ips = vec![IpAddr::V4(site.ipv4())];
    if site.has_ipv6() {
        ips.push(IpAddr::V6(Ipv6Addr::LOCALHOST));
    }
    ips
}

fn check_loopback(ip: IpAddr) -> Result<(), Error> {
    if ip.is_loopback() {
        Ok(())
    } else {
        Err(Error::NotLoopback { ip })
    }
}
