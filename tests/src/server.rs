//! The HTTP side: one listener per loopback IP (all on one port), TLS or plain told apart by the
//! first byte, HTTP/1.1 and HTTP/2 served by hyper-util's auto builder.

use std::collections::BTreeSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use hyper::rt::{Read, Write};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::Semaphore;
use tokio_rustls::{LazyConfigAcceptor, TlsAcceptor};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::Config;
use crate::record::{ConnCounter, Recorder};
use crate::registry::Registry;
use crate::respond::{respond, ConnInfo};
use crate::site::{normalize_host, TlsFault};
use crate::Error;

/// Attempts at finding a port free on every address.
const BIND_ATTEMPTS: u32 = 32;
/// First byte of a TLS handshake record.
const TLS_HANDSHAKE: u8 = 0x16;
/// Pause after a failed accept (e.g. out of file descriptors).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(10);

/// Everything a connection task needs.
pub(crate) struct Shared {
    pub(crate) registry: Arc<Registry>,
    pub(crate) recorder: Recorder,
    pub(crate) conns: Arc<ConnCounter>,
    pub(crate) config: Config,
    pub(crate) tracker: TaskTracker,
    pub(crate) cancel: CancellationToken,
    pub(crate) tls: TlsAcceptor,
    limit: Arc<Semaphore>,
    http: auto::Builder<TokioExecutor>,
}

impl Shared {
    pub(crate) fn new(
        registry: Arc<Registry>,
        recorder: Recorder,
        config: Config,
        tls: TlsAcceptor,
    ) -> Self {
        let mut http = auto::Builder::new(TokioExecutor::new());
        http.http1()
            .timer(TokioTimer::new())
            .header_read_timeout(config.header_read_timeout)
            .keep_alive(true);
        http.http2()
            .timer(TokioTimer::new())
            .max_concurrent_streams(config.h2_max_streams);
        Self {
            registry,
            recorder,
            conns: Arc::new(ConnCounter::default()),
            limit: Arc::new(Semaphore::new(config.max_connections)),
            config,
            tracker: TaskTracker::new(),
            cancel: CancellationToken::new(),
            tls,
            http,
        }
    }
}

/// Binds `port` (0: any) on `ip` with the configured backlog.
pub(crate) fn bind(ip: IpAddr, port: u16, backlog: u32) -> Result<TcpListener, Error> {
    let addr = SocketAddr::new(ip, port);
    let socket = match ip {
        IpAddr::V4(_) => TcpSocket::new_v4(),
        IpAddr::V6(_) => TcpSocket::new_v6(),
    };
    socket
        .and_then(|s| {
            s.set_reuseaddr(true)?;
            s.bind(addr)?;
            s.listen(backlog)
        })
        .map_err(|source| Error::Bind { addr, source })
}

/// Binds one port number on every address in `ips` (127.0.0.1 first, as port 0, then the
/// same number on the others), retrying with a new port when another address has it taken.
pub(crate) fn bind_common(
    ips: &BTreeSet<IpAddr>,
    backlog: u32,
) -> Result<(u16, Vec<(IpAddr, TcpListener)>), Error> {
    let first = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);
    'attempt: for _ in 0..BIND_ATTEMPTS {
        let listener = bind(first, 0, backlog)?;
        let port = listener
            .local_addr()
            .map_err(|source| Error::Io {
                what: "listener address",
                source,
            })?
            .port();
        let mut listeners = vec![(first, listener)];
        for &ip in ips.iter().filter(|ip| **ip != first) {
            match bind(ip, port, backlog) {
                Ok(l) => listeners.push((ip, l)),
                Err(Error::Bind { source, .. })
                    if source.kind() == std::io::ErrorKind::AddrInUse =>
                {
                    continue 'attempt
                }
                Err(e) => return Err(e),
            }
        }
        return Ok((port, listeners));
    }
    Err(Error::NoCommonPort {
        ips: ips.iter().copied().collect(),
        attempts: BIND_ATTEMPTS,
    })
}

