//! The resolver against a tiny DNS responder on 127.0.0.1 (UDP only).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hickory_proto::op::{Message, ResponseCode};
use hickory_proto::rr::rdata::{A, AAAA, SOA};
use hickory_proto::rr::{Name, RData, Record, RecordType};
use tokio::net::UdpSocket;

use crate::net::{NetOptions, ResolveError, Resolver};

const PUBLIC_V4: Ipv4Addr = Ipv4Addr::new(93, 184, 216, 34);
const PUBLIC_V6: Ipv6Addr = Ipv6Addr::new(0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111);

type Queries = Arc<Mutex<HashMap<(String, RecordType), usize>>>;

/// Answers: `a.test` (A and AAAA), `v4.test` (A only), `nx.test` (NXDOMAIN),
/// `fail.test` (SERVFAIL), `empty.test` (no records); `slow.test` is never answered.
async fn dns_responder() -> (SocketAddr, Queries) {
    let socket = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
    let addr = socket.local_addr().expect("addr");
    let queries: Queries = Arc::default();
    let seen = queries.clone();
    tokio::spawn(async move {
        let mut buf = [0u8; 4096];
        loop {
            let Ok((len, peer)) = socket.recv_from(&mut buf).await else {
                return;
            };
            let Ok(request) = Message::from_vec(&buf[..len]) else {
                continue;
            };
            let Some(query) = request.queries.first().cloned() else {
                continue;
            };
            let name = query.name().to_lowercase().to_ascii();
            let qtype = query.query_type();
            *seen
                .lock()
                .expect("lock")
                .entry((name.clone(), qtype))
                .or_default() += 1;
            let mut response = Message::response(request.metadata.id, request.metadata.op_code);
            response.metadata.recursion_desired = true;
            response.metadata.recursion_available = true;
            response.add_query(query.clone());
            let owner = query.name().clone();
            match (name.as_str(), qtype) {
                ("slow.test.", _) => continue,
                ("nx.test.", _) => {
                    response.metadata.response_code = ResponseCode::NXDomain;
                    response.add_authority(soa());
                }
                ("fail.test.", _) => response.metadata.response_code = ResponseCode::ServFail,
                ("a.test." | "v4.test.", RecordType::A) => {
                    response.add_answer(Record::from_rdata(owner, 300, RData::A(A(PUBLIC_V4))));
                }
                ("a.test.", RecordType::AAAA) => {
                    response.add_answer(Record::from_rdata(
                        owner,
                        300,
                        RData::AAAA(AAAA(PUBLIC_V6)),
                    ));
                }
                _ => {
                    response.add_authority(soa());
                }
            }
            let bytes = response.to_vec().expect("encode");
            let _ = socket.send_to(&bytes, peer).await;
        }
    });
    (addr, queries)
}

/// The zone's SOA, so negative answers carry a TTL (300 s) and get cached.
fn soa() -> Record {
    let zone = Name::from_ascii("test.").expect("name");
    let rname = Name::from_ascii("hostmaster.test.").expect("name");
    let soa = SOA::new(zone.clone(), rname, 1, 3600, 600, 86_400, 300);
    Record::from_rdata(zone, 300, RData::SOA(soa))
}

fn options(server: SocketAddr) -> NetOptions {
    NetOptions {
        nameservers: vec![server],
        resolver_timeout: Duration::from_millis(300),
        resolver_attempts: 0,
        ..NetOptions::default()
    }
}

fn count(queries: &Queries, name: &str, qtype: RecordType) -> usize {
    let map = queries.lock().expect("lock");
    map.get(&(name.to_owned(), qtype)).copied().unwrap_or(0)
}

#[tokio::test]
async fn resolves_a_and_aaaa_and_caches_them() {
    let (server, queries) = dns_responder().await;
    let resolver = Resolver::new(&options(server)).expect("resolver");
    let addrs = resolver.resolve("a.test").await.expect("resolves");
    assert_eq!(
        addrs.as_ref(),
        [IpAddr::V4(PUBLIC_V4), IpAddr::V6(PUBLIC_V6)]
    );
    let again = resolver.resolve("A.TEST.").await.expect("resolves");
    assert_eq!(again, addrs);
    assert_eq!(
        count(&queries, "a.test.", RecordType::A),
        1,
        "served from cache"
    );
    assert_eq!(
        count(&queries, "a.test.", RecordType::AAAA),
        1,
        "served from cache"
    );

    let v4 = resolver.resolve("v4.test").await.expect("resolves");
    assert_eq!(v4.as_ref(), [IpAddr::V4(PUBLIC_V4)]);
}

#[tokio::test]
async fn classifies_failures() {
    let (server, queries) = dns_responder().await;
    let resolver = Resolver::new(&options(server)).expect("resolver");
    assert_eq!(
        resolver.resolve("nx.test").await,
        Err(ResolveError::NxDomain)
    );
    assert_eq!(
        resolver.resolve("fail.test").await,
        Err(ResolveError::ServFail)
    );
    assert_eq!(
        resolver.resolve("empty.test").await,
        Err(ResolveError::NoAddresses)
    );
    assert_eq!(
        resolver.resolve("slow.test").await,
        Err(ResolveError::Timeout)
    );
    // Negative answers are cached too.
    let before = count(&queries, "nx.test.", RecordType::A);
    assert_eq!(
        resolver.resolve("nx.test").await,
        Err(ResolveError::NxDomain)
    );
    assert_eq!(count(&queries, "nx.test.", RecordType::A), before);
}

#[tokio::test]
async fn literals_and_static_hosts_skip_dns() {
    let (server, queries) = dns_responder().await;
    let pinned: IpAddr = "127.0.0.7".parse().expect("ip");
    let opts = NetOptions {
        static_hosts: HashMap::from([("Pinned.Test".to_owned(), vec![pinned])]),
        ..options(server)
    };
    let resolver = Resolver::new(&opts).expect("resolver");
    assert_eq!(
        resolver
            .resolve("pinned.test.")
            .await
            .expect("pin")
            .as_ref(),
        [pinned]
    );
    assert_eq!(
        resolver.resolve("[::1]").await.expect("literal").as_ref(),
        [IpAddr::V6(Ipv6Addr::LOCALHOST)]
    );
    assert_eq!(
        resolver
            .resolve("10.1.2.3")
            .await
            .expect("literal")
            .as_ref(),
        [IpAddr::V4(Ipv4Addr::new(10, 1, 2, 3))]
    );
    assert!(queries.lock().expect("lock").is_empty());
}
