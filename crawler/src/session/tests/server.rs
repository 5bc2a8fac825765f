//! The session's side of the crate's shared test server: the endpoint on `mcp.test`, and the
//! check that a session sent only its three allowed POSTs.

use std::collections::HashMap;
use std::time::Duration;

use http::Method;
use url::Url;

use crate::net::{Net, NetOptions, SiteClient};
pub use crate::testkit::{Canned, Seen, TestServer as McpServer};

/// The host name tests use; pinned to 127.0.0.1.
pub const HOST: &str = "mcp.test";

/// What the session's tests read from the server.
pub trait SessionServer {
    /// The endpoint URL.
    fn endpoint(&self) -> Url;

    /// JSON-RPC methods received so far, in order; asserts every request was a POST to /mcp
    /// carrying one of the session's three methods, and that there were at most three.
    fn methods(&self) -> Vec<String>;
}

impl SessionServer for McpServer {
    fn endpoint(&self) -> Url {
        Url::parse(&format!("http://{HOST}:{}/mcp", self.addr.port())).expect("url")
    }

    fn methods(&self) -> Vec<String> {
        let seen = self.seen();
        assert!(seen.len() <= 3, "more than 3 requests: {seen:?}");
        seen.iter()
            .map(|s| {
                assert_eq!(s.method, Method::POST, "{s:?}");
                assert_eq!(s.path, "/mcp", "{s:?}");
                let method = s.rpc_method().expect("a JSON-RPC method");
                assert!(
                    ["initialize", "notifications/initialized", "tools/list"]
                        .contains(&method.as_str()),
                    "forbidden method {method}"
                );
                method
            })
            .collect()
    }
}

/// Network options for tests: `mcp.test` pinned to 127.0.0.1, loopback allowed, no waits.
pub fn net_options() -> NetOptions {
    NetOptions {
        static_hosts: HashMap::from([(HOST.to_owned(), vec![[127, 0, 0, 1].into()])]),
        allow_nets: vec!["127.0.0.0/8".parse().expect("net")],
        nameservers: vec!["127.0.0.1:9".parse().expect("addr")],
        per_host_rps: 1000.0,
        per_host_burst: std::num::NonZeroU32::new(100).expect("non-zero"),
        per_ip_rps: 1000.0,
        per_ip_burst: std::num::NonZeroU32::new(100).expect("non-zero"),
        resolver_timeout: Duration::from_millis(200),
        resolver_attempts: 0,
        throttle_jitter: Duration::ZERO,
        ..NetOptions::default()
    }
}

/// A site client for tests.
pub fn site_client() -> SiteClient {
    Net::new(net_options()).expect("net").site_client()
}
