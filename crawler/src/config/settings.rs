//! The configuration: TOML with unknown keys rejected, every default named in `defaults`.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ipnet::IpNet;
use serde::{Deserialize, Serialize};

pub use super::choices::{Http, LogFormat, Probe, Robots};
use super::defaults as d;
use crate::error::ConfigError;
use crate::input::{Column, ColumnChoice, Shard};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub crawl: CrawlSettings,
    pub input: InputSettings,
    pub net: NetSettings,
    pub clickhouse: ClickHouseSettings,
    pub output: OutputSettings,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CrawlSettings {
    /// The embedded store's directory.
    pub out: PathBuf,
    /// Sites in flight at once.
    pub concurrency: NonZeroUsize,
    /// All of one site's work must end within this.
    pub site_deadline_secs: u64,
    /// Stop intake after this long (humantime, e.g. "2h"); unset: no limit.
    pub max_duration: Option<String>,
    pub probe: Probe,
    /// The readiness level: the agent-readiness checks beside the survey (`--readiness`).
    pub readiness: bool,
    /// After Ctrl-C, in-flight sites get this long to finish.
    pub shutdown_grace_secs: u64,
    /// Discovery documents are read up to this many bytes.
    pub document_cap_bytes: NonZeroUsize,
    /// Tools recorded per server.
    pub tools_cap: NonZeroUsize,
    /// Sites that end not measured or unreachable on a failure that may pass are scanned once
    /// more near the end of the run; the second look decides.
    pub second_look: bool,
    /// At least this long between a site's two looks (humantime, e.g. "1m").
    pub second_look_delay: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InputSettings {
    /// Opt-out lists: a listed domain excludes itself and its subdomains.
    pub exclude: Vec<PathBuf>,
    pub shard: Shard,
    /// The list column holding the site (a 1-based number or a header name); unset: the
    /// header's `domain`/`origin`/`host`/… column, else the line's one site.
    pub host_column: Option<Column>,
    /// The list column holding the rank; unset: the header's `rank`/`GlobalRank`/… column,
    /// else a number before or after the site (`rank,host`, `origin,rank`).
    pub rank_column: Option<Column>,
}

impl InputSettings {
    /// The columns chosen for the lists.
    pub fn columns(&self) -> ColumnChoice {
        ColumnChoice {
            host: self.host_column.clone(),
            rank: self.rank_column.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetSettings {
    pub user_agent: String,
    pub connect_timeout_ms: u64,
    pub per_host_rps: f64,
    pub per_host_burst: u32,
    pub per_ip_rps: f64,
    pub per_ip_connections: NonZeroUsize,
    /// Nameservers `IP[:PORT]`; empty: the system's configuration.
    pub resolvers: Vec<String>,
    pub resolver_timeout_ms: u64,
    pub resolver_concurrency: NonZeroUsize,
    /// Extra trust roots (PEM files).
    pub ca_files: Vec<PathBuf>,
    /// Ranges the address guard lets through (e.g. 127.0.0.0/8 for tests).
    pub allow_net: Vec<IpNet>,
    /// IP-range opt-outs: each a CIDR or a file of CIDRs (one a line, `#` comments); never
    /// connected to, whatever `allow_net` says.
    pub exclude_net: Vec<String>,
    /// The operator's contact (URL or mail address), sent in the User-Agent.
    pub contact: Option<String>,
    /// Whether robots.txt is read and followed.
    pub robots: Robots,
    /// HTTP versions offered.
    pub http: Http,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClickHouseSettings {
    /// e.g. http://127.0.0.1:8123 or https://ch.example:8443; unset: the embedded store. A
    /// user and password in it (`https://user:password@host/`) are sent as the credentials and
    /// redacted wherever the URL is shown or recorded.
    pub url: Option<String>,
    pub database: String,
    pub user: Option<String>,
    /// A file holding the password (never the password itself in the config).
    pub password_file: Option<PathBuf>,
    /// PEM certificates trusted for an https:// ClickHouse besides the webpki roots.
    pub ca_file: Option<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OutputSettings {
    pub quiet: bool,
    pub log_format: LogFormat,
    pub progress_interval_secs: u64,
}

fn nz(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN)
}

impl Default for CrawlSettings {
    fn default() -> Self {
        CrawlSettings {
            out: PathBuf::from(d::OUT_DIR),
            concurrency: nz(d::CONCURRENCY),
            site_deadline_secs: d::SITE_DEADLINE_SECS,
            max_duration: None,
            probe: Probe::Survey,
            readiness: d::READINESS,
            shutdown_grace_secs: d::SHUTDOWN_GRACE_SECS,
            document_cap_bytes: nz(d::DOCUMENT_CAP_BYTES),
            tools_cap: nz(d::TOOLS_CAP),
            second_look: true,
            second_look_delay: d::SECOND_LOOK_DELAY.to_owned(),
        }
    }
}

impl Default for InputSettings {
    fn default() -> Self {
        InputSettings {
            exclude: Vec::new(),
            host_column: None,
            rank_column: None,
            shard: Shard::ALL,
        }
    }
}

impl Default for NetSettings {
    fn default() -> Self {
        NetSettings {
            user_agent: d::USER_AGENT.to_owned(),
            connect_timeout_ms: d::CONNECT_TIMEOUT_MS,
            per_host_rps: d::PER_HOST_RPS,
            per_host_burst: d::PER_HOST_BURST,
            per_ip_rps: d::PER_IP_RPS,
            per_ip_connections: nz(d::PER_IP_CONNECTIONS),
            resolvers: Vec::new(),
            resolver_timeout_ms: d::RESOLVER_TIMEOUT_MS,
            resolver_concurrency: nz(d::RESOLVER_CONCURRENCY),
            ca_files: Vec::new(),
            allow_net: Vec::new(),
            exclude_net: Vec::new(),
            contact: None,
            robots: Robots::Respect,
            http: d::HTTP,
        }
    }
}

impl Default for ClickHouseSettings {
    fn default() -> Self {
        ClickHouseSettings {
            url: None,
            database: d::CLICKHOUSE_DATABASE.to_owned(),
            user: None,
            password_file: None,
            ca_file: d::CLICKHOUSE_CA_FILE,
        }
    }
}

impl Default for OutputSettings {
    fn default() -> Self {
        OutputSettings {
            quiet: false,
            log_format: LogFormat::Text,
            progress_interval_secs: d::PROGRESS_INTERVAL_SECS,
        }
    }
}

impl Config {
    /// Reads a TOML file; keys it leaves out keep their defaults.
    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Config::from_toml(&text, &path.display().to_string())
    }

    pub fn from_toml(text: &str, origin: &str) -> Result<Config, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: origin.to_owned(),
            source: Box::new(e),
        })
    }

    /// The `--max-duration` setting as a duration (at most [`d::MAX_DURATION`]).
    pub fn max_duration(&self) -> Result<Option<Duration>, ConfigError> {
        self.crawl
            .max_duration
            .as_deref()
            .map(|text| {
                duration_at_most(text, d::MAX_DURATION).map_err(|reason| ConfigError::Invalid {
                    key: "crawl.max_duration",
                    reason,
                })
            })
            .transpose()
    }

    /// The second look's delay, `None` when second looks are off (at most
    /// [`d::MAX_SECOND_LOOK_DELAY`]).
    pub fn second_look(&self) -> Result<Option<Duration>, ConfigError> {
        let delay = duration_at_most(&self.crawl.second_look_delay, d::MAX_SECOND_LOOK_DELAY)
            .map_err(|reason| ConfigError::Invalid {
                key: "crawl.second_look_delay",
                reason,
            })?;
        Ok(self.crawl.second_look.then_some(delay))
    }

    /// Checks values before anything does I/O.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let invalid = |key, reason: &str| {
            Err(ConfigError::Invalid {
                key,
                reason: reason.into(),
            })
        };
        if self.crawl.site_deadline_secs == 0 {
            return invalid("crawl.site_deadline_secs", "must be at least 1");
        }
        self.max_duration()?;
        self.second_look()?;
        // Each duration has a maximum (defaults.rs), so no deadline computed from one overflows.
        let maxima = [
            (
                "crawl.site_deadline_secs",
                self.crawl.site_deadline_secs,
                d::MAX_SITE_DEADLINE_SECS,
            ),
            (
                "crawl.shutdown_grace_secs",
                self.crawl.shutdown_grace_secs,
                d::MAX_SHUTDOWN_GRACE_SECS,
            ),
            (
                "net.connect_timeout_ms",
                self.net.connect_timeout_ms,
                d::MAX_TIMEOUT_MS,
            ),
            (
                "net.resolver_timeout_ms",
                self.net.resolver_timeout_ms,
                d::MAX_TIMEOUT_MS,
            ),
            (
                "output.progress_interval_secs",
                self.output.progress_interval_secs,
                d::MAX_PROGRESS_INTERVAL_SECS,
            ),
        ];
        for (key, value, max) in maxima {
            if value > max {
                return invalid(key, &format!("must be at most {max}"));
            }
        }
        if let Some(contact) = &self.net.contact {
            if let Err(reason) = crate::net::check_contact(contact) {
                return invalid("net.contact", &reason);
            }
        }
        if self.net.connect_timeout_ms == 0 {
            return invalid("net.connect_timeout_ms", "must be at least 1");
        }
        if !(self.net.per_host_rps.is_finite() && self.net.per_host_rps > 0.0) {
            return invalid("net.per_host_rps", "must be a positive number");
        }
        if !(self.net.per_ip_rps.is_finite() && self.net.per_ip_rps > 0.0) {
            return invalid("net.per_ip_rps", "must be a positive number");
        }
        if self.net.per_host_burst == 0 {
            return invalid("net.per_host_burst", "must be at least 1");
        }
        if self.net.resolver_timeout_ms == 0 {
            return invalid("net.resolver_timeout_ms", "must be at least 1");
        }
        if self.net.user_agent.trim().is_empty() || !self.net.user_agent.is_ascii() {
            return invalid("net.user_agent", "must be non-empty ASCII");
        }
        for r in &self.net.resolvers {
            if parse_resolver(r).is_none() {
                return Err(ConfigError::Invalid {
                    key: "net.resolvers",
                    reason: format!("{r:?} is not IP or IP:PORT"),
                });
            }
        }
        if self.output.progress_interval_secs == 0 {
            return invalid("output.progress_interval_secs", "must be at least 1");
        }
        Ok(())
    }
}

