//! Network options for talking to the test server: the given names pinned to 127.0.0.1,
//! loopback allowed, the test CA trusted, rates high and no jitter, so only the code under
//! test decides what is sent and when.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use super::pki::TestPki;
use crate::net::NetOptions;

/// `names` pinned to 127.0.0.1; `pki`'s CA trusted when given.
pub fn net_options(names: &[&str], pki: Option<&TestPki>) -> NetOptions {
    let loopback = vec![IpAddr::from([127, 0, 0, 1])];
    NetOptions {
        static_hosts: names
            .iter()
            .map(|n| ((*n).to_owned(), loopback.clone()))
            .collect::<HashMap<_, _>>(),
        allow_nets: vec!["127.0.0.0/8".parse().expect("net")],
        ca_files: pki
            .map(|p| p.ca_file.path().to_owned())
            .into_iter()
            .collect(),
        // Nothing here asks DNS: the names are pinned. Loopback port 9 (discard) if it did.
        nameservers: vec!["127.0.0.1:9".parse().expect("addr")],
        per_host_rps: 1000.0,
        per_host_burst: NonZeroU32::new(100).expect("non-zero"),
        per_ip_rps: 1000.0,
        per_ip_burst: NonZeroU32::new(100).expect("non-zero"),
        resolver_timeout: Duration::from_millis(200),
        resolver_attempts: 0,
        throttle_jitter: Duration::ZERO,
        ..NetOptions::default()
    }
}
