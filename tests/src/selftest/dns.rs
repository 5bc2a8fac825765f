//! DNS: answers, NXDOMAIN, faults and counts, queried with hickory-proto over UDP and TCP.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use hickory_proto::op::{Message, Query, ResponseCode};
use hickory_proto::rr::{Name, RData, RecordType};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, UdpSocket};

use crate::{DnsRule, SimWeb, Site};

fn query_bytes(name: &str, qtype: RecordType) -> (u16, Vec<u8>) {
    let mut message = Message::query();
    message.metadata.recursion_desired = true;
    message.add_query(Query::query(Name::from_ascii(name).unwrap(), qtype));
    (message.metadata.id, message.to_vec().unwrap())
}

/// One UDP query; `None` when no answer came within `wait`.
async fn udp_query(web: &SimWeb, name: &str, qtype: RecordType, wait: Duration) -> Option<Message> {
    assert!(web.dns_addr().ip().is_loopback());
    let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let (id, bytes) = query_bytes(name, qtype);
    socket.send_to(&bytes, web.dns_addr()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let (len, _) = tokio::time::timeout(wait, socket.recv_from(&mut buf))
        .await
        .ok()?
        .unwrap();
    let answer = Message::from_vec(&buf[..len]).unwrap();
    assert_eq!(answer.metadata.id, id);
    Some(answer)
}

async fn udp(web: &SimWeb, name: &str, qtype: RecordType) -> Message {
    udp_query(web, name, qtype, Duration::from_secs(5))
        .await
        .expect("an answer")
}

fn addrs(message: &Message) -> Vec<IpAddr> {
    message
        .answers
        .iter()
        .filter_map(|r| match &r.data {
            RData::A(a) => Some(IpAddr::V4(a.0)),
            RData::AAAA(aaaa) => Some(IpAddr::V6(aaaa.0)),
            _ => None,
        })
        .collect()
}

async fn web() -> SimWeb {
    SimWeb::builder()
        .dns_ttl(30)
        .site(Site::new("a.test"))
        .site(Site::new("b.test").ip([127, 0, 0, 2]).ipv6(true).dns_ttl(5))
        .site(Site::new("hidden.test").no_dns())
        .site(Site::new("six.test").ipv6_only())
        .dns(DnsRule::servfail("broken.test"))
        .dns(DnsRule::refused("refused.test"))
        .dns(DnsRule::no_answer("silent.test"))
        .dns(DnsRule::addrs(
            "private.test",
            [
                IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)),
                IpAddr::V6(Ipv4Addr::LOCALHOST.to_ipv6_mapped()),
            ],
        ))
        .dns(
            DnsRule::addrs("slow.test", [IpAddr::V4(Ipv4Addr::LOCALHOST)])
                .delay(Duration::from_millis(300)),
        )
        .start()
        .await
        .unwrap()
}

#[tokio::test]
async fn registered_names_get_their_addresses_with_the_ttl() {
    let web = web().await;
    let a = udp(&web, "a.test.", RecordType::A).await;
    assert_eq!(a.metadata.response_code, ResponseCode::NoError);
    assert_eq!(addrs(&a), vec![IpAddr::V4(Ipv4Addr::LOCALHOST)]);
    assert_eq!(a.answers[0].ttl, 30);

    let b = udp(&web, "B.Test.", RecordType::A).await;
    assert_eq!(addrs(&b), vec![IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2))]);
    assert_eq!(b.answers[0].ttl, 5);
    let b6 = udp(&web, "b.test.", RecordType::AAAA).await;
    assert_eq!(addrs(&b6), vec![IpAddr::V6(Ipv6Addr::LOCALHOST)]);
    // A name with no IPv6 answers AAAA with no records (NODATA), not NXDOMAIN.
    let a6 = udp(&web, "a.test.", RecordType::AAAA).await;
    assert_eq!(a6.metadata.response_code, ResponseCode::NoError);
    assert!(a6.answers.is_empty());

    assert_eq!(web.dns_queries("a.test"), 2);
    assert_eq!(web.dns_queries("b.test"), 2);

    // An IPv6-only site: AAAA ::1, and an A query with no records.
    let six = udp(&web, "six.test.", RecordType::AAAA).await;
    assert_eq!(addrs(&six), vec![IpAddr::V6(Ipv6Addr::LOCALHOST)]);
    let four = udp(&web, "six.test.", RecordType::A).await;
    assert_eq!(four.metadata.response_code, ResponseCode::NoError);
    assert!(four.answers.is_empty());
}

