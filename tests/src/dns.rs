//! The DNS server: A/AAAA for the registered sites, NXDOMAIN for the rest, and per-name faults.
//! A hand-written UDP and TCP loop on hickory-proto; it only answers, it never connects out.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use hickory_proto::op::{Edns, Message, MessageType, OpCode, ResponseCode};
use hickory_proto::rr::rdata::{A, AAAA, CNAME, SOA};
use hickory_proto::rr::{Name, RData, Record, RecordType};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream, UdpSocket};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::registry::Registry;
use crate::site::normalize_host;
use crate::Error;

/// Attempts at finding a port free for both UDP and TCP.
const BIND_ATTEMPTS: u32 = 32;
/// Largest UDP answer without EDNS (RFC 1035).
const UDP_PLAIN_LIMIT: usize = 512;
/// Largest UDP answer we ever send with EDNS.
const UDP_EDNS_LIMIT: u16 = 1232;
/// Receive buffer asked for the UDP socket: a crawl at a few thousand lookups a second sends
/// bursts the default (about 200 KB, some 250 queries) drops while the web is busy; the
/// kernel caps it at `net.core.rmem_max`.
const UDP_RECV_BUFFER: usize = 4 << 20;
/// Delayed UDP answers in flight at once; past it, delayed queries are dropped.
const MAX_DELAYED_UDP: usize = 1024;
/// TCP connections served at once; past it, new ones are closed.
const MAX_TCP_CONNS: usize = 256;
/// How long a TCP connection may sit idle between queries.
const TCP_IDLE: Duration = Duration::from_secs(10);
/// The SOA sent with negative answers (so resolvers cache them for the TTL).
const SOA_MNAME: &str = "ns.simweb.invalid.";
const SOA_RNAME: &str = "hostmaster.simweb.invalid.";
/// Distinct names whose queries are counted one by one; the rest are counted in the total only.
const MAX_COUNTED_NAMES: usize = 1_000_000;

/// What the DNS server does for one name, overriding the registered sites.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DnsBehaviour {
    /// Answer with these addresses (A queries get the IPv4 ones, AAAA the IPv6 ones; any
    /// address at all, e.g. 10.0.0.1 or ::ffff:127.0.0.1, for guard tests).
    Answer(Vec<IpAddr>),
    /// NXDOMAIN.
    NxDomain,
    /// SERVFAIL.
    ServFail,
    /// REFUSED.
    Refused,
    /// No answer at all (the query is dropped): the client times out.
    NoAnswer,
    /// A chain of CNAMEs (each name to the next), the last one answered with these addresses.
    CnameChain(Vec<String>, Vec<IpAddr>),
    /// An answer to a question that was not asked (another name, A records for it): garbage a
    /// resolver must not take for the answer.
    Garbage,
}

/// A per-name DNS rule. Names are matched exactly (case-insensitive, trailing dot ignored);
/// a rule for `*.example.test` answers every name below `example.test` that has no rule of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DnsRule {
    name: String,
    behaviour: DnsBehaviour,
    ttl: Option<u32>,
    delay: Duration,
}

impl DnsRule {
    /// A rule with any behaviour.
    pub fn new(name: &str, behaviour: DnsBehaviour) -> Self {
        Self {
            name: normalize_host(name),
            behaviour,
            ttl: None,
            delay: Duration::ZERO,
        }
    }

    /// Answer SERVFAIL.
    pub fn servfail(name: &str) -> Self {
        Self::new(name, DnsBehaviour::ServFail)
    }

    /// Answer NXDOMAIN (even when a site has the name).
    pub fn nxdomain(name: &str) -> Self {
        Self::new(name, DnsBehaviour::NxDomain)
    }

    /// Answer REFUSED.
    pub fn refused(name: &str) -> Self {
        Self::new(name, DnsBehaviour::Refused)
    }

    /// Never answer.
    pub fn no_answer(name: &str) -> Self {
        Self::new(name, DnsBehaviour::NoAnswer)
    }

    /// Answer with these addresses.
    pub fn addrs(name: &str, addrs: impl IntoIterator<Item = IpAddr>) -> Self {
        Self::new(name, DnsBehaviour::Answer(addrs.into_iter().collect()))
    }

    /// TTL of the answer records.
    pub fn ttl(mut self, seconds: u32) -> Self {
        self.ttl = Some(seconds);
        self
    }

