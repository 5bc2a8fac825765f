//! One request: read and record it, find the site's reply, and turn the reply into a response.

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use http::header::{HeaderName, HeaderValue, HOST};
use http::{Request, Response, StatusCode};
use http_body_util::BodyExt;
use hyper::body::Incoming;

use crate::body::ReplyBody;
use crate::record::RecordedRequest;
use crate::reply::{Kind, Reply, HANG_LIMIT};
use crate::server::Shared;
use crate::site::normalize_host;

/// Handler replies followed at most (a handler may return another handler).
const MAX_HANDLER_DEPTH: usize = 4;

/// Facts about the connection a request came on.
#[derive(Debug)]
pub(crate) struct ConnInfo {
    pub(crate) id: u64,
    pub(crate) remote: SocketAddr,
    pub(crate) local: SocketAddr,
    pub(crate) tls: bool,
    pub(crate) sni: Option<String>,
}

/// The error that makes hyper drop the connection (HTTP/1) or reset the stream (HTTP/2).
#[derive(Debug)]
pub(crate) struct ResetByScript;

impl fmt::Display for ResetByScript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("reset by the site's script")
    }
}

impl std::error::Error for ResetByScript {}

pub(crate) async fn respond(
    req: Request<Incoming>,
    conn: Arc<ConnInfo>,
    shared: Arc<Shared>,
) -> Result<Response<ReplyBody>, ResetByScript> {
    let at = Instant::now();
    let recorded = read_and_record(req, at, &conn, &shared).await;

    let Some(site) = shared.registry.site(&recorded.host) else {
        return Ok(plain(421, "Misdirected Request: no such site here"));
    };
    if !conn.tls && !site.serves_plain() {
        return Ok(plain(400, "The plain HTTP request was sent to HTTPS port"));
    }
    if conn.tls && !site.serves_tls() {
        return Ok(plain(421, "Misdirected Request: this site is plain HTTP"));
    }
    let mut reply = site.reply_for(&recorded.method, &recorded.path).clone();
    drop(site);
    for _ in 0..MAX_HANDLER_DEPTH {
        reply = match &reply.kind {
            Kind::Handler(handler) => handler(&recorded),
            Kind::AsyncHandler(handler) => {
                let future = handler(Arc::clone(&recorded));
                tokio::select! {
                    _ = shared.cancel.cancelled() => return Err(ResetByScript),
                    next = future => next,
                }
            }
            _ => break,
        };
    }
    let delay = reply.head_delay + shared.config.answer_delay;
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    match &reply.kind {
        Kind::Reset => Err(ResetByScript),
        Kind::Hang => {
            tokio::time::sleep(HANG_LIMIT).await;
            Err(ResetByScript)
        }
        Kind::Handler(_) | Kind::AsyncHandler(_) => {
            Ok(plain(500, "simweb: handlers nested too deep"))
        }
        Kind::Body(_) | Kind::Huge(_) | Kind::Sse(_) | Kind::Live(_) => Ok(build(&reply, &shared)),
    }
}

/// Builds the response for a body-carrying reply.
fn build(reply: &Reply, shared: &Shared) -> Response<ReplyBody> {
    let Ok(status) = StatusCode::from_u16(reply.status) else {
        return plain(500, &format!("simweb: invalid status {}", reply.status));
    };
    let mut headers = http::HeaderMap::with_capacity(reply.headers.len());
    for (name, value) in &reply.headers {
        let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_bytes(value),
        ) else {
            return plain(500, &format!("simweb: invalid header {name:?}"));
        };
        headers.append(name, value);
    }
    let body = ReplyBody::from_reply(reply, &shared.tracker, &shared.cancel);
    let mut response = Response::new(body);
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

/// A short text answer produced by the web itself.
fn plain(status: u16, text: &str) -> Response<ReplyBody> {
    let mut response = Response::new(ReplyBody::full(format!("{text}\n")));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

async fn read_and_record(
    req: Request<Incoming>,
    at: Instant,
    conn: &ConnInfo,
    shared: &Shared,
) -> Arc<RecordedRequest> {
    let (parts, body) = req.into_parts();
    let host = request_host(&parts).unwrap_or_else(|| conn.local.ip().to_string());
    let limits = shared.recorder.limits();
    let (body, body_truncated) =
        read_capped(body, limits.body_cap, shared.config.body_read_timeout).await;
    let (body, body_truncated) = if shared.recorder.reserve_body(body.len()) {
        (body, body_truncated)
    } else {
        (Bytes::new(), true)
    };
    let (seq, ms) = shared.recorder.stamp(at);
    let recorded = Arc::new(RecordedRequest {
        seq,
        at,
        ms,
        conn_id: conn.id,
        remote: conn.remote,
        local: conn.local,
        tls: conn.tls,
        sni_matched: conn
            .sni
            .as_deref()
            .is_some_and(|s| normalize_host(s) == host),
        sni: conn.sni.clone(),
        host,
        method: parts.method.as_str().to_string(),
        path: parts
            .uri
            .path_and_query()
            .map_or_else(|| "/".to_string(), |pq| pq.as_str().to_string()),
        version: parts.version,
        headers: parts.headers,
        body,
        body_truncated,
    });
    shared.recorder.record(Arc::clone(&recorded));
    recorded
}

/// The host a request names: the URI's authority (HTTP/2, absolute-form) or the `Host` header,
/// without port, lowercased.
fn request_host(parts: &http::request::Parts) -> Option<String> {
    if let Some(host) = parts.uri.host() {
        return Some(normalize_host(
            host.trim_start_matches('[').trim_end_matches(']'),
        ));
    }
    let value = parts.headers.get(HOST)?.to_str().ok()?;
    let authority: http::uri::Authority = value.parse().ok()?;
    let host = authority.host();
    Some(normalize_host(
        host.trim_start_matches('[').trim_end_matches(']'),
    ))
}

/// Reads up to `cap` body bytes within `deadline`; returns them and whether anything was left
/// unread.
async fn read_capped(mut body: Incoming, cap: usize, deadline: Duration) -> (Bytes, bool) {
    let mut buf = BytesMut::new();
    let read = async {
        while let Some(frame) = body.frame().await {
            let Ok(frame) = frame else { return true };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            let room = cap - buf.len();
            if data.len() > room {
                buf.extend_from_slice(&data[..room]);
                return true;
            }
            buf.extend_from_slice(&data);
        }
        false
    };
    let truncated = tokio::time::timeout(deadline, read).await.unwrap_or(true);
    (buf.freeze(), truncated)
}
