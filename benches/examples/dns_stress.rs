#![allow(clippy::unwrap_used, clippy::print_stdout)]
//! The crawler's resolver alone under a crawl's lookup load: every name of a list looked up
//! once through `mcpcensus::net::Resolver` (the crawl's options), CONCURRENCY at a time, and
//! every lookup slower than 3 s or failing printed with its start time. It tells a stall of
//! the resolver from one of the crawl around it:
//!   cargo run --release -p mcpcensus-benches --example dns_stress -- DNS_ADDR LIST [CONCURRENCY] [BUSY] [SHARDS]
//! BUSY tasks (default none) share the runtime with the lookups, each spinning 100 µs then
//! yielding, as a crawl's sites do: a woken task then waits its turn behind them.
//! With DNS_ADDR `drop:PER_MILLE` a server of its own (a thread on loopback) answers every
//! query with 127.0.0.1 or ::1 but drops PER_MILLE of each thousand, as a busy server does.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcpcensus::net::{NetOptions, Resolver};
use tokio::sync::Semaphore;

/// A lookup slower than this is printed.
const SLOW: Duration = Duration::from_secs(3);

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let dns_arg = args.next().expect("DNS_ADDR");
    let dns: SocketAddr = match dns_arg.strip_prefix("drop:") {
        Some(per_mille) => lossy_server(per_mille.parse().unwrap()),
        None => dns_arg.parse().unwrap(),
    };
    let list = std::fs::read_to_string(args.next().expect("LIST")).unwrap();
    let concurrency: usize = args.next().map_or(256, |c| c.parse().unwrap());
    let busy: usize = args.next().map_or(0, |c| c.parse().unwrap());
    let shards = args
        .next()
        .map_or(NetOptions::default().resolver_shards, |c| {
            c.parse().unwrap()
        });
    for _ in 0..busy {
        tokio::spawn(async {
            loop {
                let spin = Instant::now();
                while spin.elapsed() < Duration::from_micros(100) {
                    std::hint::spin_loop();
                }
                tokio::task::yield_now().await;
            }
        });
    }
    let names: Vec<String> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        // `host:port` lines (the simulated web's list) are looked up by host.
        .map(|l| l.split(':').next().unwrap_or(l).to_owned())
        .collect();
    let opts = NetOptions {
        nameservers: vec![dns],
        resolver_concurrency: NonZeroUsize::new(concurrency).unwrap(),
        resolver_shards: shards,
        ..NetOptions::default()
    };
    let resolver = Arc::new(Resolver::new(&opts).unwrap());
    let slots = Arc::new(Semaphore::new(concurrency));
    let started = Instant::now();
    let slow = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    for (i, name) in names.into_iter().enumerate() {
        let slot = slots.clone().acquire_owned().await.unwrap();
        let resolver = resolver.clone();
        let (slow, failed) = (slow.clone(), failed.clone());
        tasks.spawn(async move {
            let _slot = slot;
            let begun = Instant::now();
            let result = resolver.resolve(&name).await;
            let took = begun.elapsed();
            slow.fetch_add(u64::from(took > SLOW), Ordering::Relaxed);
            failed.fetch_add(u64::from(result.is_err()), Ordering::Relaxed);
            if took > SLOW || result.is_err() {
                println!(
                    "line {i} {name}: started at {:.3} s, took {:.3} s: {}",
                    begun.duration_since(started).as_secs_f64(),
                    took.as_secs_f64(),
                    result.map_or_else(|e| e.to_string(), |a| format!("{} addresses", a.len()))
                );
            }
        });
        while let Some(done) = tasks.try_join_next() {
            done.unwrap();
        }
    }
    while let Some(done) = tasks.join_next().await {
        done.unwrap();
    }
    println!(
        "{:.1} s; lookups slower than 3 s: {}; failed: {}; stalled in the resolver: {}",
        started.elapsed().as_secs_f64(),
        slow.load(Ordering::Relaxed),
        failed.load(Ordering::Relaxed),
        resolver.stalls()
    );
}

/// A DNS server on a thread of its own answering A with 127.0.0.1 and AAAA with ::1 (TTL
/// 60 s), dropping `per_mille` of each thousand queries unanswered.
fn lossy_server(per_mille: u64) -> SocketAddr {
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let addr = socket.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut buf = [0u8; 1500];
        let mut n = 0u64;
        loop {
            let (len, from) = socket.recv_from(&mut buf).unwrap();
            n += 1;
            if n * 7919 % 1000 < per_mille {
                continue;
            }
            if let Some(answer) = answer(&buf[..len]) {
                let _ = socket.send_to(&answer, from);
            }
        }
    });
    addr
}

/// The answer to one query: its header and question, and one A or AAAA record.
fn answer(query: &[u8]) -> Option<Vec<u8>> {
    let mut end = 12;
    while *query.get(end)? != 0 {
        end += 1 + usize::from(query[end]);
    }
    let qtype = u16::from_be_bytes([*query.get(end + 1)?, *query.get(end + 2)?]);
    let question_end = end + 5;
    let mut out = query.get(..question_end)?.to_vec();
    out[2] = 0x81; // QR, RD
    out[3] = 0x80; // RA, NOERROR
    out[6..12].copy_from_slice(&[0, 1, 0, 0, 0, 0]); // one answer, no authority or additional
    out.extend_from_slice(&[0xc0, 0x0c]); // the question's name
    out.extend_from_slice(&qtype.to_be_bytes());
    out.extend_from_slice(&[0, 1, 0, 0, 0, 60]); // IN, TTL 60 s
    match qtype {
        1 => out.extend_from_slice(&[0, 4, 127, 0, 0, 1]),
        28 => {
            out.extend_from_slice(&[0, 16]);
            out.extend_from_slice(&std::net::Ipv6Addr::LOCALHOST.octets());
        }
        _ => return None,
    }
    Some(out)
}
