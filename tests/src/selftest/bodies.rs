//! Bodies and timing: trickle, huge streams, delays, SSE, resets, aborts and hangs.

use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Request;
use http_body_util::{BodyExt, Full};

use super::client::{get, send, timed_frames, Proto};
use crate::{Reply, SimWeb, Site, SseEvent};

fn req(host: &str, path: &str) -> Request<Full<Bytes>> {
    Request::get(path)
        .header("host", host)
        .body(Full::new(Bytes::new()))
        .unwrap()
}

async fn web(site: Site) -> SimWeb {
    SimWeb::builder().site(site).start().await.unwrap()
}

#[tokio::test]
async fn a_trickled_body_arrives_slowly() {
    let web = web(Site::new("t.test").route(
        "/",
        Reply::text("0123456789").trickle(2, Duration::from_millis(60)),
    ))
    .await;
    let started = Instant::now();
    let response = send(&web, "t.test", req("t.test", "/"), Proto::H1)
        .await
        .unwrap();
    assert_eq!(response.headers()["content-length"], "10");
    let frames = timed_frames(response).await.unwrap();
    let body: Vec<u8> = frames.iter().flat_map(|(_, b)| b.to_vec()).collect();
    assert_eq!(body, b"0123456789");
    assert!(frames.len() >= 4, "{} frames", frames.len());
    // Five pieces, four waits of 60 ms between them.
    assert!(started.elapsed() >= Duration::from_millis(240));
    let spread = frames[frames.len() - 1].0 - frames[0].0;
    assert!(spread >= Duration::from_millis(180), "{spread:?}");
}

#[tokio::test]
async fn a_huge_body_streams() {
    const LEN: u64 = 24 * 1024 * 1024;
    let web = web(Site::new("h.test")
        .route("/", Reply::huge(LEN))
        .route("/chunked", Reply::huge(LEN).chunked()))
    .await;
    let response = send(&web, "h.test", req("h.test", "/"), Proto::H1)
        .await
        .unwrap();
    assert_eq!(
        response.headers()["content-length"],
        LEN.to_string().as_str()
    );
    let mut body = response.into_body();
    let mut total = 0u64;
    while let Some(frame) = body.frame().await {
        total += frame.unwrap().into_data().map_or(0, |d| d.len() as u64);
    }
    assert_eq!(total, LEN);

    // Chunked: no length; the client may stop early and the server stops producing.
    let response = send(&web, "h.test", req("h.test", "/chunked"), Proto::H1)
        .await
        .unwrap();
    assert!(response.headers().get("content-length").is_none());
    let mut body = response.into_body();
    let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
    assert!(!first.is_empty() && first.iter().all(|b| *b == b'x'));
    drop(body);
}

#[tokio::test]
async fn a_delay_holds_back_the_headers() {
    let web =
        web(Site::new("d.test").route("/", Reply::text("late").delay(Duration::from_millis(300))))
            .await;
    let started = Instant::now();
    let answer = get(&web, "d.test", "/").await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(answer.text(), "late");
}

#[tokio::test]
async fn sse_events_come_with_their_delays_and_the_stream_ends() {
    let web = web(Site::new("s.test").route(
        "/events",
        Reply::sse([
            SseEvent::priming("0").retry(1000),
            SseEvent::message(&serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {}}))
                .id("1")
                .after(Duration::from_millis(200)),
        ]),
    ))
    .await;
    let response = send(&web, "s.test", req("s.test", "/events"), Proto::H1)
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let frames = timed_frames(response).await.unwrap();
    let text: String = frames
        .iter()
        .map(|(_, b)| String::from_utf8_lossy(b))
        .collect();
    assert_eq!(
        text,
        "id: 0\nretry: 1000\ndata: \n\nevent: message\nid: 1\ndata: {\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}\n\n"
    );
    assert!(frames[frames.len() - 1].0 - frames[0].0 >= Duration::from_millis(190));
}

#[tokio::test]
async fn a_kept_open_stream_lasts_until_the_client_leaves() {
    let web =
        web(Site::new("o.test").route("/mcp", Reply::sse([SseEvent::data("hello")]).keep_open()))
            .await;
    let ip = web.addr("o.test").unwrap().ip();
    let response = send(&web, "o.test", req("o.test", "/mcp"), Proto::H1)
        .await
        .unwrap();
    let mut body = response.into_body();
    let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
    assert_eq!(&first[..], b"data: hello\n\n");
    let next = tokio::time::timeout(Duration::from_millis(300), body.frame()).await;
    assert!(next.is_err(), "the stream must stay open");
    assert_eq!(web.connections(ip).current, 1);
    drop(body);
    let deadline = Instant::now() + Duration::from_secs(5);
    while web.connections(ip).current > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(web.connections(ip).current, 0);

    // Over HTTP/2 too.
    let response = send(&web, "o.test", req("o.test", "/mcp"), Proto::H2)
        .await
        .unwrap();
    let mut body = response.into_body();
    assert!(body.frame().await.is_some());
    assert!(
        tokio::time::timeout(Duration::from_millis(200), body.frame())
            .await
            .is_err()
    );
}

#[tokio::test]
async fn resets_aborts_and_hangs() {
    let web = web(Site::new("f.test")
        .route("/reset", Reply::reset())
        .route("/abort", Reply::text("x".repeat(1000)).fail_after(100))
        .route("/hang", Reply::hang()))
    .await;
    assert!(get(&web, "f.test", "/reset").await.is_err());
    assert!(send(&web, "f.test", req("f.test", "/reset"), Proto::H2)
        .await
        .is_err());

    let response = send(&web, "f.test", req("f.test", "/abort"), Proto::H1)
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.into_body().collect().await.is_err());

    let hung = tokio::time::timeout(Duration::from_millis(300), get(&web, "f.test", "/hang")).await;
    assert!(hung.is_err(), "no headers may arrive");
    // The client gave up: its connection must not linger on the server.
    let ip = web.addr("f.test").unwrap().ip();
    let deadline = Instant::now() + Duration::from_secs(3);
    while web.connections(ip).current > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(web.connections(ip).current, 0, "hung connection lingers");
    let hung = tokio::time::timeout(
        Duration::from_millis(300),
        send(&web, "f.test", req("f.test", "/hang"), Proto::H2),
    )
    .await;
    assert!(hung.is_err(), "no headers may arrive over HTTP/2 either");
    let deadline = Instant::now() + Duration::from_secs(3);
    while web.connections(ip).current > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(web.connections(ip).current, 0, "hung h2 connection lingers");
    assert_eq!(web.request_count("f.test"), 5);
    // Shutdown ends the hanging request within the grace period.
    let started = Instant::now();
    web.shutdown().await;
    assert!(started.elapsed() < Duration::from_secs(5));
}
