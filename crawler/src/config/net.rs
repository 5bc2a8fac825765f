//! The network settings as the network core takes them.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use ipnet::IpNet;

use super::choices::Http;
use super::settings::{parse_resolver, Config};
use crate::error::ConfigError;
use crate::net::NetOptions;

impl Config {
    /// Options for [`crate::net::Net`]; everything not configurable keeps the core's default.
    pub fn net_options(&self) -> Result<NetOptions, ConfigError> {
        let n = &self.net;
        let nameservers = n
            .resolvers
            .iter()
            .map(|r| {
                parse_resolver(r).ok_or_else(|| ConfigError::Invalid {
                    key: "net.resolvers",
                    reason: format!("{r:?} is not IP or IP:PORT"),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let burst = NonZeroU32::new(n.per_host_burst).ok_or(ConfigError::Invalid {
            key: "net.per_host_burst",
            reason: "must be at least 1".into(),
        })?;
        Ok(NetOptions {
            user_agent: n.user_agent.clone(),
            connect_timeout: Duration::from_millis(n.connect_timeout_ms),
            per_host_rps: n.per_host_rps,
            per_host_burst: burst,
            per_ip_rps: n.per_ip_rps,
            per_ip_connections: n.per_ip_connections,
            nameservers,
            resolver_timeout: Duration::from_millis(n.resolver_timeout_ms),
            resolver_concurrency: n.resolver_concurrency,
            ca_files: n.ca_files.clone(),
            allow_nets: n.allow_net.clone(),
            exclude_nets: exclude_nets(&n.exclude_net)?,
            contact: n.contact.clone(),
            offer_http2: n.http == Http::Http2,
            ..NetOptions::default()
        })
    }
}

/// Each entry is a CIDR, or else a file of CIDRs (one a line, `#` comments, blank lines).
/// A line that is neither is an error: a silently dropped opt-out would be crawled.
fn exclude_nets(entries: &[String]) -> Result<Vec<IpNet>, ConfigError> {
    let mut nets = Vec::new();
    for entry in entries {
        if let Some(net) = parse_net(entry) {
            nets.push(net);
            continue;
        }
        let invalid = |reason: String| ConfigError::Invalid {
            key: "net.exclude_net",
            reason,
        };
        let text = std::fs::read_to_string(entry).map_err(|e| {
            invalid(format!(
                "{entry:?} is neither a CIDR nor a readable file: {e}"
            ))
        })?;
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let net = parse_net(line)
                .ok_or_else(|| invalid(format!("{entry}:{}: {line:?} is not a CIDR", i + 1)))?;
            nets.push(net);
        }
    }
    Ok(nets)
}

/// `192.0.2.0/24`, or a bare address as its own /32 or /128.
fn parse_net(text: &str) -> Option<IpNet> {
    text.parse::<IpNet>()
        .ok()
        .or_else(|| text.parse::<IpAddr>().ok().map(IpNet::from))
}
