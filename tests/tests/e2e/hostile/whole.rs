//! The whole hostile set in one crawl at concurrency 1,000: every site gets its record and
//! the crawler's peak memory for all of them together stays bounded.

use std::net::IpAddr;

use mcpcensus_simweb::{hostile, DnsRule};

use super::{assert_bounded, crawl_hostile_with, why, CPU_BOUND};

/// Peak RSS for the whole set at once (all hostile sites in flight together).
const WHOLE_RSS_BOUND: u64 = 384 * 1024 * 1024;

/// The DNS side of the set: silent, garbage, a CNAME chain to a refused address, and a name
/// whose address stalls the TLS handshake.
pub fn hostile_dns() -> Vec<DnsRule> {
    vec![
        DnsRule::no_answer("silent-dns.hostile.test"),
        DnsRule::new(
            "garbage-dns.hostile.test",
            mcpcensus_simweb::DnsBehaviour::Garbage,
        ),
        DnsRule::new(
            "cname-dns.hostile.test",
            mcpcensus_simweb::DnsBehaviour::CnameChain(
                (1..=8)
                    .map(|i| format!("c{i}.cname-dns.hostile.test"))
                    .collect(),
                vec![IpAddr::from([10, 0, 0, 1])],
            ),
        ),
        DnsRule::addrs("stall.hostile.test", [IpAddr::from(STALL_IP)]),
    ]
}

/// Where the stalled-handshake listener lives.
pub const STALL_IP: [u8; 4] = [127, 0, 0, 77];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_whole_set_at_concurrency_1000() {
    let sites = hostile::all();
    let mut names: Vec<String> = sites.iter().map(|s| s.name().to_owned()).collect();
    let dns = hostile_dns();
    names.extend(dns.iter().map(|r| r.name().to_owned()));
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let c = crawl_hostile_with(
        sites,
        dns,
        &names,
        Some(STALL_IP),
        &["--concurrency", "1000"],
    )
    .await;
    for name in &names {
        let r = c.record(name);
        eprintln!(
            "{name}: {} | docs {} reqs {} tools {:?}",
            why(r),
            r.documents.len(),
            r.requests.len(),
            r.tool_count
        );
    }
    eprintln!("whole set: {:?}", c.usage);
    assert_bounded(&c.usage, WHOLE_RSS_BOUND, CPU_BOUND * 4);
}
