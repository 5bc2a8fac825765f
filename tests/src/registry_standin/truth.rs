//! The counts the probers' classes give the stand-in, from the list alone: an entry takes the
//! best class of its remotes and names that remote's URL (a stdio entry names none and is not
//! probeable); a URL takes the best class of the entries naming it; the facts counted apart
//! (`initialized_400`, `signin_redirect`) are the deciding endpoint's kind.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::kind::{Class, Kind};
use super::list::{Endpoint, Entry, Standin};

/// Fan-outs the report lists (its `top_n`).
pub const FAN_OUTS_SHOWN: usize = 20;

/// What the report's `run.registry` must say of the stand-in (the overlap with the web
/// aside: the stand-in has no web sites).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Truth {
    pub listed: u64,
    pub by_entry: BTreeMap<Class, u64>,
    pub by_url: BTreeMap<Class, u64>,
    pub urls: u64,
    pub shared_urls: u64,
    /// `(url, entries)`, most entries first, then by URL; the first [`FAN_OUTS_SHOWN`].
    pub fan_outs: Vec<(String, u64)>,
    pub templates: u64,
    pub initialized_400: u64,
    pub signin_redirect: u64,
}

impl Standin {
    /// The remote deciding an entry's class: its best; `None` for a stdio entry.
    pub fn decider(&self, entry: &Entry) -> Option<&Endpoint> {
        let endpoints = entry.remotes.iter().map(|r| &self.endpoints[r.endpoint]);
        let best = endpoints.clone().min_by_key(|e| e.kind.class())?;
        // Which of two equal remotes names the entry's URL would be the crawler's choice,
        // not the stand-in's: the list has no such tie.
        let ties = endpoints
            .filter(|e| e.kind.class() == best.kind.class())
            .count();
        assert_eq!(ties, 1, "{} ties between remotes", entry.name);
        Some(best)
    }

    /// Every endpoint an entry names (any of its remotes) and how many entries name it.
    pub fn named(&self) -> Vec<(&Endpoint, usize)> {
        let mut count = vec![0; self.endpoints.len()];
        for entry in &self.entries {
            for r in &entry.remotes {
                count[r.endpoint] += 1;
            }
        }
        self.endpoints
            .iter()
            .zip(count)
            .filter(|(_, n)| *n > 0)
            .collect()
    }

    /// The counts on a web at `port` (the URLs name it).
    pub fn truth(&self, port: u16) -> Truth {
        let zeros: BTreeMap<Class, u64> = Class::ALL.iter().map(|c| (*c, 0)).collect();
        let mut t = Truth {
            listed: 0,
            by_entry: zeros.clone(),
            by_url: zeros,
            urls: 0,
            shared_urls: 0,
            fan_outs: Vec::new(),
            templates: 0,
            initialized_400: 0,
            signin_redirect: 0,
        };
        let mut urls: BTreeMap<String, (u64, Class)> = BTreeMap::new();
        for entry in &self.entries {
            t.listed += 1;
            let Some(e) = self.decider(entry) else {
                *t.by_entry.entry(Class::NotProbeable).or_default() += 1;
                continue;
            };
            let class = e.kind.class();
            *t.by_entry.entry(class).or_default() += 1;
            t.templates += u64::from(class == Class::Template);
            t.initialized_400 += u64::from(e.kind == Kind::Initialized400);
            t.signin_redirect += u64::from(e.kind == Kind::SigninRedirect);
            let url = urls.entry(e.canonical(port)).or_insert((0, class));
            url.0 += 1;
            url.1 = url.1.min(class);
        }
        t.urls = urls.len() as u64;
        let mut shared = Vec::new();
        for (url, (entries, class)) in urls {
            *t.by_url.entry(class).or_default() += 1;
            if entries > 1 {
                shared.push((url, entries));
            }
        }
        t.shared_urls = shared.len() as u64;
        shared.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        shared.truncate(FAN_OUTS_SHOWN);
        t.fan_outs = shared;
        t
    }
}

impl Truth {
    /// The keys of the report's `run.registry` this truth sets, as the report writes them.
    pub fn to_json(&self) -> Value {
        let classes = |m: &BTreeMap<Class, u64>| -> Value {
            m.iter()
                .map(|(c, n)| (c.as_str().to_owned(), json!(n)))
                .collect()
        };
        let fan_outs: Vec<Value> = self
            .fan_outs
            .iter()
            .map(|(url, entries)| json!({"url": url, "entries": entries}))
            .collect();
        json!({
            "listed": self.listed,
            "by_entry": classes(&self.by_entry),
            "by_url": classes(&self.by_url),
            "urls": self.urls,
            "shared_urls": self.shared_urls,
            "fan_outs": fan_outs,
            "templates": self.templates,
            "initialized_400": self.initialized_400,
            "signin_redirect": self.signin_redirect,
        })
    }
}
