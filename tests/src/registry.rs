//! The thread-safe tables shared by the HTTP and DNS servers: sites and DNS rules by name.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use crate::dns::DnsRule;
use crate::site::Site;

#[derive(Default)]
pub(crate) struct Registry {
    sites: RwLock<HashMap<String, Arc<Site>>>,
    dns: RwLock<HashMap<String, Arc<DnsRule>>>,
}

impl Registry {
    /// Adds or replaces a site (the name must be normalized and validated).
    pub(crate) fn insert_site(&self, site: Site) -> Option<Arc<Site>> {
        let mut sites = self.sites.write().unwrap_or_else(PoisonError::into_inner);
        sites.insert(site.name().to_string(), Arc::new(site))
    }

    pub(crate) fn remove_site(&self, name: &str) -> Option<Arc<Site>> {
        let mut sites = self.sites.write().unwrap_or_else(PoisonError::into_inner);
        sites.remove(name)
    }

    pub(crate) fn site(&self, name: &str) -> Option<Arc<Site>> {
        let sites = self.sites.read().unwrap_or_else(PoisonError::into_inner);
        sites.get(name).cloned()
    }

    pub(crate) fn site_count(&self) -> usize {
        let sites = self.sites.read().unwrap_or_else(PoisonError::into_inner);
        sites.len()
    }

    pub(crate) fn insert_dns(&self, rule: DnsRule) {
        let mut dns = self.dns.write().unwrap_or_else(PoisonError::into_inner);
        dns.insert(rule.name().to_string(), Arc::new(rule));
    }

    pub(crate) fn remove_dns(&self, name: &str) -> bool {
        let mut dns = self.dns.write().unwrap_or_else(PoisonError::into_inner);
        dns.remove(name).is_some()
    }

    /// The rule for `name`, else the nearest wildcard rule (`*.parent`) above it.
    pub(crate) fn dns_rule(&self, name: &str) -> Option<Arc<DnsRule>> {
        let dns = self.dns.read().unwrap_or_else(PoisonError::into_inner);
        if let Some(rule) = dns.get(name) {
            return Some(Arc::clone(rule));
        }
        let mut parent = name;
        while let Some((_, rest)) = parent.split_once('.') {
            if let Some(rule) = dns.get(&format!("*.{rest}")) {
                return Some(Arc::clone(rule));
            }
            parent = rest;
        }
        None
    }
}
