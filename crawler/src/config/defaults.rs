//! Every default in one place. The survey's values (session caps, 12 s, 64 KB) are
//! requirements of the measurement and are not settings.

use std::time::Duration;

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
/// `crawl.readiness`, `--readiness`: the readiness level is opt-in.
pub const READINESS: bool = false;
pub const RESOLVER_TIMEOUT_MS: u64 = crate::net::DEFAULT_RESOLVER_TIMEOUT.as_millis() as u64;
pub const RESOLVER_CONCURRENCY: usize = crate::net::DEFAULT_RESOLVER_CONCURRENCY.get();
pub const SHUTDOWN_GRACE_SECS: u64 = 20;
pub const PROGRESS_INTERVAL_SECS: u64 = 5;
/// `crawl.second_look_delay`, `--second-look-delay`: the least time between a site's two looks.
pub const SECOND_LOOK_DELAY: &str = "1m";

// The largest value of each duration setting (flag or config key): far past any useful value,
// far short of what `Instant` arithmetic overflows on, so a typo is a clear error, never a panic.
/// `crawl.site_deadline_secs`, `--site-deadline`: an hour.
pub const MAX_SITE_DEADLINE_SECS: u64 = 3_600;
/// `crawl.max_duration`, `--max-duration`: a year.
pub const MAX_DURATION: Duration = Duration::from_secs(365 * DAY_SECS);
/// `crawl.second_look_delay`: a day.
pub const MAX_SECOND_LOOK_DELAY: Duration = Duration::from_secs(DAY_SECS);
/// `crawl.shutdown_grace_secs`: an hour.
pub const MAX_SHUTDOWN_GRACE_SECS: u64 = 3_600;
/// `net.connect_timeout_ms` and `net.resolver_timeout_ms`: ten minutes.
pub const MAX_TIMEOUT_MS: u64 = 600_000;
/// `output.progress_interval_secs`: a day.
pub const MAX_PROGRESS_INTERVAL_SECS: u64 = DAY_SECS;
/// `--metrics-linger`: a day.
pub const MAX_METRICS_LINGER: Duration = Duration::from_secs(DAY_SECS);
const DAY_SECS: u64 = 86_400;
pub const CLICKHOUSE_DATABASE: &str = "mcpcensus";
/// `clickhouse.ca_file`: none, the webpki roots alone are trusted.
pub const CLICKHOUSE_CA_FILE: Option<std::path::PathBuf> = None;
/// Names the crawler, its version and where a site owner reads what it does and how to opt out.
pub const USER_AGENT: &str = crate::net::DEFAULT_USER_AGENT;
/// HTTP versions offered: HTTP/1.1 only unless the network core's default offers HTTP/2.
pub const HTTP: super::choices::Http = if crate::net::DEFAULT_OFFER_HTTP2 {
    super::choices::Http::Http2
} else {
    super::choices::Http::Http1
};