/// A duration in the `--max-duration` syntax (`8h`, `7d`) of at most `max`; the error quotes
/// the text and says what is wrong.
pub fn duration_at_most(text: &str, max: Duration) -> Result<Duration, String> {
    let duration = humantime::parse_duration(text).map_err(|e| format!("{text:?}: {e}"))?;
    if duration > max {
        let secs = max.as_secs();
        let max = if secs.is_multiple_of(86_400) {
            format!("{}d", secs / 86_400)
        } else {
            format!("{secs}s")
        };
        return Err(format!("{text:?}: must be at most {max}"));
    }
    Ok(duration)
}

/// Whole seconds from 1 to `max`, written as a duration in the same syntax (`30s`, `2m`) or as a
/// plain number of seconds.
pub fn whole_seconds(text: &str, max: Duration) -> Result<u64, String> {
    let duration = match text.parse::<u64>() {
        Ok(secs) => Duration::from_secs(secs),
        Err(_) => humantime::parse_duration(text).map_err(|e| format!("{text:?}: {e}"))?,
    };
    if duration.subsec_nanos() != 0 {
        return Err(format!("{text:?}: must be whole seconds"));
    }
    if duration.is_zero() {
        return Err(format!("{text:?}: must be at least 1s"));
    }
    if duration > max {
        let max = humantime::format_duration(max);
        return Err(format!("{text:?}: must be at most {max}"));
    }
    Ok(duration.as_secs())
}

/// `IP`, `IP:PORT` or `[IPv6]:PORT`; the port defaults to 53.
pub fn parse_resolver(text: &str) -> Option<std::net::SocketAddr> {
    if let Ok(addr) = text.parse::<std::net::SocketAddr>() {
        return Some(addr);
    }
    text.parse::<std::net::IpAddr>()
        .ok()
        .map(|ip| std::net::SocketAddr::new(ip, 53))
}
