//! Every default in one place. Seed values (session caps, 12 s, 64 KB) are requirements of
//! the measurement and are not settings.

pub const OUT_DIR: &str = "./mcpcensus-data";
pub const CONCURRENCY: usize = 1_000;
pub const SITE_DEADLINE_SECS: u64 = 30;
pub const CONNECT_TIMEOUT_MS: u64 = 10_000;
pub const PER_HOST_RPS: f64 = 2.0;
pub const PER_HOST_BURST: u32 = 4;
pub const PER_IP_RPS: f64 = 20.0;
pub const PER_IP_CONNECTIONS: usize = 8;
pub const DOCUMENT_CAP_BYTES: usize = 256 * 1024;
pub const TOOLS_CAP: usize = 200;
pub const RESOLVER_TIMEOUT_MS: u64 = 5_000;
pub const RESOLVER_CONCURRENCY: usize = 256;
pub const SHUTDOWN_GRACE_SECS: u64 = 20;
pub const PROGRESS_INTERVAL_SECS: u64 = 5;
pub const CLICKHOUSE_DATABASE: &str = "mcpcensus";
/// Names the crawler, its version and where a site owner reads what it does and how to opt out.
pub const USER_AGENT: &str = concat!(
    "mcpcensus/",
    env!("CARGO_PKG_VERSION"),
    " (+https://github.com/mcpcensus/mcpcensus/blob/main/docs/bot.md)"
);
