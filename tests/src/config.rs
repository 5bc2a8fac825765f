//! Settings of a [`crate::SimWeb`], each default a named constant.

use std::time::Duration;

use crate::record::RecordLimits;

/// TTL of DNS answers unless a site or rule sets its own.
pub const DEFAULT_DNS_TTL_SECS: u32 = 60;
/// Time for a new connection to send its first byte and finish the TLS handshake.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Time for an HTTP/1.1 request head to arrive.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// Time for a request body to arrive before the request is answered with what came.
pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections served at once across all addresses; past it new ones are closed at once.
pub const DEFAULT_MAX_CONNECTIONS: usize = 8192;
/// Pending connections each listener queues.
pub const DEFAULT_LISTEN_BACKLOG: u32 = 4096;
/// Concurrent HTTP/2 streams per connection.
pub const DEFAULT_H2_MAX_STREAMS: u32 = 256;
/// How long `shutdown` lets open connections finish.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(2);
/// Added before every site's answer (the round trip of a distant server; benchmarks).
pub const DEFAULT_ANSWER_DELAY: Duration = Duration::ZERO;
/// Requests kept per host.
pub const DEFAULT_RECORD_PER_HOST: usize = 10_000;
/// Hosts whose requests are kept apart.
pub const DEFAULT_RECORD_MAX_HOSTS: usize = 100_000;
/// Body bytes kept per request.
pub const DEFAULT_RECORD_BODY_CAP: usize = 1024 * 1024;
/// Body bytes kept across all records.
pub const DEFAULT_RECORD_BODY_BUDGET: u64 = 256 * 1024 * 1024;

/// Settings of a simulated web.
#[derive(Clone, Debug)]
pub struct Config {
    /// TTL of DNS answers unless a site or rule sets its own.
    pub dns_ttl_secs: u32,
    /// Whether to run the DNS server.
    pub dns: bool,
    /// Time for a new connection to send its first byte and finish the TLS handshake.
    pub handshake_timeout: Duration,
    /// Time for an HTTP/1.1 request head to arrive.
    pub header_read_timeout: Duration,
    /// Time for a request body to arrive.
    pub body_read_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
    /// Pending connections each listener queues.
    pub listen_backlog: u32,
    /// Concurrent HTTP/2 streams per connection.
    pub h2_max_streams: u32,
    /// How long `shutdown` lets open connections finish.
    pub shutdown_grace: Duration,
    /// What is recorded.
    pub record: RecordLimits,
    /// Added before every site's answer.
    pub answer_delay: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            dns_ttl_secs: DEFAULT_DNS_TTL_SECS,
            dns: true,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            body_read_timeout: DEFAULT_BODY_READ_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            listen_backlog: DEFAULT_LISTEN_BACKLOG,
            h2_max_streams: DEFAULT_H2_MAX_STREAMS,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
            record: RecordLimits {
                per_host: DEFAULT_RECORD_PER_HOST,
                max_hosts: DEFAULT_RECORD_MAX_HOSTS,
                body_cap: DEFAULT_RECORD_BODY_CAP,
                body_budget: DEFAULT_RECORD_BODY_BUDGET,
            },
            answer_delay: DEFAULT_ANSWER_DELAY,
        }
    }
}
