//! Politeness: request rates per host and per IP, a cap on connections per IP, and a pause for
//! hosts that answered 429 or 503.
//!
//! Limiter state is keyed (governor's DashMap store) and swept every
//! [`NetOptions::throttle_sweep_interval`]: keys whose state is indistinguishable from a fresh
//! one are dropped, as are connection semaphores nobody holds or waits on and expired pauses, so
//! state stays proportional to the work in flight, not to the input. Waits use `tokio::time`
//! (governor's own `until_key_ready` sleeps on a timer tokio cannot pause), so tests can run on
//! a paused clock.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::keyed::DashMapStateStore;
use governor::{Jitter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::error::NetError;
use super::options::NetOptions;

/// governor's clock on `tokio::time`, so a paused test clock governs the limiters too.
#[derive(Debug, Clone, Copy)]
struct TokioClock {
    start: Instant,
}

impl Clock for TokioClock {
    type Instant = Nanos;

    fn now(&self) -> Nanos {
        Nanos::from(self.start.elapsed())
    }
}

type Keyed<K> = RateLimiter<K, DashMapStateStore<K>, TokioClock, NoOpMiddleware<Nanos>>;

/// How many keys each part of the throttle holds (for tests and progress reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottleStats {
    /// Hosts with live rate state.
    pub hosts: usize,
    /// IP addresses with live rate state.
    pub ips: usize,
    /// IP addresses with a connection semaphore.
    pub connection_ips: usize,
    /// Hosts paused after a 429/503.
    pub slowed_hosts: usize,
}

/// Requests that waited for a limiter, by limiter, and the time they waited (for metrics).
#[derive(Debug, Default, serde::Serialize)]
pub struct ThrottleWaits {
    /// Waits for a host's rate (robots.txt Crawl-delay spacing included).
    pub host: AtomicU64,
    /// Waits for an IP address's rate.
    pub ip: AtomicU64,
    /// Waits for a host paused after a 429/503.
    pub paused: AtomicU64,
    /// All of those waits' time, in ms.
    pub waited_ms: AtomicU64,
}

impl ThrottleWaits {
    fn count(&self, which: &AtomicU64, waited: Duration) {
        which.fetch_add(1, Ordering::Relaxed);
        self.waited_ms
            .fetch_add(waited.as_millis() as u64, Ordering::Relaxed);
    }
}

/// Shared politeness state for the whole crawl.
pub struct Throttle {
    clock: TokioClock,
    per_host: Keyed<String>,
    per_ip: Keyed<IpAddr>,
    connections: DashMap<IpAddr, Arc<Semaphore>>,
    /// Sites scanned at once per address (shared hosting takes turns).
    sites: DashMap<IpAddr, Arc<Semaphore>>,
    connection_cap: usize,
    paused: DashMap<String, Instant>,
    /// Host → the earliest time of its next request, for hosts whose robots.txt asks for a
    /// Crawl-delay longer than the host rate's spacing.
    spaced: DashMap<String, Instant>,
    host_spacing: Duration,
    jitter: Duration,
    /// The grids waits end on, in ns (0: none): the host's (its rate, Crawl-delay, pauses) and
    /// the IP's, each at most an eighth of its limiter's spacing.
    host_tick: u64,
    ip_tick: u64,
    slow_down: Duration,
    slow_down_max: Duration,
    sweep_every: Nanos,
    last_sweep: AtomicU64,
    waits: ThrottleWaits,
}

impl std::fmt::Debug for Throttle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Throttle")
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

impl Throttle {
    /// Builds the limiters from validated options.
    pub fn new(opts: &NetOptions) -> Result<Self, NetError> {
        let clock = TokioClock {
            start: Instant::now(),
        };
        let host_quota = quota("per_host_rps", opts.per_host_rps)?.allow_burst(opts.per_host_burst);
        let ip_quota = quota("per_ip_rps", opts.per_ip_rps)?.allow_burst(opts.per_ip_burst);
        Ok(Self {
            clock,
            per_host: RateLimiter::dashmap_with_clock(host_quota, clock),
            per_ip: RateLimiter::dashmap_with_clock(ip_quota, clock),
            connections: DashMap::new(),
            sites: DashMap::new(),
            connection_cap: opts.per_ip_connections.get(),
            paused: DashMap::new(),
            spaced: DashMap::new(),
            host_spacing: Duration::try_from_secs_f64(1.0 / opts.per_host_rps).unwrap_or_default(),
            jitter: opts.throttle_jitter,
            host_tick: grid(opts.throttle_tick, opts.per_host_rps),
            ip_tick: grid(opts.throttle_tick, opts.per_ip_rps),
            slow_down: opts.slow_down,
            slow_down_max: opts.slow_down_max,
            sweep_every: Nanos::from(opts.throttle_sweep_interval),
            last_sweep: AtomicU64::new(0),
            waits: ThrottleWaits::default(),
        })
    }

