//! What the sites saw: every request per host, and connection counts per local IP.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use bytes::Bytes;
use http::{HeaderMap, Version};
use serde_json::Value;

/// Key under which requests for hosts past [`RecordLimits::max_hosts`] are kept.
pub const OVERFLOW_HOST: &str = "*overflow*";

/// One request as the server received it.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// Order of arrival across the whole web (starts at 0).
    pub seq: u64,
    /// When the request head arrived.
    pub at: Instant,
    /// Milliseconds from the start of the web to arrival.
    pub ms: u64,
    /// Which accepted connection carried it (per web, starting at 0).
    pub conn_id: u64,
    /// The client's address.
    pub remote: SocketAddr,
    /// The address the client connected to.
    pub local: SocketAddr,
    /// Whether it came over TLS.
    pub tls: bool,
    /// The TLS server name the client sent, if any.
    pub sni: Option<String>,
    /// Whether the SNI equals the host (`false` for plain HTTP).
    pub sni_matched: bool,
    /// The host the request addressed (`:authority` or `Host`, lowercase, no port), or the
    /// local IP when it named none.
    pub host: String,
    /// The method (`GET`, `POST`, …).
    pub method: String,
    /// Path and query as sent.
    pub path: String,
    /// HTTP version.
    pub version: Version,
    /// All request headers (`Host` included for HTTP/1.1).
    pub headers: HeaderMap,
    /// The body, up to the recording cap.
    pub body: Bytes,
    /// Whether the body was longer than what was kept (or could not be read in time).
    pub body_truncated: bool,
}

impl RecordedRequest {
    /// The first value of a header, if present and valid UTF-8.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Every value of a header.
    pub fn header_all(&self, name: &str) -> Vec<String> {
        self.headers
            .get_all(name)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect()
    }

    /// Whether a header is present at all.
    pub fn has_header(&self, name: &str) -> bool {
        self.headers.contains_key(name)
    }

    /// The path without the query.
    pub fn path_only(&self) -> &str {
        self.path.split_once('?').map_or(&self.path, |(p, _)| p)
    }

    /// The query, if any.
    pub fn query(&self) -> Option<&str> {
        self.path.split_once('?').map(|(_, q)| q)
    }

