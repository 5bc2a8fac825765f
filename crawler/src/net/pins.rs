//! A site's pinned addresses: each host is resolved and guarded once per site client, and
//! every connection of that site goes to those addresses (no re-resolution, no rebinding gap).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use super::fetch::FetchError;
use super::shared::Shared;

/// Host → the addresses that passed the guard, in resolver order.
#[derive(Debug)]
pub(crate) struct Pins {
    hosts: Mutex<HashMap<String, Arc<[IpAddr]>>>,
    limit: usize,
}

impl Pins {
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            hosts: Mutex::new(HashMap::new()),
            limit,
        }
    }

    /// The host's allowed addresses, resolving and guarding them on first use. Errors when
    /// the name does not resolve or every address is refused (the first refusal is named).
    pub(crate) async fn get_or_pin(
        &self,
        shared: &Shared,
        host: &str,
    ) -> Result<Arc<[IpAddr]>, FetchError> {
        let key = host.to_ascii_lowercase();
        if let Some(addrs) = self.lock().get(&key) {
            return Ok(addrs.clone());
        }
        let resolved =
            shared
                .resolver
                .resolve(&key)
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
