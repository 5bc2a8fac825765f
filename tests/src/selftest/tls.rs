//! TLS: the test CA, SNI certificates, addresses and ports, plain HTTP.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use bytes::Bytes;
use http::Request;
use http_body_util::Full;

use super::client::{fetch, get, send_to, Proto};
use crate::{CertMode, Reply, SimWeb, Site};

fn page(name: &str) -> Reply {
    Reply::html(format!("<html>{name}</html>"))
}

#[tokio::test]
async fn two_hosts_on_two_ips_share_the_port_and_verify_with_the_test_ca() {
    let web = SimWeb::builder()
        .site(Site::new("a.test").route("/", page("a")))
        .site(Site::new("b.test").ip([127, 0, 0, 2]).route("/", page("b")))
        .start()
        .await
        .unwrap();
    let a = web.addr("a.test").unwrap();
    let b = web.addr("b.test").unwrap();
    assert_eq!(
        a,
        SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), web.port())
    );
    assert_eq!(
        b,
        SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)), web.port())
    );
    assert!(web.ca_pem().starts_with("-----BEGIN CERTIFICATE-----"));

    let answer_a = get(&web, "a.test", "/").await.unwrap();
    assert_eq!(
        (answer_a.status, answer_a.text().as_str()),
        (200, "<html>a</html>")
    );
    let answer_b = get(&web, "b.test", "/").await.unwrap();
    assert_eq!(
        (answer_b.status, answer_b.text().as_str()),
        (200, "<html>b</html>")
    );

    let seen_b = web.requests("b.test");
    assert_eq!(seen_b.len(), 1);
    assert_eq!(seen_b[0].local, b);
    assert!(seen_b[0].tls && seen_b[0].sni_matched);
    assert_eq!(web.connections(b.ip()).accepted, 1);
    web.shutdown().await;
}

#[tokio::test]
async fn http2_is_negotiated_by_alpn() {
    let web = SimWeb::builder()
        .site(Site::new("h2.test").route("/", page("h2")))
        .start()
        .await
        .unwrap();
    let req = Request::get("/")
        .header("host", "h2.test")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let answer = fetch(&web, "h2.test", req, Proto::H2).await.unwrap();
    assert_eq!(answer.status, 200);
    assert_eq!(answer.version, http::Version::HTTP_2);
    assert_eq!(web.requests("h2.test")[0].version, http::Version::HTTP_2);
}

#[tokio::test]
async fn sites_added_after_start_get_their_address_and_a_certificate() {
    let web = SimWeb::builder().start().await.unwrap();
    for i in 0..50 {
        web.add_site(
            Site::new(format!("s{i}.late.test"))
                .ip([127, 0, 3, 1])
                .route("/", page("late")),
        )
        .unwrap();
    }
    let answer = get(&web, "s7.late.test", "/").await.unwrap();
    assert_eq!(answer.status, 200);
    assert!(web.ips().contains(&IpAddr::V4(Ipv4Addr::new(127, 0, 3, 1))));
    assert!(web
        .add_site(Site::new("far.test").ip([10, 0, 0, 1]))
        .is_err());
}

#[tokio::test]
async fn bad_certificates_fail_verification() {
    let web = SimWeb::builder()
        .site(Site::new("expired.test").cert(CertMode::Expired))
        .site(Site::new("wrong.test").cert(CertMode::WrongHost))
        .site(Site::new("selfsigned.test").cert(CertMode::SelfSigned))
        .site(Site::new("nocert.test").cert(CertMode::Missing))
        .site(Site::new("good.test"))
        .start()
        .await
        .unwrap();
    for host in [
        "expired.test",
        "wrong.test",
        "selfsigned.test",
        "nocert.test",
    ] {
        let err = get(&web, host, "/").await.expect_err(host);
        assert!(!err.to_string().is_empty());
    }
    // A name no site has gets the fallback certificate, which does not name it.
    let addr = web.addr("good.test").unwrap();
    let req = Request::get("/")
        .header("host", "unknown.test")
        .body(Full::new(Bytes::new()))
        .unwrap();
    assert!(send_to(&web, addr, "unknown.test", req, Proto::H1)
        .await
        .is_err());
    assert_eq!(get(&web, "good.test", "/").await.unwrap().status, 404);
    assert!(web.connections(addr.ip()).handshake_failures >= 5);
}