    /// The body parsed as JSON.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// The body as text (lossy).
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Bounds on what is recorded.
#[derive(Clone, Copy, Debug)]
pub struct RecordLimits {
    /// Requests kept per host (oldest dropped first; counts stay exact).
    pub per_host: usize,
    /// Distinct hosts kept; requests for more hosts go to [`OVERFLOW_HOST`].
    pub max_hosts: usize,
    /// Body bytes kept per request.
    pub body_cap: usize,
    /// Body bytes kept across all records; past it bodies are recorded empty and truncated.
    pub body_budget: u64,
}

#[derive(Default)]
struct HostLog {
    total: u64,
    kept: VecDeque<Arc<RecordedRequest>>,
}

/// The per-host request log.
pub(crate) struct Recorder {
    start: Instant,
    seq: AtomicU64,
    limits: RecordLimits,
    body_bytes: AtomicU64,
    hosts: Mutex<HashMap<String, HostLog>>,
}

impl Recorder {
    pub(crate) fn new(start: Instant, limits: RecordLimits) -> Self {
        Self {
            start,
            seq: AtomicU64::new(0),
            limits,
            body_bytes: AtomicU64::new(0),
            hosts: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn limits(&self) -> RecordLimits {
        self.limits
    }

    pub(crate) fn start(&self) -> Instant {
        self.start
    }

    /// Gives the next sequence number and the milliseconds since start.
    pub(crate) fn stamp(&self, at: Instant) -> (u64, u64) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        let ms =
            u64::try_from(at.saturating_duration_since(self.start).as_millis()).unwrap_or(u64::MAX);
        (seq, ms)
    }

    /// Whether `len` more body bytes fit the budget (and reserves them if so).
    pub(crate) fn reserve_body(&self, len: usize) -> bool {
        let len = len as u64;
        let mut current = self.body_bytes.load(Ordering::Relaxed);
        loop {
            if current.saturating_add(len) > self.limits.body_budget {
                return false;
            }
            match self.body_bytes.compare_exchange_weak(
                current,
                current + len,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(seen) => current = seen,
            }
        }
    }

    pub(crate) fn record(&self, req: Arc<RecordedRequest>) {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        let key = if hosts.contains_key(&req.host) || hosts.len() < self.limits.max_hosts {
            req.host.clone()
        } else {
            OVERFLOW_HOST.to_string()
        };
        let log = hosts.entry(key).or_default();
        log.total += 1;
        log.kept.push_back(req);
        while log.kept.len() > self.limits.per_host {
            if let Some(old) = log.kept.pop_front() {
                self.body_bytes
                    .fetch_sub(old.body.len() as u64, Ordering::Relaxed);
            }
        }
    }

    pub(crate) fn requests(&self, host: &str) -> Vec<RecordedRequest> {
        let hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        hosts
            .get(host)
            .map(|log| log.kept.iter().map(|r| (**r).clone()).collect())
            .unwrap_or_default()
    }

    pub(crate) fn count(&self, host: &str) -> u64 {
        let hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        hosts.get(host).map_or(0, |log| log.total)
    }

    pub(crate) fn total(&self) -> u64 {
        let hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        hosts.values().map(|log| log.total).sum()
    }

    pub(crate) fn hosts(&self) -> Vec<String> {
        let hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        let mut names: Vec<String> = hosts.keys().cloned().collect();
        names.sort();
        names
    }

    pub(crate) fn all(&self) -> Vec<RecordedRequest> {
        let hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        let mut all: Vec<RecordedRequest> = hosts
            .values()
            .flat_map(|log| log.kept.iter().map(|r| (**r).clone()))
            .collect();
        drop(hosts);
        all.sort_by_key(|r| r.seq);
        all
    }

    pub(crate) fn clear(&self) {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        hosts.clear();
        self.body_bytes.store(0, Ordering::Relaxed);
    }
}

/// Connection counts for one local IP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConnStats {
    /// Connections accepted (the rejected ones included).
    pub accepted: u64,
    /// Connections open now.
    pub current: u64,
    /// Most connections open at once.
    pub peak: u64,
    /// Connections closed at once because the web's connection limit was reached.
    pub rejected: u64,
    /// TLS handshakes that failed or timed out.
    pub handshake_failures: u64,
}

/// Connection counts per local IP.
#[derive(Default)]
pub(crate) struct ConnCounter {
    next_id: AtomicU64,
    per_ip: Mutex<HashMap<IpAddr, ConnStats>>,
}

impl ConnCounter {
    fn with<R>(&self, ip: IpAddr, f: impl FnOnce(&mut ConnStats) -> R) -> R {
        let mut map = self.per_ip.lock().unwrap_or_else(PoisonError::into_inner);
        f(map.entry(ip).or_default())
    }

    /// Counts an accepted connection that will be served; the guard counts its close.
    pub(crate) fn open(self: &Arc<Self>, ip: IpAddr) -> (u64, ConnGuard) {
        self.with(ip, |s| {
            s.accepted += 1;
            s.current += 1;
            s.peak = s.peak.max(s.current);
        });
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        (
            id,
            ConnGuard {
                counter: Arc::clone(self),
                ip,
            },
        )
    }

    pub(crate) fn rejected(&self, ip: IpAddr) {
        self.with(ip, |s| {
            s.accepted += 1;
            s.rejected += 1;
        });
    }

    pub(crate) fn handshake_failed(&self, ip: IpAddr) {
        self.with(ip, |s| s.handshake_failures += 1);
    }

    pub(crate) fn stats(&self, ip: IpAddr) -> ConnStats {
        let map = self.per_ip.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(&ip).copied().unwrap_or_default()
    }

    pub(crate) fn all(&self) -> Vec<(IpAddr, ConnStats)> {
        let map = self.per_ip.lock().unwrap_or_else(PoisonError::into_inner);
        let mut all: Vec<_> = map.iter().map(|(ip, s)| (*ip, *s)).collect();
        all.sort_by_key(|(ip, _)| *ip);
        all
    }

    /// Zeroes the counts, keeping connections open now as open (and as the peak).
    pub(crate) fn reset(&self) {
        let mut map = self.per_ip.lock().unwrap_or_else(PoisonError::into_inner);
        for s in map.values_mut() {
            *s = ConnStats {
                current: s.current,
                peak: s.current,
                ..ConnStats::default()
            };
        }
    }
}

/// Counts a connection as closed when dropped.
pub(crate) struct ConnGuard {
    counter: Arc<ConnCounter>,
    ip: IpAddr,
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        self.counter
            .with(self.ip, |s| s.current = s.current.saturating_sub(1));
    }
}
