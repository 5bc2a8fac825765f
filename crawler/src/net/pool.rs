//! One site's connections, a host each: idle HTTP/1.1 connections waiting for the site's next
//! request in turn, and the HTTP/2 connection a host negotiated (shared by requests at once).
//!
//! An HTTP/1.1 connection comes back the moment its answer's body ended (`conn.rs`), in the
//! task that read it, so the site's next request, which that same end wakes, always finds it:
//! one connection a site for requests in turn, as a browser keeps one. Requests at once each
//! open their own.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::client::conn::http2::SendRequest;
use tokio::io::{AsyncRead, ReadBuf};
use tokio::time::Instant;

use super::connector::NetStream;
pub(crate) use super::names::ConnKey;

/// An HTTP/2 connection's handle: requests go out on clones of it.
#[derive(Clone)]
pub(crate) struct H2 {
    pub(crate) sender: SendRequest<Full<Bytes>>,
    pub(crate) peer: SocketAddr,
}

struct Idle {
    io: NetStream,
    since: Instant,
}

/// A site's connections.
pub(crate) struct Pool {
    idle: Mutex<HashMap<ConnKey, Vec<Idle>>>,
    h2: Mutex<HashMap<ConnKey, H2>>,
    idle_timeout: Duration,
    max_idle: usize,
}

impl Pool {
    pub(crate) fn new(idle_timeout: Duration, max_idle: usize) -> Self {
        Self {
            idle: Mutex::default(),
            h2: Mutex::default(),
            idle_timeout,
            max_idle,
        }
    }

    /// The key of `host`, `port`, `tls`: one the pool holds already (its name shared), or new.
    pub(crate) fn key(&self, host: &str, port: u16, tls: bool) -> ConnKey {
        let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        match idle.keys().find(|key| key.is(host, port, tls)) {
            Some(key) => key.clone(),
            None => ConnKey::new(host, port, tls),
        }
    }

    /// The most recently returned idle connection to `key` that is still open and quiet.
    pub(crate) fn take_h1(&self, key: &ConnKey) -> Option<NetStream> {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        let list = idle.get_mut(key)?;
        while let Some(mut conn) = list.pop() {
            if conn.since.elapsed() < self.idle_timeout && quiet(&mut conn.io) {
                return Some(conn.io);
            }
        }
        None
    }

    /// Closes the connections kept for other hosts than `key`'s: called before a new
    /// connection opens, so a site in flight holds one socket (its requests go in turn), not
    /// one a host it visited (docs/sizing.md counts on it).
    pub(crate) fn close_others(&self, key: &ConnKey) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        idle.retain(|k, _| k == key);
        drop(idle);
        let mut h2 = self.h2.lock().unwrap_or_else(PoisonError::into_inner);
        h2.retain(|k, _| k == key);
    }

    /// An HTTP/1.1 connection whose answer was read whole: kept for the next request.
    pub(crate) fn put_h1(&self, key: ConnKey, io: NetStream) {
        if self.max_idle == 0 {
            return;
        }
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        let list = idle.entry(key).or_default();
        let now = Instant::now();
        list.retain(|conn| now.duration_since(conn.since) < self.idle_timeout);
        if list.len() >= self.max_idle {
            list.remove(0);
        }
        list.push(Idle { io, since: now });
    }

    /// The host's HTTP/2 connection, while it is open.
    pub(crate) fn h2(&self, key: &ConnKey) -> Option<H2> {
        let mut h2 = self.h2.lock().unwrap_or_else(PoisonError::into_inner);
        match h2.get(key) {
            Some(conn) if !conn.sender.is_closed() => Some(conn.clone()),
            Some(_) => {
                h2.remove(key);
                None
            }
            None => None,
        }
    }

    /// A new HTTP/2 connection to `key`, for the requests after this one.
    pub(crate) fn put_h2(&self, key: ConnKey, conn: H2) {
        let mut h2 = self.h2.lock().unwrap_or_else(PoisonError::into_inner);
        h2.insert(key, conn);
    }
}

/// True when an idle connection has nothing to read: not closed by the server (EOF, reset,
/// a TLS close) and sent nothing unasked, which would be read as the next answer's start.
/// Asked twice: of the stream (what TLS holds decrypted, what the runtime saw arrive) and of
/// the socket (what arrived while the runtime was busy, as it is when politeness is lifted).
fn quiet(io: &mut NetStream) -> bool {
    let mut cx = Context::from_waker(Waker::noop());
    let mut byte = [0u8; 1];
    let mut buf = ReadBuf::new(&mut byte);
    matches!(
        Pin::new(&mut *io).poll_read(&mut cx, &mut buf),
        Poll::Pending
    ) && !io.peer_sent_more()
}