    /// Wait this long before answering.
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// The normalized name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The behaviour.
    pub fn behaviour(&self) -> &DnsBehaviour {
        &self.behaviour
    }
}

/// What to do with one query.
enum Decision {
    Answer { message: Message, delay: Duration },
    Silent,
}

/// State shared by the DNS tasks.
pub(crate) struct DnsServer {
    registry: Arc<Registry>,
    default_ttl: u32,
    total: AtomicU64,
    per_name: Mutex<HashMap<String, u64>>,
}

impl DnsServer {
    pub(crate) fn new(registry: Arc<Registry>, default_ttl: u32) -> Self {
        Self {
            registry,
            default_ttl,
            total: AtomicU64::new(0),
            per_name: Mutex::new(HashMap::new()),
        }
    }

    /// Queries received for `name` (any type).
    pub(crate) fn queries(&self, name: &str) -> u64 {
        let map = self.per_name.lock().unwrap_or_else(PoisonError::into_inner);
        map.get(&normalize_host(name)).copied().unwrap_or(0)
    }

    /// Queries received in all.
    pub(crate) fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    pub(crate) fn reset_counts(&self) {
        self.per_name
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.total.store(0, Ordering::Relaxed);
    }

    fn count(&self, name: &str) {
        self.total.fetch_add(1, Ordering::Relaxed);
        let mut map = self.per_name.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = map.get_mut(name) {
            *n += 1;
        } else if map.len() < MAX_COUNTED_NAMES {
            map.insert(name.to_string(), 1);
        }
    }