#[tokio::test]
async fn plain_http_sites_share_the_port() {
    let web = SimWeb::builder()
        .site(
            Site::new("plain.test")
                .plain_http()
                .route("/", page("plain")),
        )
        .site(
            Site::new("both.test")
                .http_and_https()
                .route("/", page("both")),
        )
        .site(Site::new("tls.test").route("/", page("tls")))
        .start()
        .await
        .unwrap();
    assert!(web.origin("plain.test").starts_with("http://"));
    let plain = |host: &str| {
        Request::get("/")
            .header("host", host)
            .body(Full::new(Bytes::new()))
            .unwrap()
    };
    let answer = fetch(&web, "plain.test", plain("plain.test"), Proto::Plain)
        .await
        .unwrap();
    assert_eq!(
        (answer.status, answer.text().as_str()),
        (200, "<html>plain</html>")
    );
    let answer = fetch(&web, "both.test", plain("both.test"), Proto::Plain)
        .await
        .unwrap();
    assert_eq!(answer.status, 200);
    assert_eq!(get(&web, "both.test", "/").await.unwrap().status, 200);
    let answer = fetch(&web, "tls.test", plain("tls.test"), Proto::Plain)
        .await
        .unwrap();
    assert_eq!(answer.status, 400);
    assert!(!web.requests("plain.test")[0].tls);
}

#[tokio::test]
async fn ipv6_sites_are_served_on_the_ipv6_loopback() {
    let web = SimWeb::builder()
        .site(Site::new("six.test").ipv6(true).route("/", page("six")))
        .start()
        .await
        .unwrap();
    let addr = SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), web.port());
    let req = Request::get("/")
        .header("host", "six.test")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let response = send_to(&web, addr, "six.test", req, Proto::H1)
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(web.requests("six.test")[0].local, addr);
}

#[tokio::test]
async fn silent_connections_are_closed_after_the_handshake_timeout() {
    use tokio::io::AsyncReadExt;
    let web = SimWeb::builder()
        .handshake_timeout(std::time::Duration::from_millis(200))
        .site(Site::new("quiet.test"))
        .start()
        .await
        .unwrap();
    let addr = web.addr("quiet.test").unwrap();
    let started = std::time::Instant::now();
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut buf = [0u8; 1];
    let read = tokio::time::timeout(std::time::Duration::from_secs(3), stream.read(&mut buf))
        .await
        .expect("closed by the server");
    assert!(matches!(read, Ok(0) | Err(_)));
    assert!(started.elapsed() >= std::time::Duration::from_millis(190));
    assert_eq!(web.connections(addr.ip()).handshake_failures, 1);

    // A half-finished TLS handshake too.
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stream, &[0x16, 0x03, 0x01])
        .await
        .unwrap();
    let read = tokio::time::timeout(std::time::Duration::from_secs(3), stream.read(&mut buf))
        .await
        .expect("closed by the server");
    assert!(matches!(read, Ok(0) | Err(_)));
    assert_eq!(web.connections(addr.ip()).handshake_failures, 2);
}

#[tokio::test]
async fn dropping_the_web_stops_listening() {
    let web = SimWeb::builder()
        .site(Site::new("gone.test"))
        .start()
        .await
        .unwrap();
    let addr = web.addr("gone.test").unwrap();
    let dir = tempfile::tempdir().unwrap();
    web.write_ca_pem(dir.path().join("ca.pem")).unwrap();
    assert!(std::fs::read_to_string(dir.path().join("ca.pem"))
        .unwrap()
        .contains("CERTIFICATE"));
    drop(web);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    loop {
        if tokio::net::TcpStream::connect(addr).await.is_err() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "still accepting after drop"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
