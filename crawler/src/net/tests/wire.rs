//! The client's own HTTP/1.1 exchange against servers that write raw bytes, as real and
//! hostile servers do: interim answers, the chunked coding with trailers, bodies that end at
//! the close, `Connection: close`, bytes nobody asked for, broken framing, idle connections
//! the server closed.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use http::StatusCode;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use url::Url;

use super::support::SITE;
use crate::net::{FetchError, FetchRequest, Net};

/// A plain-HTTP server on 127.0.0.1: connection `n` (from 0) gets `answers(n)`, one element a
/// request read (the whole head), then closes if `close_after(n)`.
struct RawServer {
    port: u16,
    accepted: Arc<AtomicUsize>,
}

type Script = fn(usize) -> (Vec<&'static str>, bool);

async fn raw_server(script: Script) -> RawServer {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let n = count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(serve(stream, script(n)));
        }
    });
    RawServer { port, accepted }
}

async fn serve(mut stream: TcpStream, (answers, close): (Vec<&'static str>, bool)) {
    let mut seen = Vec::new();
    for answer in answers {
        // One request head (the client's GETs carry no body).
        loop {
            if let Some(end) = seen.windows(4).position(|w| w == b"\r\n\r\n") {
                seen.drain(..end + 4);
                break;
            }
            let mut buf = [0u8; 1024];
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => seen.extend_from_slice(&buf[..n]),
            }
        }
        if stream.write_all(answer.as_bytes()).await.is_err() {
            return;
        }
    }
    if !close {
        // Keep the connection open until the client closes it.
        let mut buf = [0u8; 64];
        while matches!(stream.read(&mut buf).await, Ok(n) if n > 0) {}
    }
}

fn net() -> Net {
    Net::new(crate::testkit::net_options(&[SITE], None)).expect("net")
}

fn get(server: &RawServer, path: &str) -> FetchRequest {
    let url = Url::parse(&format!("http://{SITE}:{}{path}", server.port)).expect("url");
    FetchRequest::get(url)
}

const CHUNKED: &str = "HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n\
    HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
    5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n";
const LENGTH: &str = "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found";

#[tokio::test]
async fn chunked_bodies_past_interim_answers_come_whole_on_one_connection() {
    let server = raw_server(|_| (vec![CHUNKED, LENGTH, CHUNKED], false)).await;
    let net = net();
    let site = net.site_client();
    for (status, body) in [
        (StatusCode::OK, "hello, world"),
        (StatusCode::NOT_FOUND, "not found"),
        (StatusCode::OK, "hello, world"),
    ] {
        let response = site.fetch(get(&server, "/")).await.expect("fetch");
        assert_eq!(response.status, status);
        assert_eq!(response.body.as_ref(), body.as_bytes());
    }
    assert_eq!(server.accepted.load(Ordering::SeqCst), 1, "one connection");
}

#[tokio::test]
async fn a_body_that_ends_at_the_close_is_read_and_its_connection_not_kept() {
    const UNTIL_CLOSE: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html>end";
    const CLOSE: &str = "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok";
    let server = raw_server(|n| {
        if n == 0 {
            (vec![UNTIL_CLOSE], true)
        } else {
            (vec![CLOSE], false)
        }
    })
    .await;
    let net = net();
    let site = net.site_client();
    let first = site.fetch(get(&server, "/")).await.expect("fetch");
    assert_eq!(first.body.as_ref(), b"<html>end");
    let second = site.fetch(get(&server, "/")).await.expect("fetch");
    assert_eq!(second.body.as_ref(), b"ok");
    let third = site.fetch(get(&server, "/")).await.expect("fetch");
    assert_eq!(third.body.as_ref(), b"ok");
    assert_eq!(
        server.accepted.load(Ordering::SeqCst),
        3,
        "neither a body ending at the close nor `Connection: close` leaves a connection to reuse"
    );
}

