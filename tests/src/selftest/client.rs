//! A minimal test client: one connection per request, TLS trusting only the test CA.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderMap, Request, Response, Version};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::ServerName;
use rustls::{ClientConfig, RootCertStore};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

use crate::SimWeb;

pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A collected answer.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
    pub(crate) version: Version,
}

impl Answer {
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// How to reach the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proto {
    H1,
    H2,
    Plain,
}

pub(crate) fn tls_config(web: &SimWeb, alpn: &[&[u8]]) -> Arc<ClientConfig> {
    let mut roots = RootCertStore::empty();
    roots.add(web.ca_der()).expect("test CA is a valid root");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("default versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Arc::new(config)
}

/// A GET of `path` on `host`, connecting to the site's address.
pub(crate) async fn get(web: &SimWeb, host: &str, path: &str) -> Result<Answer, BoxError> {
    let req = Request::get(path)
        .header("host", format!("{host}:{}", web.port()))
        .body(Full::new(Bytes::new()))?;
    fetch(web, host, req, Proto::H1).await
}

/// Sends `req` to `host` over a fresh connection and collects the answer.
pub(crate) async fn fetch(
    web: &SimWeb,
    host: &str,
    req: Request<Full<Bytes>>,
    proto: Proto,
) -> Result<Answer, BoxError> {
    let response = send(web, host, req, proto).await?;
    collect(response).await
}

pub(crate) async fn collect(response: Response<Incoming>) -> Result<Answer, BoxError> {
    let (parts, body) = response.into_parts();
    let body = body.collect().await?.to_bytes();
    Ok(Answer {
        status: parts.status.as_u16(),
        headers: parts.headers,
        body,
        version: parts.version,
    })
}

/// Sends `req` to `host` over a fresh connection; the body is left to the caller.
pub(crate) async fn send(
    web: &SimWeb,
    host: &str,
    req: Request<Full<Bytes>>,
    proto: Proto,
) -> Result<Response<Incoming>, BoxError> {
    let addr = web.addr(host).ok_or("no such site")?;
    send_to(web, addr, host, req, proto).await
}

pub(crate) async fn send_to(
    web: &SimWeb,
    addr: SocketAddr,
    host: &str,
    req: Request<Full<Bytes>>,
    proto: Proto,
) -> Result<Response<Incoming>, BoxError> {
    assert!(addr.ip().is_loopback(), "tests only talk to loopback");
    let tcp = TcpStream::connect(addr).await?;
    match proto {
        Proto::Plain => h1(TokioIo::new(tcp), req).await,
        Proto::H1 | Proto::H2 => {
            let alpn: &[&[u8]] = if proto == Proto::H2 {
                &[b"h2"]
            } else {
                &[b"http/1.1"]
            };
            let connector = TlsConnector::from(tls_config(web, alpn));
            let name = ServerName::try_from(host.to_string())?;
            let tls = connector.connect(name, tcp).await?;
            if proto == Proto::H2 {
                h2(TokioIo::new(tls), req).await
            } else {
                h1(TokioIo::new(tls), req).await
            }
        }
    }
}

async fn h1<I>(io: I, req: Request<Full<Bytes>>) -> Result<Response<Incoming>, BoxError>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io).await?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender.send_request(req).await?)
}

async fn h2<I>(io: I, mut req: Request<Full<Bytes>>) -> Result<Response<Incoming>, BoxError>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    // HTTP/2 takes the authority from the URI.
    if req.uri().authority().is_none() {
        let host = req
            .headers_mut()
            .remove("host")
            .ok_or("h2 request needs a host")?;
        let uri = format!("https://{}{}", host.to_str()?, req.uri().path());
        *req.uri_mut() = uri.parse()?;
    }
    let (mut sender, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), io).await?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender.send_request(req).await?)
}

/// Reads a body frame by frame, noting when each piece arrived.
pub(crate) async fn timed_frames(
    response: Response<Incoming>,
) -> Result<Vec<(Instant, Bytes)>, BoxError> {
    let mut body = response.into_body();
    let mut frames = Vec::new();
    while let Some(frame) = tokio::time::timeout(Duration::from_secs(10), body.frame()).await? {
        if let Ok(data) = frame?.into_data() {
            frames.push((Instant::now(), data));
        }
    }
    Ok(frames)
}
