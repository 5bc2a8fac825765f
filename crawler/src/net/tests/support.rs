//! A small TLS (or plain) HTTP server on 127.0.0.1:0 that records what it sees, and a test CA.

use std::convert::Infallible;
use std::io::Write as _;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, Request, Response, StatusCode, Version};
use http_body::Frame;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use rustls::ServerConfig;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;

/// The host name the test certificate is for.
pub const SITE: &str = "site.test";

/// A CA and a leaf certificate for [`SITE`], with the CA written to a PEM file.
pub struct TestPki {
    pub ca_file: tempfile::NamedTempFile,
    leaf: CertificateDer<'static>,
    key: Vec<u8>,
}

impl TestPki {
    pub fn new() -> Self {
        let ca_key = KeyPair::generate().expect("ca key");
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("ca params");
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let ca_cert = ca_params.self_signed(&ca_key).expect("ca cert");
        let issuer = Issuer::new(ca_params, ca_key);
        let leaf_key = KeyPair::generate().expect("leaf key");
        let leaf = CertificateParams::new(vec![SITE.to_owned()])
            .expect("leaf params")
            .signed_by(&leaf_key, &issuer)
            .expect("leaf cert");
        let mut ca_file = tempfile::NamedTempFile::new().expect("temp file");
        ca_file
            .write_all(ca_cert.pem().as_bytes())
            .expect("write CA");
        Self {
            ca_file,
            leaf: leaf.der().clone(),
            key: leaf_key.serialize_der(),
        }
    }

    fn server_config(&self, h2: bool) -> Arc<ServerConfig> {
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.key.clone()));
        let mut config =
            ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .expect("versions")
                .with_no_client_auth()
                .with_single_cert(vec![self.leaf.clone()], key)
                .expect("server config");
        config.alpn_protocols = if h2 {
            vec![b"h2".to_vec(), b"http/1.1".to_vec()]
        } else {
            vec![b"http/1.1".to_vec()]
        };
        Arc::new(config)
    }
}

/// What a request looked like on arrival.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    pub version: Version,
    pub headers: HeaderMap,
}

/// Counters the server keeps.
#[derive(Debug, Default)]
pub struct Stats {
    /// TCP connections accepted.
    pub accepted: AtomicUsize,
    /// Connections open now.
    pub active: AtomicUsize,
    /// Most connections open at once.
    pub max_active: AtomicUsize,
    /// Requests, in arrival order.
    pub requests: Mutex<Vec<Seen>>,
    /// Body bytes handed to the socket layer by streaming routes.
    pub streamed: AtomicUsize,
}

impl Stats {
    pub fn requests(&self) -> Vec<Seen> {
        self.requests.lock().expect("lock").clone()
    }
}

struct Active(Arc<Stats>);

impl Active {
    fn open(stats: &Arc<Stats>) -> Self {
        let now = stats.active.fetch_add(1, Ordering::SeqCst) + 1;
        stats.max_active.fetch_max(now, Ordering::SeqCst);
        Self(stats.clone())
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How the server talks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// TLS, ALPN h2 and http/1.1.
    TlsH2,
    /// TLS, ALPN http/1.1 only.
    TlsH1,
    /// Plain TCP.
    Plain,
}

/// A running server; stops when its task is aborted at drop.
pub struct Server {
    pub addr: SocketAddr,
    pub stats: Arc<Stats>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Server {
    pub async fn start(pki: &TestPki, mode: Mode) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let stats = Arc::new(Stats::default());
        let acceptor = match mode {
            Mode::TlsH2 => Some(TlsAcceptor::from(pki.server_config(true))),
            Mode::TlsH1 => Some(TlsAcceptor::from(pki.server_config(false))),
            Mode::Plain => None,
        };
        let task_stats = stats.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                task_stats.accepted.fetch_add(1, Ordering::SeqCst);
                let stats = task_stats.clone();
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let _active = Active::open(&stats);
                    match acceptor {
                        Some(acceptor) => {
                            if let Ok(tls) = acceptor.accept(tcp).await {
                                serve(TokioIo::new(tls), stats.clone()).await;
                            }
                        }
                        None => serve(TokioIo::new(tcp), stats.clone()).await,
                    }
                });
            }
        });
        Self { addr, stats, task }
    }
}

