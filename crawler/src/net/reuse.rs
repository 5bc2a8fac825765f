//! One connection a host for a site's requests in turn, as a browser keeps one.
//!
//! hyper's pool gets an HTTP/1.1 connection back only once a task it spawns sees the
//! connection ready again, after the response's body ended. A site's next request, woken by
//! that same end, often asks the pool first (the two tasks run on different threads): finding
//! nothing idle, the pool calls the connector, which opened a second TCP and TLS connection for
//! most sites (1.96 a site over 12 requests on the nginx web, BENCHMARKS.md), a second
//! handshake the server pays for too. The pool still takes the connection that comes back
//! and leaves the new one to finish in the background.
//!
//! So the connector waits, briefly, when the site's requests to the host could all be on the
//! HTTP/1.1 connections it already has: until one of them writes (the pool handed it out, so
//! this connection is not needed and the connector gives up), until none is left (it closed:
//! connect), or until [`NetOptions::reuse_grace`](super::NetOptions) passes (connect). Requests
//! in flight at once (more than the live connections) never wait. Correctness never depends on
//! the wait: at worst a second connection is opened, as before.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;

/// A host as connections are kept: name (or address), port, TLS.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ConnKey {
    host: String,
    port: u16,
    tls: bool,
}

impl ConnKey {
    pub(crate) fn new(host: &str, port: u16, tls: bool) -> Self {
        Self {
            host: host.to_owned(),
            port,
            tls,
        }
    }
}

/// One host's live HTTP/1.1 connections and requests in flight.
#[derive(Debug, Default)]
pub(crate) struct HostUse {
    live: AtomicUsize,
    in_flight: AtomicUsize,
    writes: AtomicU64,
    changed: Notify,
}

/// A site's hosts (a handful: the site, its www or mcp host, a redirect's target).
#[derive(Debug, Default)]
pub(crate) struct Reuse {
    hosts: Mutex<HashMap<ConnKey, Arc<HostUse>>>,
}

/// Why the connector gave up: the pool handed a live connection to the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reused;

impl Reuse {
    fn host(&self, key: &ConnKey) -> Arc<HostUse> {
        let mut hosts = self.hosts.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(hosts.entry(key.clone()).or_default())
    }

    /// A request to `key` in flight until the guard drops (at the end of its body).
    pub(crate) fn request(&self, key: &ConnKey) -> InFlight {
        let host = self.host(key);
        host.in_flight.fetch_add(1, Ordering::AcqRel);
        // A connection waiting for the pool must see that requests now overlap.
        host.changed.notify_waiters();
        InFlight(host)
    }

    /// A new HTTP/1.1 connection to `key`, live until the guard drops; the guard counts its
    /// writes.
    pub(crate) fn connection(&self, key: &ConnKey) -> LiveConnection {
        let host = self.host(key);
        host.live.fetch_add(1, Ordering::AcqRel);
        LiveConnection(host)
    }

    /// Before opening a connection to `key`: waits (up to `grace`) while a live connection
    /// may yet be handed over; `Err(Reused)` once one was.
    pub(crate) async fn before_connect(
        &self,
        key: &ConnKey,
        grace: Duration,
    ) -> Result<(), Reused> {
        let host = self.host(key);
        let deadline = tokio::time::sleep(grace);
        tokio::pin!(deadline);
        let writes = host.writes.load(Ordering::Acquire);
        loop {
            let changed = host.changed.notified();
            tokio::pin!(changed);
            // Registered before the checks, so a change between them still wakes it.
            changed.as_mut().enable();
            let live = host.live.load(Ordering::Acquire);
            if live == 0 || host.in_flight.load(Ordering::Acquire) > live {
                return Ok(());
            }
            if host.writes.load(Ordering::Acquire) != writes {
                return Err(Reused);
            }
            tokio::select! {
                () = &mut changed => {}
                () = &mut deadline => return Ok(()),
            }
        }
    }
}

/// A request in flight (see [`Reuse::request`]).
#[derive(Debug)]
pub(crate) struct InFlight(Arc<HostUse>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
        self.0.changed.notify_waiters();
    }
}

/// A live HTTP/1.1 connection (see [`Reuse::connection`]).
#[derive(Debug)]
pub(crate) struct LiveConnection(Arc<HostUse>);

impl LiveConnection {
    /// The connection is writing: a request went out on it.
    pub(crate) fn wrote(&self) {
        self.0.writes.fetch_add(1, Ordering::AcqRel);
        self.0.changed.notify_waiters();
    }
}

impl Drop for LiveConnection {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::AcqRel);
        self.0.changed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LONG: Duration = Duration::from_secs(3600);

    fn key() -> ConnKey {
        ConnKey::new("a.test", 443, true)
    }

    #[tokio::test(start_paused = true)]
    async fn no_live_connection_connects_at_once() {
        let reuse = Reuse::default();
        let _request = reuse.request(&key());
        assert_eq!(reuse.before_connect(&key(), LONG).await, Ok(()));
    }

    #[tokio::test(start_paused = true)]
    async fn requests_at_once_never_wait_for_a_busy_connection() {
        let reuse = Reuse::default();
        let _live = reuse.connection(&key());
        let _first = reuse.request(&key());
        let _second = reuse.request(&key());
        let started = tokio::time::Instant::now();
        assert_eq!(reuse.before_connect(&key(), LONG).await, Ok(()));
        assert_eq!(started.elapsed(), Duration::ZERO);
    }

    /// A live connection, a request in turn, and its connector waiting for the pool.
    async fn waiting_for_the_pool() -> (
        LiveConnection,
        InFlight,
        tokio::task::JoinHandle<Result<(), Reused>>,
    ) {
        let reuse = Arc::new(Reuse::default());
        let live = reuse.connection(&key());
        let request = reuse.request(&key());
        let waiting = tokio::spawn(async move { reuse.before_connect(&key(), LONG).await });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "it waits for the pool");
        (live, request, waiting)
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_in_turn_gives_up_once_the_live_connection_writes() {
        let (live, _request, waiting) = waiting_for_the_pool().await;
        live.wrote();
        assert_eq!(waiting.await.expect("task"), Err(Reused));
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_that_closes_instead_lets_it_connect() {
        let (live, _request, waiting) = waiting_for_the_pool().await;
        drop(live);
        assert_eq!(waiting.await.expect("task"), Ok(()));
    }

    #[tokio::test(start_paused = true)]
    async fn the_wait_ends_at_the_grace_and_other_hosts_are_apart() {
        let reuse = Reuse::default();
        let _live = reuse.connection(&key());
        let _request = reuse.request(&key());
        let other = ConnKey::new("www.a.test", 443, true);
        let _other_request = reuse.request(&other);
        let started = tokio::time::Instant::now();
        assert_eq!(reuse.before_connect(&other, LONG).await, Ok(()));
        assert_eq!(
            started.elapsed(),
            Duration::ZERO,
            "another host has no live connection"
        );
        let grace = Duration::from_millis(250);
        assert_eq!(reuse.before_connect(&key(), grace).await, Ok(()));
        assert_eq!(started.elapsed(), grace);
    }
}