    /// Waits until a request to `host` at `ip` is allowed: any 429/503 pause of the host, then
    /// a robots.txt Crawl-delay (`gap`, when longer than the host rate's spacing; capped at the
    /// longest slow-down), then the host's rate, then the IP's rate. Consumes one request from
    /// each.
    pub async fn acquire(&self, host: &str, ip: IpAddr, gap: Option<Duration>) {
        self.asked_by_host(host, gap).await;
        self.rates(host, ip).await;
    }

    /// The waits the host asked for: its 429/503 pause, then its robots.txt Crawl-delay
    /// (`gap`, when longer than the host rate's spacing; capped at the longest slow-down).
    /// These are the server's time, unlike [`Throttle::rates`].
    pub async fn asked_by_host(&self, host: &str, gap: Option<Duration>) {
        self.maybe_sweep();
        let paused_until = self.paused.get(host).map(|entry| *entry);
        if let Some(until) = paused_until {
            let now = Instant::now();
            if until > now {
                self.waits.count(&self.waits.paused, until - now);
                tokio::time::sleep_until(self.on_tick(until, self.host_tick)).await;
            }
        }
        if let Some(gap) = gap.filter(|g| *g > self.host_spacing) {
            let at = self.next_slot(host, gap.min(self.slow_down_max));
            let now = Instant::now();
            if at > now {
                self.waits.count(&self.waits.host, at - now);
                tokio::time::sleep_until(self.on_tick(at, self.host_tick)).await;
            }
        }
    }

    /// Our own politeness: the host's rate, then the IP's; consumes one request from each.
    pub async fn rates(&self, host: &str, ip: IpAddr) {
        self.wait(
            &self.per_host,
            &host.to_owned(),
            &self.waits.host,
            self.host_tick,
        )
        .await;
        self.acquire_ip(ip).await;
    }

    /// Waits for the IP's rate alone (a connection that reached another address than the one
    /// its request was charged to).
    pub async fn acquire_ip(&self, ip: IpAddr) {
        self.wait(&self.per_ip, &ip, &self.waits.ip, self.ip_tick)
            .await;
    }

    /// The waits so far.
    pub fn waits(&self) -> &ThrottleWaits {
        &self.waits
    }

    /// Takes one request from the IP's rate if it has room now (tests see what was charged).
    #[cfg(test)]
    pub(crate) fn ip_has_room(&self, ip: IpAddr) -> bool {
        self.per_ip.check_key(&ip).is_ok()
    }

    /// `at`, or the first point after it of the grid of step `tick` from the throttle's start.
    fn on_tick(&self, at: Instant, tick: u64) -> Instant {
        if tick == 0 {
            return at;
        }
        let since = at.saturating_duration_since(self.clock.start);
        let rest = u64::try_from(since.as_nanos()).unwrap_or(u64::MAX) % tick;
        if rest == 0 {
            return at;
        }
        at + Duration::from_nanos(tick - rest)
    }

    /// Books the host's next Crawl-delay slot: now, or `gap` after the last one booked.
    fn next_slot(&self, host: &str, gap: Duration) -> Instant {
        let now = Instant::now();
        let mut next = self.spaced.entry(host.to_owned()).or_insert(now);
        let at = (*next).max(now);
        *next = at + gap;
        at
    }

    async fn wait<K: std::hash::Hash + Eq + Clone>(
        &self,
        limiter: &Keyed<K>,
        key: &K,
        counter: &AtomicU64,
        tick: u64,
    ) {
        let started = Instant::now();
        let mut waited = false;
        while let Err(not_until) = limiter.check_key(key) {
            let wait = not_until.wait_time_from(self.clock.now());
            let wait = if self.jitter.is_zero() {
                wait
            } else {
                Jitter::up_to(self.jitter) + wait
            };
            waited = true;
            tokio::time::sleep_until(self.on_tick(Instant::now() + wait, tick)).await;
        }
        if waited {
            self.waits.count(counter, started.elapsed());
        }
    }