async fn serve<I>(io: I, stats: Arc<Stats>)
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let service = service_fn(move |req| {
        let stats = stats.clone();
        async move { Ok::<_, Infallible>(route(req, stats).await) }
    });
    let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
        .serve_connection(io, service)
        .await;
}

type Body = BoxBody<Bytes, Infallible>;

fn full(text: &'static str) -> Body {
    Full::new(Bytes::from_static(text.as_bytes())).boxed()
}

fn respond(status: StatusCode, body: Body) -> Response<Body> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response
}

/// A body fed from a channel, so routes can stream and trickle.
struct ChannelBody(mpsc::Receiver<Bytes>);

impl http_body::Body for ChannelBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0
            .poll_recv(cx)
            .map(|chunk| chunk.map(|c| Ok(Frame::data(c))))
    }
}

fn stream(chunks: usize, chunk: Bytes, every: Duration, stats: Arc<Stats>) -> Body {
    let (tx, rx) = mpsc::channel(1);
    tokio::spawn(async move {
        for _ in 0..chunks {
            if !every.is_zero() {
                tokio::time::sleep(every).await;
            }
            if tx.send(chunk.clone()).await.is_err() {
                return;
            }
            stats.streamed.fetch_add(chunk.len(), Ordering::SeqCst);
        }
    });
    BodyExt::boxed(ChannelBody(rx))
}

/// Routes: `/ok`, `/redirect`, `/big` (10 MB), `/slow-headers`, `/trickle`, `/hold`,
/// `/busy` (429 + Retry-After), `/sse` (events 1..=5, 50 ms apart).
async fn route(req: Request<Incoming>, stats: Arc<Stats>) -> Response<Body> {
    let path = req.uri().path().to_owned();
    stats.requests.lock().expect("lock").push(Seen {
        path: path.clone(),
        version: req.version(),
        headers: req.headers().clone(),
    });
    match path.as_str() {
        "/ok" => respond(StatusCode::OK, full("hello")),
        "/redirect" => {
            let mut response = respond(StatusCode::FOUND, full(""));
            response.headers_mut().insert(
                http::header::LOCATION,
                http::HeaderValue::from_static("/ok"),
            );
            response
        }
        "/big" => {
            let chunk = Bytes::from(vec![b'x'; 64 * 1024]);
            let body = stream(160, chunk, Duration::ZERO, stats);
            respond(StatusCode::OK, body)
        }
        "/slow-headers" => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            respond(StatusCode::OK, full("late"))
        }
        "/trickle" => {
            let body = stream(
                100,
                Bytes::from_static(b"."),
                Duration::from_millis(100),
                stats,
            );
            respond(StatusCode::OK, body)
        }
        "/hold" => {
            tokio::time::sleep(Duration::from_millis(150)).await;
            respond(StatusCode::OK, full("held"))
        }
        "/busy" => {
            let mut response = respond(StatusCode::TOO_MANY_REQUESTS, full("slow down"));
            response.headers_mut().insert(
                http::header::RETRY_AFTER,
                http::HeaderValue::from_static("7"),
            );
            response
        }
        "/unavailable" => respond(StatusCode::SERVICE_UNAVAILABLE, full("no backend")),
        "/unavailable-later" => {
            let mut response = respond(StatusCode::SERVICE_UNAVAILABLE, full("later"));
            response.headers_mut().insert(
                http::header::RETRY_AFTER,
                http::HeaderValue::from_static("7"),
            );
            response
        }
        "/sse" => {
            let (tx, rx) = mpsc::channel(1);
            tokio::spawn(async move {
                for id in 1..=5 {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    let event = format!("event: message\ndata: {{\"id\":{id}}}\n\n");
                    if tx.send(Bytes::from(event)).await.is_err() {
                        return;
                    }
                }
            });
            let mut response = respond(StatusCode::OK, BodyExt::boxed(ChannelBody(rx)));
            response.headers_mut().insert(
                http::header::CONTENT_TYPE,
                http::HeaderValue::from_static("text/event-stream"),
            );
            response
        }
        _ => respond(StatusCode::NOT_FOUND, full("no such route")),
    }
}
