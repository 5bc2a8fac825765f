//! The session's side of the crate's shared test server: the endpoint on `mcp.test`, and the
//! check that a session sent only its three allowed POSTs.

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
    crate::testkit::net_options(&[HOST], None)
}

/// A site client for tests.
pub fn site_client() -> SiteClient {
    Net::new(net_options()).expect("net").site_client()
}
