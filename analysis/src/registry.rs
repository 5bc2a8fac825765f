//! The report's registry section from the records: each registry server's class, and the
//! overlap of listed endpoints with the endpoints discovery found on the web. Memory grows
//! with the distinct endpoints of the run (two sets of keys).

use std::collections::BTreeSet;

use mcpcensus_store::{endpoint_key, registry_class, registry_server, Record};

use crate::model::RegistryReport;

#[derive(Debug, Default)]
pub struct RegistryAcc {
    report: RegistryReport,
    web: BTreeSet<String>,
    listed: BTreeSet<String>,
}

impl RegistryAcc {
    pub fn add(&mut self, r: &Record) {
        let key = r.endpoint.as_deref().and_then(endpoint_key);
        if registry_server(r).is_none() {
            self.web.extend(key);
            return;
        }
        self.report.listed += 1;
        if let Some(class) = registry_class(r) {
            *self.report.class_count(class) += 1;
        }
        self.listed.extend(key);
    }

    /// The section, each origin list cut to `top_n`.
    pub fn finish(self, top_n: usize) -> RegistryReport {
        let mut rep = self.report;
        if rep.listed == 0 {
            return RegistryReport::default();
        }
        let both: Vec<&String> = self.web.intersection(&self.listed).collect();
        let web_only: Vec<&String> = self.web.difference(&self.listed).collect();
        let listed_only: Vec<&String> = self.listed.difference(&self.web).collect();
        rep.web_and_registry = both.len() as u64;
        rep.web_only = web_only.len() as u64;
        rep.registry_only = listed_only.len() as u64;
        rep.web_and_registry_origins = origins(&both, top_n);
        rep.web_only_origins = origins(&web_only, top_n);
        rep.registry_only_origins = origins(&listed_only, top_n);
        rep
    }
}

/// The endpoints' origins (the key up to its path), distinct, sorted, the first `n`.
fn origins(keys: &[&String], n: usize) -> Vec<String> {
    let set: BTreeSet<&str> = keys.iter().map(|k| origin_of(k)).collect();
    set.into_iter().take(n).map(str::to_owned).collect()
}

/// `scheme://host[:port]` of an endpoint key.
pub fn origin_of(key: &str) -> &str {
    let after = key.find("://").map_or(0, |i| i + 3);
    match key[after..].find('/') {
        Some(i) => &key[..after + i],
        None => key,
    }
}
