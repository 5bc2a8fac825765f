//! The `/metrics` endpoint: HTTP/1.1 on the given address, one request per connection, at
//! most [`MAX_CONNECTIONS`] at once (more are closed at once) and each connection cut after
//! [`CONNECTION_TIMEOUT`], so a stuck scraper costs the crawl nothing.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use bytes::Bytes;
use http::{header, Method, Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::{Notify, Semaphore};
use tokio_util::sync::CancellationToken;

use super::Metrics;

/// Scrapers served at once.
pub const MAX_CONNECTIONS: usize = 16;
/// A connection's whole life: the request read, the answer written.
pub const CONNECTION_TIMEOUT: Duration = Duration::from_secs(10);
const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The running endpoint; dropping it (or [`MetricsServer::stop`]) stops serving.
pub struct MetricsServer {
    pub addr: SocketAddr,
    stop: CancellationToken,
    /// Told after each scrape that saw the final values.
    final_scraped: Arc<Notify>,
    metrics: Arc<Metrics>,
}

impl MetricsServer {
    /// Binds `addr`: done before the run starts, so a bind failure is a startup error.
    pub async fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
        TcpListener::bind(addr)
            .await
            .with_context(|| format!("--metrics: cannot listen on {addr}"))
    }

    /// Serves `metrics` on the bound listener in the background.
    pub fn start(listener: TcpListener, metrics: Arc<Metrics>) -> anyhow::Result<MetricsServer> {
        let addr = listener.local_addr()?;
        let stop = CancellationToken::new();
        let final_scraped = Arc::new(Notify::new());
        tokio::spawn(serve(
            listener,
            metrics.clone(),
            stop.clone(),
            final_scraped.clone(),
        ));
        tracing::info!(%addr, "serving metrics at /metrics");
        Ok(MetricsServer {
            addr,
            stop,
            final_scraped,
            metrics,
        })
    }

    /// Marks the values final, then waits up to `linger` for one scrape of them.
    pub async fn finish(self, linger: Duration) {
        self.metrics.finish();
        if !linger.is_zero() {
            let scraped = self.final_scraped.notified();
            if tokio::time::timeout(linger, scraped).await.is_err() {
                tracing::info!("no scrape of the final metrics within the linger time");
            }
        }
        self.stop.cancel();
    }
}

impl Drop for MetricsServer {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn serve(
    listener: TcpListener,
    metrics: Arc<Metrics>,
    stop: CancellationToken,
    final_scraped: Arc<Notify>,
) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let stream = tokio::select! {
            _ = stop.cancelled() => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors, say: the crawl matters more; try again shortly.
                    tracing::debug!(error = %e, "metrics: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let (metrics, final_scraped) = (metrics.clone(), final_scraped.clone());
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let answer = answer(&metrics, &final_scraped, &req);
                async move { Ok::<_, Infallible>(answer) }
            });
            let conn = hyper::server::conn::http1::Builder::new()
                .keep_alive(false)
                .serve_connection(TokioIo::new(stream), service);
            let _ = tokio::time::timeout(CONNECTION_TIMEOUT, conn).await;
            drop(slot);
        });
    }
}

fn answer(
    metrics: &Metrics,
    final_scraped: &Notify,
    req: &Request<Incoming>,
) -> Response<Full<Bytes>> {
    let reply = |status: StatusCode, ty: &'static str, body: String| {
        let mut resp = Response::new(Full::new(Bytes::from(body)));
        *resp.status_mut() = status;
        resp.headers_mut()
            .insert(header::CONTENT_TYPE, header::HeaderValue::from_static(ty));
        resp
    };
    if req.uri().path() != "/metrics" {
        return reply(StatusCode::NOT_FOUND, "text/plain", "see /metrics\n".into());
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return reply(
            StatusCode::METHOD_NOT_ALLOWED,
            "text/plain",
            "GET only\n".into(),
        );
    }
    let finished = metrics.finished();
    let body = metrics.encode();
    if finished {
        final_scraped.notify_one();
    }
    reply(StatusCode::OK, CONTENT_TYPE, body)
}
