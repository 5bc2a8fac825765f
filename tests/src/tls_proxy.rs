//! A TLS-terminating proxy on loopback in front of a plain TCP server (the test ClickHouse):
//! a CA of its own, a certificate for `localhost`, 127.0.0.1 and ::1, and the CA in PEM for
//! the client to trust. Stops when dropped.

use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::{JoinHandle, JoinSet};
use tokio_rustls::TlsAcceptor;

use crate::{Error, TestCa};

/// Connections proxied at once; past it, accepting waits for one to end.
const MAX_CONNECTIONS: usize = 64;
/// A client's TLS handshake and the upstream connect each end within this.
const SETUP_TIMEOUT: Duration = Duration::from_secs(30);

/// See the module doc.
pub struct TlsProxy {
    addr: SocketAddr,
    ca_pem: String,
    task: JoinHandle<()>,
}

impl fmt::Debug for TlsProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TlsProxy")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl TlsProxy {
    /// Listens on 127.0.0.1 (a free port) and forwards every connection, once its handshake
    /// is done, to `upstream` in plain TCP.
    pub async fn start(upstream: SocketAddr) -> Result<TlsProxy, Error> {
        let ca = TestCa::generate()?;
        let key = ca.issue_fallback()?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_cert_resolver(Arc::new(OneCert(key)));
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let bind = SocketAddr::from((Ipv4Addr::LOCALHOST, 0));
        let listener = TcpListener::bind(bind)
            .await
            .map_err(|source| Error::Bind { addr: bind, source })?;
        let addr = listener.local_addr().map_err(|source| Error::Io {
            what: "the TLS proxy's listener",
            source,
        })?;
        let task = tokio::spawn(accept_loop(listener, acceptor, upstream));
        Ok(TlsProxy {
            addr,
            ca_pem: ca.pem().to_owned(),
            task,
        })
    }

    /// Where clients connect (TLS).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The CA that signed the proxy's certificate, PEM.
    pub fn ca_pem(&self) -> &str {
        &self.ca_pem
    }
}

impl Drop for TlsProxy {
    fn drop(&mut self) {
        // The connections live in the loop's JoinSet: aborting the loop drops them too.
        self.task.abort();
    }
}

async fn accept_loop(listener: TcpListener, acceptor: TlsAcceptor, upstream: SocketAddr) {
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut connections = JoinSet::new();
    loop {
        let Ok(permit) = permits.clone().acquire_owned().await else {
            return;
        };
        let Ok((client, _)) = listener.accept().await else {
            continue;
        };
        while connections.try_join_next().is_some() {}
        let acceptor = acceptor.clone();
        connections.spawn(async move {
            let _permit = permit;
            // A failed handshake (a client that does not trust the CA) just ends the connection.
            let _ = proxy(client, acceptor, upstream).await;
        });
    }
}

async fn proxy(
    client: TcpStream,
    acceptor: TlsAcceptor,
    upstream: SocketAddr,
) -> std::io::Result<()> {
    let timed_out = || std::io::Error::from(std::io::ErrorKind::TimedOut);
    let mut tls = tokio::time::timeout(SETUP_TIMEOUT, acceptor.accept(client))
        .await
        .map_err(|_| timed_out())??;
    let mut server = tokio::time::timeout(SETUP_TIMEOUT, TcpStream::connect(upstream))
        .await
        .map_err(|_| timed_out())??;
    tokio::io::copy_bidirectional(&mut tls, &mut server).await?;
    Ok(())
}

/// The one certificate, whatever the client names.
#[derive(Debug)]
struct OneCert(Arc<CertifiedKey>);

impl ResolvesServerCert for OneCert {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(Arc::clone(&self.0))
    }
}
