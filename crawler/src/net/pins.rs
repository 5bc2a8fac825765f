//! A site's pinned addresses: each host is resolved and guarded once per site client, and
//! every connection of that site goes to those addresses (no re-resolution, no rebinding gap).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use super::fetch_error::FetchError;
use super::names::host_key;
use super::shared::Shared;
use super::waits::OwnWaits;

/// Host → the addresses that passed the guard, in resolver order.
#[derive(Debug)]
pub(crate) struct Pins {
    hosts: Mutex<HashMap<String, Arc<[IpAddr]>>>,
    /// Host → (port, the address its last connection went to), so the per-IP rate is charged
    /// to the address requests actually reach. Keyed by host alone so a request looks it up
    /// without building a key.
    used: Mutex<HashMap<String, Vec<(u16, IpAddr)>>>,
    limit: usize,
}

impl Pins {
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            hosts: Mutex::new(HashMap::new()),
            used: Mutex::new(HashMap::new()),
            limit,
        }
    }

    /// The address the host's connections on `port` go to, once one was opened.
    pub(crate) fn used(&self, host: &str, port: u16) -> Option<IpAddr> {
        let used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        let ports = used.get(&*host_key(host))?;
        ports.iter().find(|(p, _)| *p == port).map(|(_, ip)| *ip)
    }

    /// Notes the address a new connection went to; returns the one noted before.
    pub(crate) fn note_used(&self, host: &str, port: u16, ip: IpAddr) -> Option<IpAddr> {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        let host = host_key(host);
        let ports = match used.get_mut(&*host) {
            Some(ports) => ports,
            None => used.entry(host.into_owned()).or_default(),
        };
        match ports.iter_mut().find(|(p, _)| *p == port) {
            Some((_, noted)) => Some(std::mem::replace(noted, ip)),
            None => {
                ports.push((port, ip));
                None
            }
        }
    }

    /// The host's allowed addresses, resolving and guarding them on first use. Errors when
    /// the name does not resolve or every address is refused (the first refusal is named).
    pub(crate) async fn get_or_pin(
        &self,
        shared: &Shared,
        host: &str,
        waits: &OwnWaits,
    ) -> Result<Arc<[IpAddr]>, FetchError> {
        if let Some(addrs) = self.lock().get(&*host_key(host)) {
            return Ok(addrs.clone());
        }
        let key = host_key(host).into_owned();
        let resolved = shared
            .resolver
            .resolve_for(&key, waits)
            .await
            .map_err(|error| FetchError::Resolve {
                host: key.clone(),
                error,
            })?;
        let mut refused = None;
        let allowed: Vec<IpAddr> = resolved
            .iter()
            .copied()
            .filter(|ip| match shared.guard.check(*ip) {
                Ok(()) => true,
                Err(refusal) => {
                    tracing::debug!(host = %key, address = %ip, %refusal, "address refused");
                    refused.get_or_insert((*ip, refusal));
                    false
                }
            })
            .collect();
        if allowed.is_empty() {
            let (address, refusal) = refused.ok_or_else(|| FetchError::Resolve {
                host: key.clone(),
                error: super::resolver::ResolveError::NoAddresses,
            })?;
            return Err(FetchError::Guard {
                host: key,
                address,
                refusal,
            });
        }
        let mut hosts = self.lock();
        if let Some(addrs) = hosts.get(&key) {
            return Ok(addrs.clone()); // a concurrent request pinned it first: use the same
        }
        if hosts.len() >= self.limit {
            return Err(FetchError::TooManyHosts {
                host: key,
                limit: self.limit,
            });
        }
        let addrs: Arc<[IpAddr]> = Arc::from(allowed);
        hosts.insert(key, addrs.clone());
        Ok(addrs)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<[IpAddr]>>> {
        self.hosts.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