/// Accepts connections until cancelled; each is served in its own task, within the limit.
pub(crate) async fn accept_loop(shared: Arc<Shared>, listener: TcpListener) {
    loop {
        let accepted = tokio::select! {
            _ = shared.cancel.cancelled() => return,
            r = listener.accept() => r,
        };
        let (stream, remote) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                tracing::debug!(error = %e, "accept failed");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let Ok(local) = stream.local_addr() else {
            continue;
        };
        let Ok(permit) = Arc::clone(&shared.limit).try_acquire_owned() else {
            shared.conns.rejected(local.ip());
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (id, guard) = shared.conns.open(local.ip());
        let task_shared = Arc::clone(&shared);
        shared.tracker.spawn(async move {
            let _permit = permit;
            let _guard = guard;
            serve_conn(task_shared, stream, remote, local, id).await;
        });
    }
}

async fn serve_conn(
    shared: Arc<Shared>,
    stream: TcpStream,
    remote: SocketAddr,
    local: SocketAddr,
    id: u64,
) {
    let deadline = shared.config.handshake_timeout;
    let mut first = [0u8; 1];
    match tokio::time::timeout(deadline, stream.peek(&mut first)).await {
        Ok(Ok(1)) => {}
        Ok(_) => return,
        Err(_) => {
            shared.conns.handshake_failed(local.ip());
            return;
        }
    }
    let mut info = ConnInfo {
        id,
        remote,
        local,
        tls: false,
        sni: None,
    };
    if first[0] != TLS_HANDSHAKE {
        serve_http(&shared, TokioIo::new(stream), info).await;
        return;
    }
    let accepted = tokio::select! {
        _ = shared.cancel.cancelled() => return,
        r = tokio::time::timeout(deadline, handshake(&shared, stream)) => r,
    };
    match accepted {
        Ok(Ok(tls)) => {
            info.tls = true;
            info.sni = tls.get_ref().1.server_name().map(str::to_string);
            if let Some(fault) = h2_fault(&shared, &tls) {
                crate::h2fault::serve(tls, fault).await;
                return;
            }
            let raw = info
                .sni
                .as_deref()
                .and_then(|name| shared.registry.site(&normalize_host(name)))
                .and_then(|site| site.raw_mode());
            if let Some(raw) = raw {
                crate::raw::serve(tls, &raw).await;
                return;
            }
            serve_http(&shared, TokioIo::new(tls), info).await;
        }
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "tls handshake failed");
            shared.conns.handshake_failed(local.ip());
        }
        Err(_) => shared.conns.handshake_failed(local.ip()),
    }
}

/// The HTTP/2 fault of the site the client named, when it negotiated h2.
fn h2_fault(
    shared: &Shared,
    tls: &tokio_rustls::server::TlsStream<TcpStream>,
) -> Option<crate::H2Fault> {
    let conn = tls.get_ref().1;
    if conn.alpn_protocol() != Some(b"h2".as_slice()) {
        return None;
    }
    shared.registry.site(conn.server_name()?)?.h2_fault_mode()
}

/// The TLS handshake: the ClientHello first, so a site named by its SNI can break the
/// handshake as its [`TlsFault`] says; otherwise the usual certificate by SNI.
async fn handshake(
    shared: &Shared,
    stream: TcpStream,
) -> std::io::Result<tokio_rustls::server::TlsStream<TcpStream>> {
    let start = LazyConfigAcceptor::new(rustls::server::Acceptor::default(), stream).await?;
    let fault = start
        .client_hello()
        .server_name()
        .and_then(|name| shared.registry.site(&normalize_host(name)))
        .map_or(TlsFault::None, |site| site.tls_fault_mode());
    let site = start
        .client_hello()
        .server_name()
        .and_then(|name| shared.registry.site(&normalize_host(name)));
    let config = match site.and_then(|site| site.raw_mode()) {
        Some(raw) => {
            crate::raw::server_config(&raw, shared.tls.config()).map_err(std::io::Error::other)?
        }
        None => shared.tls.config().clone(),
    };
    let accept = start.into_stream(config);
    let broken = || std::io::Error::other("handshake broken by the site's TLS fault");
    match fault {
        TlsFault::None => accept.await,
        TlsFault::Reset => {
            // A zero linger turns the close into a RST.
            if let Some(tcp) = accept.get_ref() {
                let _ = tcp.set_zero_linger();
            }
            drop(accept);
            Err(broken())
        }
        TlsFault::Close => {
            drop(accept);
            Err(broken())
        }
        TlsFault::Tls10Only => {
            let mut accept = accept;
            if let Some(tcp) = accept.get_mut() {
                use tokio::io::AsyncWriteExt;
                let _ = tcp.write_all(&tls10_server_hello()).await;
                let _ = tcp.shutdown().await;
            }
            Err(broken())
        }
    }
}

/// A TLS 1.0 ServerHello record: version 3.1, a fixed random, no session id,
/// TLS_RSA_WITH_AES_128_CBC_SHA, no compression, no extensions.
fn tls10_server_hello() -> Vec<u8> {
    let mut body = vec![0x03, 0x01];
    body.extend_from_slice(&[0x5a; 32]);
    body.extend_from_slice(&[0x00, 0x00, 0x2f, 0x00]);
    let mut handshake = vec![0x02, 0x00, 0x00, body.len() as u8];
    handshake.extend_from_slice(&body);
    let mut record = vec![TLS_HANDSHAKE, 0x03, 0x01, 0x00, handshake.len() as u8];
    record.extend_from_slice(&handshake);
    record
}

async fn serve_http<I>(shared: &Arc<Shared>, io: I, info: ConnInfo)
where
    I: Read + Write + Unpin + Send + 'static,
{
    let info = Arc::new(info);
    let service_shared = Arc::clone(shared);
    let service =
        service_fn(move |req| respond(req, Arc::clone(&info), Arc::clone(&service_shared)));
    let conn = shared.http.serve_connection(io, service);
    tokio::pin!(conn);
    tokio::select! {
        r = conn.as_mut() => {
            if let Err(e) = r {
                tracing::trace!(error = %e, "connection ended with an error");
            }
        }
        _ = shared.cancel.cancelled() => {
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(shared.config.shutdown_grace, conn).await;
        }
    }
}
