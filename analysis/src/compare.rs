//! What changed between two runs, site by site (keyed by origin; records without an origin,
//! i.e. invalid input, are not compared).

use std::collections::{BTreeMap, HashMap};

use mcpcensus_store::{Outcome, Record};

use crate::aggregate::{scanned, server_fingerprint};
use crate::model::{Comparison, Transition, LIST_CAP};

#[derive(Debug, Clone)]
struct SiteState {
    outcome: Outcome,
    endpoint: bool,
    tools: Option<String>,
}

fn state(r: &Record) -> SiteState {
    let listed = r.tool_count.is_some_and(|n| n > 0);
    SiteState {
        outcome: r.outcome,
        endpoint: r.endpoint.is_some(),
        tools: listed.then(|| server_fingerprint(r)),
    }
}

/// Compares `run` with the earlier `base` run.
pub fn compare<E>(
    base_run: &str,
    base: impl Iterator<Item = Result<Record, E>>,
    run: &str,
    current: impl Iterator<Item = Result<Record, E>>,
) -> Result<Comparison, E> {
    let mut before: HashMap<String, SiteState> = HashMap::new();
    for r in base {
        let r = r?;
        if let (Some(origin), true) = (&r.origin, scanned(r.outcome)) {
            before.insert(origin.clone(), state(&r));
        }
    }
    let mut c = Comparison {
        base_run: base_run.to_owned(),
        run: run.to_owned(),
        ..Default::default()
    };
    let mut transitions: BTreeMap<(String, String), u64> = BTreeMap::new();
    let (mut new, mut vanished, mut changed) = (Vec::new(), Vec::new(), Vec::new());
    let (mut endpoints_before, mut passing_before) = (0i64, 0i64);
    for s in before.values() {
        endpoints_before += i64::from(s.endpoint);
        passing_before += i64::from(s.outcome == Outcome::Pass);
    }
    let (mut endpoints_now, mut passing_now) = (0i64, 0i64);
    for r in current {
        let r = r?;
        let (Some(origin), true) = (&r.origin, scanned(r.outcome)) else {
            continue;
        };
        let now = state(&r);
        endpoints_now += i64::from(now.endpoint);
        passing_now += i64::from(now.outcome == Outcome::Pass);
        match before.remove(origin) {
            None => {
                if now.endpoint {
                    new.push(origin.clone());
                }
            }
            Some(was) => {
                if now.endpoint && !was.endpoint {
                    new.push(origin.clone());
                }
                if was.endpoint && !now.endpoint {
                    vanished.push(origin.clone());
                }
                if let (Some(a), Some(b)) = (&was.tools, &now.tools) {
                    if a != b {
                        changed.push(origin.clone());
                    }
                }
                if was.outcome != now.outcome {
                    let key = (
                        was.outcome.as_str().to_owned(),
                        now.outcome.as_str().to_owned(),
                    );
                    *transitions.entry(key).or_default() += 1;
                }
            }
        }
    }
    // Sites the earlier run had and this one did not scan.
    vanished.extend(
        before
            .into_iter()
            .filter(|(_, s)| s.endpoint)
            .map(|(o, _)| o),
    );
    c.endpoints_delta = endpoints_now - endpoints_before;
    c.passing_delta = passing_now - passing_before;
    (c.new_endpoint_count, c.new_endpoints) = capped(new);
    (c.vanished_endpoint_count, c.vanished_endpoints) = capped(vanished);
    (c.changed_tool_list_count, c.changed_tool_lists) = capped(changed);
    c.outcome_transitions = transitions
        .into_iter()
        .map(|((from, to), sites)| Transition { from, to, sites })
        .collect();
    Ok(c)
}

fn capped(mut list: Vec<String>) -> (u64, Vec<String>) {
    let count = list.len() as u64;
    list.sort_unstable();
    list.truncate(LIST_CAP);
    (count, list)
}
