//! The proxy to a plain-HTTP server on loopback.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body::{Body, Frame};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use super::*;
use crate::mcp::{ProxyHost, ProxyOptions};
use crate::Reply;

/// A body fed through a channel (the upstream's event stream).
struct ChannelBody(mpsc::Receiver<Bytes>);

impl Body for ChannelBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.get_mut()
            .0
            .poll_recv(cx)
            .map(|b| b.map(|b| Ok(Frame::data(b))))
    }
}

/// What the upstream saw: method, path, Host, body.
type Seen = Arc<Mutex<Vec<(String, String, String, String)>>>;

async fn handle(req: Request<Incoming>, seen: Seen) -> Result<Response<ChannelBody>, Infallible> {
    let (parts, body) = req.into_parts();
    let body = body
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    let host = parts
        .headers
        .get("host")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    seen.lock().unwrap().push((
        parts.method.to_string(),
        parts.uri.to_string(),
        host,
        String::from_utf8_lossy(&body).into_owned(),
    ));
    let (tx, rx) = mpsc::channel(4);
    let response = if parts.uri.path() == "/stream" {
        tokio::spawn(async move {
            for i in 0..3 {
                let event = format!("event: message\nid: {i}\ndata: {{\"n\":{i}}}\n\n");
                if tx.send(Bytes::from(event)).await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
        Response::builder()
            .status(200)
            .header("content-type", "text/event-stream")
            .header("mcp-session-id", "upstream-session")
            .body(ChannelBody(rx))
    } else {
        let answer = format!(
            "{{\"echo\":{}}}",
            if body.is_empty() {
                "null".into()
            } else {
                String::from_utf8_lossy(&body).into_owned()
            }
        );
        let _ = tx.try_send(Bytes::from(answer.clone()));
        Response::builder()
            .status(if parts.uri.path() == "/missing" {
                404
            } else {
                200
            })
            .header("content-type", "application/json")
            .header("content-length", answer.len())
            .body(ChannelBody(rx))
    };
    Ok(response.unwrap())
}

/// A tiny hyper server on 127.0.0.1:0.
async fn upstream() -> (SocketAddr, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen: Seen = Arc::default();
    let seen_by_server = Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let seen = Arc::clone(&seen_by_server);
            tokio::spawn(async move {
                let service = service_fn(move |req| handle(req, Arc::clone(&seen)));
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    (addr, seen)
}

#[tokio::test]
async fn forwards_requests_and_streams_answers_back() {
    let (addr, seen) = upstream().await;
    let web = web([
        Site::new("front.test").proxy_to(addr),
        Site::new("keep.test").default(Reply::proxy_with(
            addr,
            ProxyOptions {
                host: ProxyHost::Original,
                ..ProxyOptions::default()
            },
        )),
    ])
    .await;

    let body = initialize(1, "2025-11-25");
    let answer = post(
        &web,
        "front.test",
        "/mcp?x=1",
        &body,
        &[("mcp-protocol-version", "2025-11-25")],
    )
    .await;
    assert_eq!(answer.status, 200);
    assert_eq!(header(&answer, "content-type"), Some("application/json"));
    let echoed: Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(echoed["echo"], body);
    let (method, path, host, sent) = seen.lock().unwrap()[0].clone();
    assert_eq!((method.as_str(), path.as_str()), ("POST", "/mcp?x=1"));
    assert_eq!(host, addr.to_string());
    assert_eq!(serde_json::from_str::<Value>(&sent).unwrap(), body);

    let missing = call(&web, "GET", "front.test", "/missing", &[], "").await;
    assert_eq!(missing.status, 404);

    let response = open(
        &web,
        "GET",
        "front.test",
        "/stream",
        &[("accept", "text/event-stream")],
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    assert_eq!(response.headers()["mcp-session-id"], "upstream-session");
    let frames = crate::selftest::client::timed_frames(response)
        .await
        .unwrap();
    assert!(frames.len() >= 3, "streamed in pieces: {}", frames.len());
    assert!(frames.last().unwrap().0 - frames[0].0 >= Duration::from_millis(150));
    let text: String = frames
        .iter()
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect();
    let parsed = events(&text);
    assert_eq!(parsed.len(), 3);
    assert_eq!(parsed[2].data, "{\"n\":2}");

    call(&web, "GET", "keep.test", "/", &[], "").await;
    let host = seen.lock().unwrap().last().unwrap().2.clone();
    assert_eq!(host, format!("keep.test:{}", web.port()));
}

#[tokio::test]
async fn unreachable_or_remote_upstreams_get_502() {
    let closed = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap()
    };
    let web = web([
        Site::new("down.test").proxy_to(closed),
        Site::new("far.test").proxy_to("192.0.2.1:80".parse().unwrap()),
    ])
    .await;
    assert_eq!(
        call(&web, "GET", "down.test", "/", &[], "").await.status,
        502
    );
    assert_eq!(
        call(&web, "GET", "far.test", "/", &[], "").await.status,
        502
    );
}

#[tokio::test]
async fn live_bodies_stream_and_abort() {
    let web = web([Site::new("live.test")
        .route(
            "/ok",
            Reply::handler(|_| {
                let (tx, rx) = mpsc::channel(4);
                tx.try_send(Ok(Bytes::from_static(b"one "))).unwrap();
                tx.try_send(Ok(Bytes::from_static(b"two"))).unwrap();
                Reply::live(rx).content_type("text/plain")
            }),
        )
        .route(
            "/broken",
            Reply::handler(|_| {
                let (tx, rx) = mpsc::channel(4);
                tx.try_send(Ok(Bytes::from_static(b"part"))).unwrap();
                tx.try_send(Err(std::io::Error::other("upstream died")))
                    .unwrap();
                Reply::live(rx)
            }),
        )])
    .await;
    assert_eq!(
        call(&web, "GET", "live.test", "/ok", &[], "").await.text(),
        "one two"
    );
    let req = Request::get("/broken")
        .header("host", format!("live.test:{}", web.port()))
        .body(http_body_util::Full::new(Bytes::new()))
        .unwrap();
    let broken =
        crate::selftest::client::fetch(&web, "live.test", req, crate::selftest::client::Proto::H1)
            .await;
    assert!(broken.is_err(), "an aborted live body fails the transfer");
}