#[tokio::test]
async fn unknown_names_get_nxdomain_and_faults_apply() {
    let web = web().await;
    let unknown = udp(&web, "nowhere.test.", RecordType::A).await;
    assert_eq!(unknown.metadata.response_code, ResponseCode::NXDomain);
    assert_eq!(unknown.authorities.len(), 1, "an SOA for negative caching");
    let hidden = udp(&web, "hidden.test.", RecordType::A).await;
    assert_eq!(hidden.metadata.response_code, ResponseCode::NXDomain);
    let broken = udp(&web, "broken.test.", RecordType::A).await;
    assert_eq!(broken.metadata.response_code, ResponseCode::ServFail);
    let refused = udp(&web, "refused.test.", RecordType::A).await;
    assert_eq!(refused.metadata.response_code, ResponseCode::Refused);
    assert!(udp_query(
        &web,
        "silent.test.",
        RecordType::A,
        Duration::from_millis(300)
    )
    .await
    .is_none());
    assert_eq!(web.dns_queries("silent.test"), 1);

    let private = udp(&web, "private.test.", RecordType::A).await;
    assert_eq!(
        addrs(&private),
        vec![IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1))]
    );
    let mapped = udp(&web, "private.test.", RecordType::AAAA).await;
    assert_eq!(
        addrs(&mapped),
        vec![IpAddr::V6(Ipv4Addr::LOCALHOST.to_ipv6_mapped())]
    );

    let started = std::time::Instant::now();
    let slow = udp(&web, "slow.test.", RecordType::A).await;
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(addrs(&slow).len(), 1);
}

#[tokio::test]
async fn tcp_queries_are_answered_on_the_same_port() {
    let web = web().await;
    let mut stream = TcpStream::connect(web.dns_addr()).await.unwrap();
    for (name, code) in [
        ("a.test.", ResponseCode::NoError),
        ("x.test.", ResponseCode::NXDomain),
    ] {
        let (id, bytes) = query_bytes(name, RecordType::A);
        let len = u16::try_from(bytes.len()).unwrap().to_be_bytes();
        stream.write_all(&len).await.unwrap();
        stream.write_all(&bytes).await.unwrap();
        let mut len = [0u8; 2];
        stream.read_exact(&mut len).await.unwrap();
        let mut answer = vec![0u8; usize::from(u16::from_be_bytes(len))];
        stream.read_exact(&mut answer).await.unwrap();
        let answer = Message::from_vec(&answer).unwrap();
        assert_eq!(answer.metadata.id, id);
        assert_eq!(answer.metadata.response_code, code);
    }
}

#[tokio::test]
async fn rules_and_sites_can_change_while_running() {
    let web = web().await;
    web.add_site(Site::new("new.test").ip([127, 0, 0, 9]))
        .unwrap();
    assert_eq!(
        addrs(&udp(&web, "new.test.", RecordType::A).await),
        vec![IpAddr::V4(Ipv4Addr::new(127, 0, 0, 9))]
    );
    web.add_dns(DnsRule::servfail("new.test"));
    assert_eq!(
        udp(&web, "new.test.", RecordType::A)
            .await
            .metadata
            .response_code,
        ResponseCode::ServFail
    );
    assert!(web.remove_dns("new.test"));
    assert!(web.remove_site("new.test"));
    assert_eq!(
        udp(&web, "new.test.", RecordType::A)
            .await
            .metadata
            .response_code,
        ResponseCode::NXDomain
    );
    // Garbage gets no crash: the server still answers afterwards.
    let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    socket.send_to(b"\x01", web.dns_addr()).await.unwrap();
    socket
        .send_to(b"\x12\x34garbage", web.dns_addr())
        .await
        .unwrap();
    assert_eq!(udp(&web, "a.test.", RecordType::A).await.answers.len(), 1);
}
