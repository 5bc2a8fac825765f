//! Recording: what each request carried, and connection counts per IP.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use bytes::Bytes;
use http::Request;
use http_body_util::Full;

use super::client::{fetch, get, send, Proto};
use crate::{Reply, SimWeb, Site};

#[tokio::test]
async fn requests_are_recorded_with_headers_and_bodies_in_order() {
    let web = SimWeb::builder()
        .site(Site::new("r.test").route("/mcp", Reply::accepted()))
        .start()
        .await
        .unwrap();
    let req = Request::post("/mcp?x=1")
        .header("host", format!("r.test:{}", web.port()))
        .header("user-agent", "mcpcensus-test/1")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from_static(
            br#"{"jsonrpc":"2.0","method":"ping"}"#,
        )))
        .unwrap();
    assert_eq!(
        fetch(&web, "r.test", req, Proto::H1).await.unwrap().status,
        202
    );
    assert_eq!(get(&web, "r.test", "/second").await.unwrap().status, 404);

    let seen = web.requests("r.test");
    assert_eq!(seen.len(), 2);
    let first = &seen[0];
    assert_eq!(first.method, "POST");
    assert_eq!(first.path, "/mcp?x=1");
    assert_eq!((first.path_only(), first.query()), ("/mcp", Some("x=1")));
    assert_eq!(first.header("user-agent"), Some("mcpcensus-test/1"));
    assert_eq!(first.json().unwrap()["method"], "ping");
    assert!(!first.body_truncated);
    assert!(
        !first.has_header("authorization")
            && !first.has_header("cookie")
            && !first.has_header("origin")
    );
    assert_eq!(first.version, http::Version::HTTP_11);
    assert_eq!(first.sni.as_deref(), Some("r.test"));
    assert!(first.sni_matched);
    assert!(first.remote.ip().is_loopback());
    assert!(seen[1].seq > first.seq && seen[1].at >= first.at && seen[1].ms >= first.ms);
    assert_eq!(web.request_count("r.test"), 2);
    assert_eq!(web.all_requests().len(), 2);

    web.clear_records();
    assert_eq!(web.request_count("r.test"), 0);
}

#[tokio::test]
async fn bodies_are_capped_and_unknown_hosts_are_recorded() {
    let mut config = crate::Config::default();
    config.record.body_cap = 16;
    let web = SimWeb::builder()
        .config(config)
        .site(Site::new("c.test"))
        .start()
        .await
        .unwrap();
    let req = Request::post("/")
        .header("host", "c.test")
        .body(Full::new(Bytes::from(vec![b'a'; 1000])))
        .unwrap();
    fetch(&web, "c.test", req, Proto::H1).await.unwrap();
    let seen = &web.requests("c.test")[0];
    assert_eq!(seen.body.len(), 16);
    assert!(seen.body_truncated);

    // The SNI names c.test, the Host header another name: 421 and recorded under that name.
    let req = Request::get("/")
        .header("host", "elsewhere.test")
        .body(Full::new(Bytes::new()))
        .unwrap();
    assert_eq!(
        fetch(&web, "c.test", req, Proto::H1).await.unwrap().status,
        421
    );
    let other = &web.requests("elsewhere.test")[0];
    assert!(!other.sni_matched);
    assert_eq!(other.sni.as_deref(), Some("c.test"));
}

#[tokio::test]
async fn connections_are_counted_per_ip_with_peaks() {
    let web = SimWeb::builder()
        .site(
            Site::new("p.test")
                .ip([127, 0, 0, 5])
                .route("/slow", Reply::text("ok").delay(Duration::from_millis(400))),
        )
        .start()
        .await
        .unwrap();
    let ip = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 5));
    let req = || {
        Request::get("/slow")
            .header("host", "p.test")
            .body(Full::new(Bytes::new()))
            .unwrap()
    };
    let (a, b, c) = tokio::join!(
        send(&web, "p.test", req(), Proto::H1),
        send(&web, "p.test", req(), Proto::H1),
        send(&web, "p.test", req(), Proto::H1),
    );
    let responses = [a.unwrap(), b.unwrap(), c.unwrap()];
    assert!(responses.iter().all(|r| r.status() == 200));
    drop(responses);
    let stats = web.connections(ip);
    assert_eq!(stats.accepted, 3);
    assert_eq!(stats.peak, 3);
    assert_eq!(web.connections(IpAddr::V4(Ipv4Addr::LOCALHOST)).accepted, 0);
    assert!(
        web.wait_for_requests("p.test", 3, Duration::from_secs(1))
            .await
    );
}

#[tokio::test]
async fn the_connection_limit_rejects_extra_connections() {
    let web = SimWeb::builder()
        .max_connections(1)
        .site(Site::new("l.test").route("/", Reply::hang()))
        .start()
        .await
        .unwrap();
    let hold = tokio::spawn({
        let addr = web.addr("l.test").unwrap();
        async move { tokio::net::TcpStream::connect(addr).await.unwrap() }
    });
    let _held = hold.await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(get(&web, "l.test", "/").await.is_err());
    let stats = web.connections(IpAddr::V4(Ipv4Addr::LOCALHOST));
    assert_eq!((stats.accepted, stats.rejected, stats.current), (2, 1, 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_sites_register_cheaply_and_serve_concurrently() {
    let web = SimWeb::builder().start().await.unwrap();
    let started = std::time::Instant::now();
    for i in 0..5000u32 {
        let ip = [127, 0, 10 + u8::try_from(i % 4).unwrap(), 1];
        web.add_site(
            Site::new(format!("site{i}.bulk.test"))
                .ip(ip)
                .route("/", Reply::text("ok")),
        )
        .unwrap();
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let web = std::sync::Arc::new(web);
    let mut tasks = Vec::new();
    for i in (0..5000u32).step_by(25) {
        let web = std::sync::Arc::clone(&web);
        tasks.push(tokio::spawn(async move {
            let host = format!("site{i}.bulk.test");
            get(&web, &host, "/").await.map(|a| a.status)
        }));
    }
    for task in tasks {
        assert_eq!(task.await.unwrap().unwrap(), 200);
    }
    let total: u64 = web.all_connections().iter().map(|(_, s)| s.accepted).sum();
    assert_eq!(total, 200);
    assert_eq!(web.total_requests(), 200);
}
