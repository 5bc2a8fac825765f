//! Opening a site's connections: pinned, guarded addresses only.
//!
//! For each connection it takes the host's addresses from the site's pins (resolved and
//! guarded once per site, see the client), re-checks each with the guard, waits for a
//! per-IP connection slot, connects to that exact address under the connect timeout, and does
//! the TLS handshake under its own timeout. The slot travels inside the returned stream, so it
//! is released when the connection is dropped. Every response reports the connection's peer.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rustls_pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

use super::fetch_error::{ConnectFailure, FetchError, TimeoutPhase};
use super::names::ConnKey;
use super::pins::Pins;
use super::shared::Shared;
use super::waits::OwnWaits;

/// The peer of the connection a response came over (a response extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerInfo {
    /// The remote address.
    pub addr: SocketAddr,
}

/// One site client's connector.
#[derive(Clone)]
pub(crate) struct Connector {
    shared: Arc<Shared>,
    pins: Arc<Pins>,
    /// The site's ledger of waits on our own queues (connection slots, the IP rate).
    waits: Arc<OwnWaits>,
}

impl Connector {
    pub(crate) fn new(shared: Arc<Shared>, pins: Arc<Pins>, waits: Arc<OwnWaits>) -> Self {
        Self {
            shared,
            pins,
            waits,
        }
    }

    /// Opens a connection to `key`: an address from the site's pins that passes the guard, a
    /// per-IP slot, TCP under the connect budget, TLS under its timeout.
    pub(crate) async fn connect(
        &self,
        key: &ConnKey,
        origin: &str,
    ) -> Result<NetStream, FetchError> {
        let host = &*key.host;
        let port = key.port;
        let addrs = self
            .pins
            .get_or_pin(&self.shared, host, &self.waits)
            .await?;
        let (tcp, addr, permit) = self.open(host, &addrs, port, origin).await?;
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
        let (io, h2) = if key.tls {
            let stream = self.handshake(host, addr, tcp, origin).await?;
            let h2 = stream.get_ref().1.alpn_protocol() == Some(b"h2".as_slice());
            (Io::Tls(Box::new(stream)), h2)
        } else {
            (Io::Plain(tcp), false)
        };
        Ok(NetStream {
            io,
            peer: PeerInfo { addr },
            h2,
            _permit: permit,
        })
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
    /// An in-memory stream: the wire harness's (fuzzing and the differential test).
    #[cfg(any(test, feature = "wire-harness"))]
    Mem(tokio::io::DuplexStream),
}

/// A connection with the per-IP slot it holds.
pub(crate) struct NetStream {
    io: Io,
    peer: PeerInfo,
    h2: bool,
    _permit: OwnedSemaphorePermit,
}

impl NetStream {
    /// A stream over an in-memory pipe, for the wire harness: its peer is `peer`, and the
    /// permit a connection slot would be.
    #[cfg(any(test, feature = "wire-harness"))]
    pub(crate) fn in_memory(
        io: tokio::io::DuplexStream,
        peer: SocketAddr,
        permit: OwnedSemaphorePermit,
    ) -> Self {
        Self {
            io: Io::Mem(io),
            peer: PeerInfo { addr: peer },
            h2: false,
            _permit: permit,
        }
    }

    /// The peer.
    pub(crate) fn peer(&self) -> PeerInfo {
        self.peer
    }

    /// True when TLS negotiated HTTP/2.
    pub(crate) fn is_h2(&self) -> bool {
        self.h2
    }

    /// True when the kernel holds bytes (or the end) from the peer that nothing has read yet.
    /// Asked of the socket itself, not of the runtime's readiness, which can lag behind what
    /// arrived while the runtime was busy; a TLS record that carries no answer (a late session
    /// ticket) counts too, at the cost of a new connection.
    pub(crate) fn peer_sent_more(&self) -> bool {
        let tcp = match &self.io {
            Io::Plain(s) => s,
            Io::Tls(s) => s.get_ref().0,
            #[cfg(any(test, feature = "wire-harness"))]
            Io::Mem(_) => return false,
        };
        let mut byte = [std::mem::MaybeUninit::<u8>::uninit(); 1];
        // The socket is non-blocking: an empty one answers WouldBlock at once.
        !matches!(
            socket2::SockRef::from(tcp).peek(&mut byte),
            Err(ref e) if e.kind() == io::ErrorKind::WouldBlock
        )
    }

    /// Waits until the socket has something to read (an answer, or its end).
    pub(crate) async fn readable(&self) -> io::Result<()> {
        match &self.io {
            Io::Plain(s) => s.readable().await,
            Io::Tls(s) => s.get_ref().0.readable().await,
            #[cfg(any(test, feature = "wire-harness"))]
            Io::Mem(_) => Ok(()),
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
            Io::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
            #[cfg(any(test, feature = "wire-harness"))]
            Io::Mem(s) => Pin::new(s).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for NetStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
            #[cfg(any(test, feature = "wire-harness"))]
            Io::Mem(s) => Pin::new(s).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_flush(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
            #[cfg(any(test, feature = "wire-harness"))]
            Io::Mem(s) => Pin::new(s).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
            #[cfg(any(test, feature = "wire-harness"))]
            Io::Mem(s) => Pin::new(s).poll_shutdown(cx),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_write_vectored(cx, bufs),
            #[cfg(any(test, feature = "wire-harness"))]
            Io::Mem(s) => Pin::new(s).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match &self.io {
            Io::Plain(s) => s.is_write_vectored(),
            Io::Tls(s) => s.is_write_vectored(),
            #[cfg(any(test, feature = "wire-harness"))]
            Io::Mem(s) => s.is_write_vectored(),
        }
    }
}