#[tokio::test]
async fn bytes_nobody_asked_for_are_never_read_as_the_next_answer() {
    // The first connection sends a second answer with the first; a reused connection would
    // hand it to the next request as that request's answer.
    const SMUGGLED: &str = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n\
        HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nevil";
    let server = raw_server(|n| {
        if n == 0 {
            (vec![SMUGGLED], false)
        } else {
            (vec![LENGTH], false)
        }
    })
    .await;
    let net = net();
    let site = net.site_client();
    let first = site.fetch(get(&server, "/")).await.expect("fetch");
    assert_eq!(first.status, StatusCode::NOT_FOUND);
    let second = site.fetch(get(&server, "/")).await.expect("fetch");
    assert_eq!(second.status, StatusCode::NOT_FOUND);
    assert_eq!(second.body.as_ref(), b"not found");
    assert_eq!(server.accepted.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn an_idle_connection_the_server_closed_is_not_used() {
    // The server answers once and closes without saying so.
    let server = raw_server(|_| (vec![LENGTH], true)).await;
    let net = net();
    let site = net.site_client();
    for _ in 0..3 {
        let response = site.fetch(get(&server, "/")).await.expect("fetch");
        assert_eq!(response.body.as_ref(), b"not found");
    }
    assert_eq!(server.accepted.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn broken_framing_is_a_protocol_error_and_a_short_body_a_reset() {
    const CONFLICT: &str =
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!";
    const NOT_HTTP: &str = "SSH-2.0-OpenSSH_9.6\r\n\r\n";
    const BAD_CHUNK: &str = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n";
    const SHORT: &str = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this";
    let server = raw_server(|n| {
        let answer = [CONFLICT, NOT_HTTP, BAD_CHUNK, SHORT][n % 4];
        (vec![answer], true)
    })
    .await;
    let net = net();
    let site = net.site_client();
    for (what, protocol) in [
        ("conflicting lengths", true),
        ("not HTTP", true),
        ("a bad chunk size", true),
        ("a short body", false),
    ] {
        let err = site.fetch(get(&server, "/")).await.expect_err(what);
        assert_eq!(
            matches!(err, FetchError::Protocol { .. }),
            protocol,
            "{what}: {err}"
        );
        assert_eq!(
            matches!(err, FetchError::Reset { .. }),
            !protocol,
            "{what}: {err}"
        );
    }
}

#[tokio::test]
async fn a_long_head_of_many_reads_comes_whole() {
    // 60 KB of headers in pieces: the head is read across many reads into a grown buffer.
    let server = raw_server(|_| {
        let cookie = format!("Set-Cookie: {}\r\n", "c".repeat(4000));
        let head = format!(
            "HTTP/1.1 200 OK\r\n{}Content-Length: 2\r\n\r\nok",
            cookie.repeat(15)
        );
        (vec![Box::leak(head.into_boxed_str())], false)
    })
    .await;
    let net = net();
    let response = net
        .site_client()
        .fetch(get(&server, "/"))
        .await
        .expect("fetch");
    assert_eq!(response.headers.get_all("set-cookie").iter().count(), 15);
    assert_eq!(response.body.as_ref(), b"ok");
}

#[tokio::test]
async fn a_body_dropped_unread_keeps_the_connection_when_it_came_whole() {
    // A 405 with an empty chunked body and a 404 with a short one: the scan decides on the
    // head and drops the body; the rest is already read, so the connection stays the site's.
    const EMPTY_CHUNKED: &str =
        "HTTP/1.1 405 Method Not Allowed\r\nAllow: POST\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
    let server = raw_server(|_| (vec![EMPTY_CHUNKED, LENGTH, CHUNKED, LENGTH], false)).await;
    let net = net();
    let site = net.site_client();
    for status in [405, 404, 200] {
        let head = site.fetch_head(get(&server, "/")).await.expect("head");
        assert_eq!(head.status.as_u16(), status);
        drop(head);
    }
    let last = site.fetch(get(&server, "/")).await.expect("fetch");
    assert_eq!(last.body.as_ref(), b"not found");
    assert_eq!(server.accepted.load(Ordering::SeqCst), 1);
}
