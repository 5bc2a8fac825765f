//! The report's registry section from one row per registry entry (its class, the endpoint URL
//! it names, the facts counted apart), as both back ends hand them in: the embedded report
//! derives each row from a record, the ClickHouse report reads them from
//! `registry_classes.sql`. The overlap keeps the endpoints discovery found on the web. Memory
//! grows with the distinct endpoints of the run.

use std::collections::{BTreeMap, BTreeSet};

use mcpcensus_store::{
    endpoint_key, initialized_400, registry_class, registry_server, signin_redirect, Record,
    RegistryClass,
};

use crate::model::RegistryReport;
use crate::model_registry::FanOut;

/// One registry entry as the section counts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRow {
    pub class: Option<RegistryClass>,
    /// The endpoint URL's key (`endpoint_key`; a template by its text); `None` without one.
    pub key: Option<String>,
    pub initialized_400: bool,
    pub signin_redirect: bool,
}

impl EntryRow {
    /// A registry entry's row; `None` for a site of the web.
    pub fn of(r: &Record) -> Option<EntryRow> {
        registry_server(r)?;
        let class = registry_class(r);
        let key = match class {
            Some(RegistryClass::Template) => r.endpoint.clone(),
            _ => r.endpoint.as_deref().and_then(endpoint_key),
        };
        Some(EntryRow {
            class,
            key,
            initialized_400: initialized_400(r),
            signin_redirect: signin_redirect(r),
        })
    }
}

/// Per URL: entries naming it and the best class any got.
#[derive(Debug, Default)]
struct Url {
    entries: u64,
    best: Option<RegistryClass>,
}

#[derive(Debug, Default)]
pub struct RegistryAcc {
    report: RegistryReport,
    web: BTreeSet<String>,
    listed: BTreeSet<String>,
    urls: BTreeMap<String, Url>,
}

impl RegistryAcc {
    pub fn add(&mut self, r: &Record) {
        match EntryRow::of(r) {
            Some(row) => self.add_entry(row),
            None => self.add_web(r.endpoint.as_deref().and_then(endpoint_key)),
        }
    }

    /// An endpoint discovery found on the web.
    pub fn add_web(&mut self, key: Option<String>) {
        self.web.extend(key);
    }

    /// One registry entry.
    pub fn add_entry(&mut self, row: EntryRow) {
        let rep = &mut self.report;
        rep.listed += 1;
        rep.initialized_400 += u64::from(row.initialized_400);
        rep.signin_redirect += u64::from(row.signin_redirect);
        let template = row.class == Some(RegistryClass::Template);
        if let (false, Some(key)) = (template, &row.key) {
            // Listed, whatever became of it: the overlap compares what the registry names.
            self.listed.insert(key.clone());
        }
        let Some(class) = row.class else {
            // Not measured for reasons of the run: its URL says nothing yet.
            return;
        };
        *rep.by_entry.of(class) += 1;
        rep.templates += u64::from(template);
        let Some(key) = row.key else { return };
        let url = self.urls.entry(key).or_default();
        url.entries += 1;
        url.best = Some(url.best.map_or(class, |b| b.min(class)));
    }

    /// The section, each list cut to `top_n`.
    pub fn finish(self, top_n: usize) -> RegistryReport {
        let mut rep = self.report;
        if rep.listed == 0 {
            return RegistryReport::default();
        }
        rep.urls = self.urls.len() as u64;
        let mut shared: Vec<FanOut> = Vec::new();
        for (key, url) in self.urls {
            if let Some(best) = url.best {
                *rep.by_url.of(best) += 1;
            }
            if url.entries > 1 {
                shared.push(FanOut {
                    url: key,
                    entries: url.entries,
                });
            }
        }
        rep.shared_urls = shared.len() as u64;
        shared.sort_by(|a, b| b.entries.cmp(&a.entries).then_with(|| a.url.cmp(&b.url)));
        shared.truncate(top_n);
        rep.fan_outs = shared;
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
