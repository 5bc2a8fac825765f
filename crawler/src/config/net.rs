//! The network settings as the network core takes them.

use std::num::NonZeroU32;
use std::time::Duration;

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
            ..NetOptions::default()
        })
    }
}