    /// Binds UDP and TCP on one port of 127.0.0.1 and serves until `cancel`.
    pub(crate) fn start(
        self: &Arc<Self>,
        cancel: &CancellationToken,
        tracker: &TaskTracker,
    ) -> Result<SocketAddr, Error> {
        let (udp, tcp, addr) = bind_udp_tcp()?;
        let (server, udp_cancel, udp_tracker) = (Arc::clone(self), cancel.clone(), tracker.clone());
        // UDP is served on a thread and runtime of its own: behind the web's TLS handshakes on
        // a busy machine, a query waited its turn long enough for resolvers to time out.
        tracker.spawn_blocking(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => {
                    tracing::error!(error = %e, "dns udp runtime could not start");
                    return;
                }
            };
            runtime.block_on(async move {
                match UdpSocket::from_std(udp) {
                    Ok(udp) => {
                        server
                            .serve_udp(Arc::new(udp), udp_cancel, udp_tracker)
                            .await
                    }
                    Err(e) => tracing::error!(error = %e, "dns udp registration failed"),
                }
            });
        });
        tracker.spawn(Arc::clone(self).serve_tcp(tcp, cancel.clone(), tracker.clone()));
        Ok(addr)
    }

    fn decide(&self, packet: &[u8]) -> Decision {
        let request = match Message::from_vec(packet) {
            Ok(m) => m,
            Err(_) if packet.len() >= 2 => {
                let id = u16::from_be_bytes([packet[0], packet[1]]);
                return Decision::Answer {
                    message: Message::error_msg(id, OpCode::Query, ResponseCode::FormErr),
                    delay: Duration::ZERO,
                };
            }
            Err(_) => return Decision::Silent,
        };
        let meta = &request.metadata;
        if meta.message_type != MessageType::Query {
            return Decision::Silent;
        }
        let mut response = Message::response(meta.id, meta.op_code);
        response.metadata.recursion_desired = meta.recursion_desired;
        response.metadata.recursion_available = true;
        if request.edns.is_some() {
            let mut edns = Edns::new();
            edns.set_max_payload(UDP_EDNS_LIMIT);
            response.set_edns(edns);
        }
        if meta.op_code != OpCode::Query {
            response.metadata.response_code = ResponseCode::NotImp;
            return answer(response, Duration::ZERO);
        }
        let [query] = request.queries.as_slice() else {
            response.metadata.response_code = ResponseCode::FormErr;
            return answer(response, Duration::ZERO);
        };
        response.add_query(query.clone());
        let name = normalize_host(&query.name().to_ascii());
        self.count(&name);

        let (behaviour, ttl, delay) = match self.registry.dns_rule(&name) {
            Some(rule) => (
                rule.behaviour.clone(),
                rule.ttl.unwrap_or(self.default_ttl),
                rule.delay,
            ),
            None => match self.registry.site(&name).filter(|s| s.in_dns()) {
                Some(site) => {
                    let mut addrs = Vec::new();
                    if !site.is_ipv6_only() {
                        addrs.push(IpAddr::V4(site.ipv4()));
                    }
                    if site.has_ipv6() {
                        addrs.push(IpAddr::V6(Ipv6Addr::LOCALHOST));
                    }
                    (
                        DnsBehaviour::Answer(addrs),
                        site.ttl().unwrap_or(self.default_ttl),
                        Duration::ZERO,
                    )
                }
                None => (DnsBehaviour::NxDomain, self.default_ttl, Duration::ZERO),
            },
        };
        response.metadata.authoritative = true;
        match behaviour {
            DnsBehaviour::NoAnswer => return Decision::Silent,
            DnsBehaviour::NxDomain => {
                response.metadata.response_code = ResponseCode::NXDomain;
                response.add_authorities(soa(query.name(), ttl));
            }
            DnsBehaviour::ServFail => {
                response.metadata.authoritative = false;
                response.metadata.response_code = ResponseCode::ServFail;
            }
            DnsBehaviour::Refused => {
                response.metadata.authoritative = false;
                response.metadata.response_code = ResponseCode::Refused;
            }
            DnsBehaviour::CnameChain(chain, addrs) => {
                let mut owner = query.name().clone();
                for next in &chain {
                    let Ok(target) = Name::from_ascii(format!("{next}.")) else {
                        continue;
                    };
                    let rdata = RData::CNAME(CNAME(target.clone()));
                    response.add_answer(Record::from_rdata(owner, ttl, rdata));
                    owner = target;
                }
                for ip in addrs.iter().filter_map(|ip| match ip {
                    IpAddr::V4(v4) => Some(RData::A(A(*v4))),
                    IpAddr::V6(_) => None,
                }) {
                    response.add_answer(Record::from_rdata(owner.clone(), ttl, ip));
                }
            }
            DnsBehaviour::Garbage => {
                let other = Name::from_ascii("garbage.simweb.invalid.").unwrap_or_default();
                let mut wrong = Message::response(meta.id, meta.op_code);
                wrong.add_query(hickory_proto::op::Query::query(
                    other.clone(),
                    RecordType::A,
                ));
                wrong.add_answer(Record::from_rdata(
                    other,
                    ttl,
                    RData::A(A(Ipv4Addr::new(127, 9, 9, 9))),
                ));
                return answer(wrong, delay);
            }
            DnsBehaviour::Answer(addrs) => {
                let qtype = query.query_type();
                for ip in addrs {
                    let rdata = match (qtype, ip) {
                        (RecordType::A | RecordType::ANY, IpAddr::V4(v4)) => RData::A(A(v4)),
                        (RecordType::AAAA | RecordType::ANY, IpAddr::V6(v6)) => {
                            RData::AAAA(AAAA(v6))
                        }
                        _ => continue,
                    };
                    response.add_answer(Record::from_rdata(query.name().clone(), ttl, rdata));
                }
                if response.answers.is_empty() {
                    response.add_authorities(soa(query.name(), ttl));
                }
            }
        }
        answer(response, delay)
    }

    async fn serve_udp(
        self: Arc<Self>,
        socket: Arc<UdpSocket>,
        cancel: CancellationToken,
        tracker: TaskTracker,
    ) {
        let delayed = Arc::new(Semaphore::new(MAX_DELAYED_UDP));
        let mut buf = vec![0u8; 65_535];
        loop {
            let received = tokio::select! {
                _ = cancel.cancelled() => return,
                r = socket.recv_from(&mut buf) => r,
            };
            let (len, peer) = match received {
                Ok(r) => r,
                Err(e) => {
                    tracing::debug!(error = %e, "dns udp receive failed");
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    continue;
                }
            };
            let Decision::Answer { message, delay } = self.decide(&buf[..len]) else {
                continue;
            };
            let limit = message
                .edns
                .as_ref()
                .map_or(UDP_PLAIN_LIMIT, |e| usize::from(e.max_payload()));
            let Some(bytes) = encode_udp(&message, limit) else {
                continue;
            };
            if delay.is_zero() {
                let _ = socket.send_to(&bytes, peer).await;
                continue;
            }
            let Ok(permit) = Arc::clone(&delayed).try_acquire_owned() else {
                continue;
            };
            let socket = Arc::clone(&socket);
            let cancel = cancel.clone();
            tracker.spawn(async move {
                let _permit = permit;
                tokio::select! {
                    _ = cancel.cancelled() => {}
                    _ = tokio::time::sleep(delay) => { let _ = socket.send_to(&bytes, peer).await; }
                }
            });
        }
    }

    async fn serve_tcp(
        self: Arc<Self>,
        listener: TcpListener,
        cancel: CancellationToken,
        tracker: TaskTracker,
    ) {
        let conns = Arc::new(Semaphore::new(MAX_TCP_CONNS));
        loop {
            let accepted = tokio::select! {
                _ = cancel.cancelled() => return,
                r = listener.accept() => r,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::debug!(error = %e, "dns tcp accept failed");
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    continue;
                }
            };
            let Ok(permit) = Arc::clone(&conns).try_acquire_owned() else {
                continue;
            };
            let server = Arc::clone(&self);
            let cancel = cancel.clone();
            tracker.spawn(async move {
                let _permit = permit;
                tokio::select! {
                    _ = cancel.cancelled() => {}
                    _ = server.serve_tcp_conn(stream) => {}
                }
            });
        }
    }

    async fn serve_tcp_conn(&self, mut stream: TcpStream) {
        loop {
            let mut len = [0u8; 2];
            match tokio::time::timeout(TCP_IDLE, stream.read_exact(&mut len)).await {
                Ok(Ok(_)) => {}
                _ => return,
            }
            let mut packet = vec![0u8; usize::from(u16::from_be_bytes(len))];
            match tokio::time::timeout(TCP_IDLE, stream.read_exact(&mut packet)).await {
                Ok(Ok(_)) => {}
                _ => return,
            }
            let Decision::Answer { message, delay } = self.decide(&packet) else {
                continue;
            };
            let Ok(bytes) = message.to_vec() else {
                return;
            };
            let Ok(len) = u16::try_from(bytes.len()) else {
                return;
            };
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let mut framed = Vec::with_capacity(bytes.len() + 2);
            framed.extend_from_slice(&len.to_be_bytes());
            framed.extend_from_slice(&bytes);
            if stream.write_all(&framed).await.is_err() {
                return;
            }
        }
    }
}

