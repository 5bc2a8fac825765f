//! The connector hyper's pool calls for a new connection: pinned, guarded addresses only.
//!
//! For each connection it takes the host's addresses from the site's pins (resolved and
//! guarded once per site, see the client), re-checks each with the guard, waits for a
//! per-IP connection slot, connects to that exact address under the connect timeout, and does
//! the TLS handshake under its own timeout. The slot travels inside the returned stream, so it
//! is released when hyper drops the connection. The peer address is attached to every response
//! of the connection as a [`PeerInfo`] extension.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::Uri;
use hyper_util::client::legacy::connect::{Connected, Connection};
use hyper_util::rt::TokioIo;
use rustls_pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

use super::fetch::{ConnectFailure, FetchError, TimeoutPhase};
use super::pins::Pins;
use super::reuse::{ConnKey, LiveConnection, Reuse};
use super::shared::Shared;
use super::waits::OwnWaits;

/// The peer of the connection a response came over (a response extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerInfo {
    /// The remote address.
    pub addr: SocketAddr,
}

/// hyper's connector for one site client.
#[derive(Clone)]
pub(crate) struct Connector {
    shared: Arc<Shared>,
    pins: Arc<Pins>,
    /// The site's ledger of waits on our own queues (connection slots, the IP rate).
    waits: Arc<OwnWaits>,
    /// The site's live connections and requests in flight, a host each.
    reuse: Arc<Reuse>,
}

impl Connector {
    pub(crate) fn new(
        shared: Arc<Shared>,
        pins: Arc<Pins>,
        waits: Arc<OwnWaits>,
        reuse: Arc<Reuse>,
    ) -> Self {
        Self {
            shared,
            pins,
            waits,
            reuse,
        }
    }

    async fn connect(self, uri: Uri) -> Result<TokioIo<NetStream>, FetchError> {
        let origin = uri.to_string();
        let invalid = |reason| FetchError::InvalidUrl {
            url: origin.clone(),
            reason,
        };
        let tls = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err(invalid("scheme is not http or https")),
        };
        let host = uri.host().ok_or_else(|| invalid("no host"))?;
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        // Pinned under the name every other decision uses (`h.` is `h`).
        let host = &*super::names::host_key(host);
        let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
        let key = ConnKey::new(host, port, tls);
        // A request in turn whose connection is on its way back to the pool: not a second one.
        let grace = self.shared.opts.reuse_grace;
        if self
            .waits
            .during(self.reuse.before_connect(&key, grace))
            .await
            .is_err()
        {
            return Err(FetchError::Reused { url: origin });
        }
        let addrs = self
            .pins
            .get_or_pin(&self.shared, host, &self.waits)
            .await?;
        let (tcp, addr, permit) = self.open(host, &addrs, port, &origin).await?;
        // The request that asked for this connection was charged to the address noted before
        // (or, for the first connection, the first address); if the connection went elsewhere
        // the address it reached pays too.
        let charged = self
            .pins
            .note_used(host, port, addr.ip())
            .or(addrs.first().copied());
        if charged != Some(addr.ip()) {
            let rate = self.shared.throttle.acquire_ip(addr.ip());
            self.waits.during(rate).await;
        }
        let (io, h2) = if tls {
            let stream = self.handshake(host, addr, tcp, &origin).await?;
            let h2 = stream.get_ref().1.alpn_protocol() == Some(b"h2".as_slice());
            (Io::Tls(Box::new(stream)), h2)
        } else {
            (Io::Plain(tcp), false)
        };
        // HTTP/2 connections are shared by the pool at once: nothing to wait for.
        let live = (!h2).then(|| self.reuse.connection(&key));
        Ok(TokioIo::new(NetStream {
            io,
            peer: PeerInfo { addr },
            h2,
            live,
            _permit: permit,
        }))
    }

    /// Tries the addresses (families interleaved) within the connect budget.
    async fn open(
        &self,
        host: &str,
        addrs: &[IpAddr],
        port: u16,
        origin: &str,
    ) -> Result<(TcpStream, SocketAddr, OwnedSemaphorePermit), FetchError> {
        let order = interleave(addrs, self.shared.opts.max_addresses_per_host.get());
        let mut budget = self.shared.opts.connect_timeout;
        let mut last = FetchError::Timeout {
            url: origin.to_owned(),
            phase: TimeoutPhase::Connect,
        };
        for (i, ip) in order.iter().enumerate() {
            let addr = SocketAddr::new(*ip, port);
            if let Err(refusal) = self.shared.guard.check(*ip) {
                last = FetchError::Guard {
                    host: host.to_owned(),
                    address: *ip,
                    refusal,
                };
                continue;
            }
            let permit = self
                .waits
                .during(self.shared.throttle.connection_permit(*ip))
                .await
                .ok_or_else(|| FetchError::Connect {
                    host: host.to_owned(),
                    address: addr,
                    failure: ConnectFailure::Other,
                })?;
            // Later addresses get a share of what is left, so one black hole cannot use it all.
            let left = u32::try_from(order.len() - i).unwrap_or(1);
            let attempt = budget / left;
            let started = Instant::now();
            let outcome = tokio::time::timeout(attempt, TcpStream::connect(addr)).await;
            budget = budget.saturating_sub(started.elapsed());
            match outcome {
                Ok(Ok(tcp)) => {
                    // Nagle only delays small requests; failure to set it changes nothing else.
                    let _ = tcp.set_nodelay(true);
                    return Ok((tcp, addr, permit));
                }
                Ok(Err(err)) => {
                    let failure = ConnectFailure::from_io(&err);
                    last = FetchError::Connect {
                        host: host.to_owned(),
                        address: addr,
                        failure,
                    };
                    // This machine is out of something: the next address would say nothing
                    // about the site, and a later refusal must not hide why.
                    if matches!(failure, ConnectFailure::Local(_)) {
                        break;
                    }
                }
                Err(_) => {
                    last = FetchError::Timeout {
                        url: origin.to_owned(),
                        phase: TimeoutPhase::Connect,
                    };
                }
            }
        }
        Err(last)
    }

    async fn handshake(
        &self,
        host: &str,
        addr: SocketAddr,
        tcp: TcpStream,
        origin: &str,
    ) -> Result<TlsStream<TcpStream>, FetchError> {
        let tls_error = |reason: String| FetchError::Tls {
            host: host.to_owned(),
            address: addr,
            reason,
        };
        let name = ServerName::try_from(host.to_owned())
            .map_err(|e| tls_error(format!("bad server name: {e}")))?;
        let connector = TlsConnector::from(self.shared.tls.clone());
        match tokio::time::timeout(
            self.shared.opts.tls_handshake_timeout,
            connector.connect(name, tcp),
        )
        .await
        {
            Ok(Ok(stream)) => Ok(stream),
            Ok(Err(err)) => Err(tls_error(err.to_string())),
            Err(_) => Err(FetchError::Timeout {
                url: origin.to_owned(),
                phase: TimeoutPhase::Tls,
            }),
        }
    }
}

