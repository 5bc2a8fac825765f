//! Every default in one place. The survey's values (session caps, 12 s, 64 KB) are
//! requirements of the measurement and are not settings.

pub const OUT_DIR: &str = "./mcpcensus-data";
pub const CONCURRENCY: usize = 1_000;
pub const SITE_DEADLINE_SECS: u64 = 30;
pub const CONNECT_TIMEOUT_MS: u64 = crate::net::DEFAULT_CONNECT_TIMEOUT.as_millis() as u64;
pub const PER_HOST_RPS: f64 = crate::net::DEFAULT_PER_HOST_RPS;
pub const PER_HOST_BURST: u32 = crate::net::DEFAULT_PER_HOST_BURST.get();
pub const PER_IP_RPS: f64 = crate::net::DEFAULT_PER_IP_RPS;
pub const PER_IP_CONNECTIONS: usize = crate::net::DEFAULT_PER_IP_CONNECTIONS.get();
pub const DOCUMENT_CAP_BYTES: usize = 256 * 1024;
pub const TOOLS_CAP: usize = 200;
pub const RESOLVER_TIMEOUT_MS: u64 = crate::net::DEFAULT_RESOLVER_TIMEOUT.as_millis() as u64;
pub const RESOLVER_CONCURRENCY: usize = crate::net::DEFAULT_RESOLVER_CONCURRENCY.get();
pub const SHUTDOWN_GRACE_SECS: u64 = 20;
pub const PROGRESS_INTERVAL_SECS: u64 = 5;
pub const CLICKHOUSE_DATABASE: &str = "mcpcensus";
/// Names the crawler, its version and where a site owner reads what it does and how to opt out.
pub const USER_AGENT: &str = crate::net::DEFAULT_USER_AGENT;
/// HTTP versions offered: HTTP/1.1 only unless the network core's default offers HTTP/2.
pub const HTTP: super::choices::Http = if crate::net::DEFAULT_OFFER_HTTP2 {
    super::choices::Http::Http2
} else {
    super::choices::Http::Http1
};