    /// A slot among the IP's concurrent connections; hold it for the connection's lifetime.
    /// Returns `None` only if the semaphore was closed, which this type never does.
    pub async fn connection_permit(&self, ip: IpAddr) -> Option<OwnedSemaphorePermit> {
        self.permit(&self.connections, ip).await
    }

    /// A slot among the sites scanned at once on `ip`; hold it for the site's scan. As many as
    /// the connection cap: a site keeps one connection at a time per host, so sites holding a
    /// slot do not wait for connections; the site's deadline leaves the wait for a slot out.
    pub async fn site_permit(&self, ip: IpAddr) -> Option<OwnedSemaphorePermit> {
        self.permit(&self.sites, ip).await
    }

    /// The site slot on `ip` if one is free now.
    pub fn site_permit_now(&self, ip: IpAddr) -> Option<OwnedSemaphorePermit> {
        self.semaphore(&self.sites, ip).try_acquire_owned().ok()
    }

    fn semaphore(&self, map: &DashMap<IpAddr, Arc<Semaphore>>, ip: IpAddr) -> Arc<Semaphore> {
        map.entry(ip)
            .or_insert_with(|| Arc::new(Semaphore::new(self.connection_cap)))
            .clone()
    }

    async fn permit(
        &self,
        map: &DashMap<IpAddr, Arc<Semaphore>>,
        ip: IpAddr,
    ) -> Option<OwnedSemaphorePermit> {
        self.maybe_sweep();
        self.semaphore(map, ip).acquire_owned().await.ok()
    }

    /// Tells the throttle that `host` answered 429 or 503: later requests to it wait for
    /// `retry_after` (capped), or the default pause when the answer named none.
    pub fn slow_down(&self, host: &str, retry_after: Option<Duration>) {
        let pause = retry_after
            .unwrap_or(self.slow_down)
            .min(self.slow_down_max);
        let until = Instant::now() + pause;
        self.paused
            .entry(host.to_owned())
            .and_modify(|current| *current = (*current).max(until))
            .or_insert(until);
    }

    /// How many keys each part holds right now.
    pub fn stats(&self) -> ThrottleStats {
        ThrottleStats {
            hosts: self.per_host.len(),
            ips: self.per_ip.len(),
            connection_ips: self.connections.len(),
            slowed_hosts: self.paused.len(),
        }
    }

    /// Drops idle state now (also done automatically every sweep interval).
    pub fn sweep(&self) {
        self.per_host.retain_recent();
        self.per_ip.retain_recent();
        self.per_host.shrink_to_fit();
        self.per_ip.shrink_to_fit();
        // A semaphore only the map holds has no permit out and no waiter: it can go.
        self.connections
            .retain(|_, semaphore| Arc::strong_count(semaphore) > 1);
        self.sites
            .retain(|_, semaphore| Arc::strong_count(semaphore) > 1);
        let now = Instant::now();
        self.paused.retain(|_, until| *until > now);
        self.spaced.retain(|_, next| *next > now);
    }

    fn maybe_sweep(&self) {
        let now = self.clock.now().as_u64();
        let last = self.last_sweep.load(Ordering::Relaxed);
        if now.saturating_sub(last) < self.sweep_every.as_u64() {
            return;
        }
        if self
            .last_sweep
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            self.sweep();
        }
    }
}

/// The step of a limiter's wait grid, in ns: `tick`, but at most an eighth of the limiter's
/// spacing, so that a rate with no burst to absorb a late turn (GCRA counts a turn taken late
/// from when it was taken) loses at most an eighth of its rate to the grid.
fn grid(tick: Duration, rps: f64) -> u64 {
    let spacing = Duration::try_from_secs_f64(1.0 / rps).unwrap_or_default();
    u64::try_from(tick.min(spacing / 8).as_nanos()).unwrap_or(u64::MAX)
}

fn quota(field: &'static str, rps: f64) -> Result<Quota, NetError> {
    let period = Duration::try_from_secs_f64(1.0 / rps).ok();
    period
        .and_then(Quota::with_period)
        .ok_or(NetError::InvalidOption {
            field,
            reason: format!("{rps} requests per second gives no usable period"),
        })
}