impl tower_service::Service<Uri> for Connector {
    type Response = TokioIo<NetStream>;
    type Error = FetchError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        Box::pin(self.clone().connect(uri))
    }
}

/// Up to `max` addresses, alternating families starting with the first answer's family.
pub(crate) fn interleave(addrs: &[IpAddr], max: usize) -> Vec<IpAddr> {
    let first_v6 = addrs.first().is_some_and(IpAddr::is_ipv6);
    let (mut lead, mut follow): (Vec<IpAddr>, Vec<IpAddr>) =
        addrs.iter().partition(|ip| ip.is_ipv6() == first_v6);
    lead.reverse();
    follow.reverse();
    let mut out = Vec::with_capacity(addrs.len().min(max));
    while out.len() < max {
        match (lead.pop(), follow.pop()) {
            (None, None) => break,
            (a, b) => out.extend(a.into_iter().chain(b).take(max - out.len())),
        }
    }
    out
}

enum Io {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

/// A connection with the per-IP slot it holds.
pub(crate) struct NetStream {
    io: Io,
    peer: PeerInfo,
    h2: bool,
    /// An HTTP/1.1 connection counted live for its host; its writes are counted too.
    live: Option<LiveConnection>,
    _permit: OwnedSemaphorePermit,
}

impl NetStream {
    fn wrote(&self) {
        if let Some(live) = &self.live {
            live.wrote();
        }
    }
}

impl Connection for NetStream {
    fn connected(&self) -> Connected {
        let connected = Connected::new().extra(self.peer);
        if self.h2 {
            connected.negotiated_h2()
        } else {
            connected
        }
    }
}

impl AsyncRead for NetStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => poll_read_at_most(Pin::new(s), cx, buf, MAX_READ),
            Io::Tls(s) => poll_read_at_most(Pin::new(s.as_mut()), cx, buf, MAX_READ),
        }
    }
}

/// The most one read hands to hyper. hyper's HTTP/1.1 read buffer starts at 8 KiB, doubles
/// after a read fills it and keeps that size for the connection's life; TLS hands over a
/// whole record (up to 16 KiB) at once, so one 8 KB homepage grew every site's buffer to
/// 16–24 KiB. Smaller reads keep it at 8 KiB: a longer head or body takes more reads, not
/// more memory (BENCHMARKS.md, "Memory a site in flight").
pub(crate) const MAX_READ: usize = 4096;
// hyper's first read buffer (its `INIT_BUFFER_SIZE`): a read that fills it doubles it.
const _: () = assert!(MAX_READ < 8192);

/// Reads at most `max` bytes into `buf` (all of it when it has no more room than that).
pub(crate) fn poll_read_at_most<R: AsyncRead + ?Sized>(
    io: Pin<&mut R>,
    cx: &mut Context<'_>,
    buf: &mut ReadBuf<'_>,
    max: usize,
) -> Poll<io::Result<()>> {
    if buf.remaining() <= max {
        return io.poll_read(cx, buf);
    }
    // A window of the room, zeroed once (the project forbids the unsafe way round it).
    let mut window = ReadBuf::new(buf.initialize_unfilled_to(max));
    let polled = io.poll_read(cx, &mut window);
    let n = window.filled().len();
    buf.advance(n);
    polled
}

impl AsyncWrite for NetStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.wrote();
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_flush(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.wrote();
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match &self.io {
            Io::Plain(s) => s.is_write_vectored(),
            Io::Tls(s) => s.is_write_vectored(),
        }
    }
}