/// The SOA of the name's top-level zone, for the authority section of negative answers.
fn soa(name: &Name, ttl: u32) -> Option<Record> {
    let mname = Name::from_ascii(SOA_MNAME).ok()?;
    let rname = Name::from_ascii(SOA_RNAME).ok()?;
    let zone = name.trim_to(1);
    let soa = SOA::new(mname, rname, 1, 3600, 600, 86_400, ttl);
    Some(Record::from_rdata(zone, ttl, RData::SOA(soa)))
}

fn answer(message: Message, delay: Duration) -> Decision {
    Decision::Answer { message, delay }
}

/// Encodes an answer for UDP, truncating it (TC bit, no records) when it does not fit.
fn encode_udp(message: &Message, limit: usize) -> Option<Vec<u8>> {
    let bytes = message.to_vec().ok()?;
    if bytes.len() <= limit {
        return Some(bytes);
    }
    message.truncate().to_vec().ok()
}

fn bind_udp_tcp() -> Result<(std::net::UdpSocket, TcpListener, SocketAddr), Error> {
    let any_port = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
    for _ in 0..BIND_ATTEMPTS {
        let udp = std::net::UdpSocket::bind(any_port).map_err(|source| Error::Bind {
            addr: any_port,
            source,
        })?;
        let addr = udp.local_addr().map_err(|source| Error::Io {
            what: "dns udp address",
            source,
        })?;
        let tcp = TcpSocket::new_v4().and_then(|s| {
            s.set_reuseaddr(true)?;
            s.bind(addr)?;
            s.listen(128)
        });
        let Ok(tcp) = tcp else { continue };
        rustix::net::sockopt::set_socket_recv_buffer_size(&udp, UDP_RECV_BUFFER).map_err(|e| {
            Error::Io {
                what: "dns udp receive buffer",
                source: e.into(),
            }
        })?;
        udp.set_nonblocking(true).map_err(|source| Error::Io {
            what: "dns udp nonblocking",
            source,
        })?;
        return Ok((udp, tcp, addr));
    }
    Err(Error::NoCommonPort {
        ips: vec![IpAddr::V4(Ipv4Addr::LOCALHOST)],
        attempts: BIND_ATTEMPTS,
    })
}
