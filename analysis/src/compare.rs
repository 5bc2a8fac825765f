//! What changed between two runs, site by site (keyed by origin; records without an origin,
//! i.e. invalid input, are not compared). Only sites scanned in both runs are compared, so a
//! re-scan of a subset does not report the sites it left alone as vanished; tool lists are
//! compared by their names, and apart from that by their description fingerprint, so a survey
//! run (no descriptions kept) against a deep-probe run is no tool change. The base run's
//! endpoints are split by what this run saw: still there, moved (another URL), vanished (the
//! site was measured and shows none), unavailable (not measured or unreachable tonight) and
//! not scanned.

use std::collections::{BTreeMap, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};

use mcpcensus_store::{Outcome, Record};

use crate::aggregate::scanned;
use crate::model::{Comparison, Transition, LIST_CAP};
use crate::tool_changes::{server_tools, tool_changes, LISTED};

#[derive(Debug, Clone)]
struct SiteState {
    outcome: Outcome,
    endpoint: bool,
    /// A hash of the endpoint's URL (8 bytes a site), when there is one.
    endpoint_url: Option<u64>,
    /// A hash of the sorted tool names (memory: 8 bytes a site), when the server listed tools.
    names: Option<u64>,
    /// The tool list fingerprint (the deep probe's), when there is one.
    descriptions: Option<String>,
}

fn state(r: &Record) -> SiteState {
    let listed = r.tool_count.is_some_and(|n| n > 0);
    let names = listed.then(|| {
        let mut names: Vec<&str> = r.tool_names.iter().map(String::as_str).collect();
        names.sort_unstable();
        let mut h = DefaultHasher::new();
        names.hash(&mut h);
        h.finish()
    });
    SiteState {
        outcome: r.outcome,
        endpoint: r.endpoint.is_some(),
        endpoint_url: r.endpoint.as_ref().map(|url| {
            let mut h = DefaultHasher::new();
            url.hash(&mut h);
            h.finish()
        }),
        names,
        descriptions: r.tool_list_fingerprint.clone().filter(|_| listed),
    }
}

#[derive(Debug, Default)]
struct Lists {
    new: Vec<String>,
    vanished: Vec<String>,
    moved: Vec<String>,
    unavailable: Vec<String>,
    not_scanned: Vec<String>,
    names: Vec<String>,
    descriptions: Vec<String>,
}

/// Compares `run` with the earlier `base` run.
pub fn compare<E>(
    base_run: &str,
    base: impl Iterator<Item = Result<Record, E>>,
    run: &str,
    current: impl Iterator<Item = Result<Record, E>>,
) -> Result<Comparison, E> {
    let mut before: HashMap<String, SiteState> = HashMap::new();
    let (mut base_tools, mut run_tools) = (BTreeMap::new(), BTreeMap::new());
    for r in base {
        let r = r?;
        if let (Some(origin), true) = (&r.origin, scanned(r.outcome)) {
            before.insert(origin.clone(), state(&r));
            if let Some(tools) = server_tools(&r) {
                base_tools.insert(origin.clone(), tools);
            }
        }
    }
    let mut c = Comparison {
        base_run: base_run.to_owned(),
        run: run.to_owned(),
        ..Default::default()
    };
    let mut transitions: BTreeMap<(String, String), u64> = BTreeMap::new();
    let mut lists = Lists::default();
    let (mut endpoints_before, mut passing_before) = (0i64, 0i64);
    let (mut endpoints_now, mut passing_now) = (0i64, 0i64);
    for r in current {
        let r = r?;
        let (Some(origin), true) = (&r.origin, scanned(r.outcome)) else {
            continue;
        };
        let Some(was) = before.remove(origin) else {
            c.sites_only_in_run += 1;
            continue;
        };
        let now = state(&r);
        c.sites_in_both += 1;
        if let Some(tools) = server_tools(&r) {
            run_tools.insert(origin.clone(), tools);
        }
        endpoints_before += i64::from(was.endpoint);
        passing_before += i64::from(was.outcome == Outcome::Pass);
        endpoints_now += i64::from(now.endpoint);
        passing_now += i64::from(now.outcome == Outcome::Pass);
        if now.endpoint && !was.endpoint {
            lists.new.push(origin.clone());
        }
        // The base run's endpoints, each in one place: down tonight is not gone.
        if was.endpoint {
            if !measured(now.outcome) {
                lists.unavailable.push(origin.clone());
            } else if !now.endpoint {
                lists.vanished.push(origin.clone());
            } else if now.endpoint_url != was.endpoint_url {
                lists.moved.push(origin.clone());
            } else {
                c.endpoints_still_there += 1;
            }
        }
        if let (Some(a), Some(b)) = (&was.names, &now.names) {
            if a != b {
                lists.names.push(origin.clone());
            } else if matches!((&was.descriptions, &now.descriptions), (Some(x), Some(y)) if x != y)
            {
                lists.descriptions.push(origin.clone());
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
    c.sites_only_in_base = before.len() as u64;
    lists.not_scanned = before
        .into_iter()
        .filter(|(_, was)| was.endpoint)
        .map(|(origin, _)| origin)
        .collect();
    c.endpoints_delta = endpoints_now - endpoints_before;
    c.passing_delta = passing_now - passing_before;
    (c.new_endpoint_count, c.new_endpoints) = capped(lists.new);
    (c.vanished_endpoint_count, c.vanished_endpoints) = capped(lists.vanished);
    (c.endpoints_moved_count, c.endpoints_moved) = capped(lists.moved);
    (c.endpoints_unavailable_count, c.endpoints_unavailable) = capped(lists.unavailable);
    (c.endpoints_not_scanned_count, c.endpoints_not_scanned) = capped(lists.not_scanned);
    (c.changed_tool_list_count, c.changed_tool_lists) = capped(lists.names);
    (
        c.changed_tool_description_count,
        c.changed_tool_descriptions,
    ) = capped(lists.descriptions);
    c.tool_changes = tool_changes(&base_tools, &run_tools, LISTED);
    c.outcome_transitions = transitions
        .into_iter()
        .map(|((from, to), sites)| Transition { from, to, sites })
        .collect();
    Ok(c)
}

/// Whether this run measured the site: not `not_measured` and not `unreachable` (a site down
/// tonight says nothing about its endpoint).
fn measured(outcome: Outcome) -> bool {
    !matches!(outcome, Outcome::NotMeasured | Outcome::Unreachable)
}

fn capped(mut list: Vec<String>) -> (u64, Vec<String>) {
    let count = list.len() as u64;
    list.sort_unstable();
    list.truncate(LIST_CAP);
    (count, list)
}
