//! The numbers each report must give, computed from the web's definition (`web.rs`) and the
//! survey's rules as docs/rules.md states them: a server that lists its tools passes, a site
//! without MCP is out of scope, and a 5xx or a 429 ("not now") leaves the site not measured
//! with the failure as its reason, never out of scope and never a vanished server.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::web::{self, Serves};

/// How the second night's run chose its sites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Each night crawls its list.
    Lists,
    /// The second night is `crawl --rescan-older-than 0s LIST`: every site the store holds
    /// (those the list leaves out keep their last rank) and the list's new sites.
    Rescan,
}

/// What the survey must record for one site on one night.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    pub origin: String,
    pub rank: u64,
    pub outcome: &'static str,
    /// `(outcome, reason kind)` for sites not measured.
    pub reason_kind: Option<&'static str>,
    pub endpoint: Option<String>,
    pub tools: Option<Vec<String>>,
    pub fleet: bool,
    /// How the site failed tonight, if it did.
    pub shape: Shape,
}

/// What kept a site from being measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Answered,
    /// `/mcp` answered 500.
    McpError,
    /// Every path answered this status.
    Down(u16),
}

/// Where the second night's ranks come from, as the methods must say: its list; for the
/// re-scan, today's list for the sites it names (listed again or new) and the first night's
/// rank for the sites it leaves out.
pub fn rank_source(mode: Mode, list: &str) -> Value {
    match mode {
        Mode::Lists => json!({"from": "lists", "lists": [list]}),
        Mode::Rescan => {
            let listed = (0..web::sites()).filter(|i| web::listed(*i, 2)).count();
            let kept = (0..web::sites())
                .filter(|i| web::listed(*i, 1) && !web::listed(*i, 2))
                .count();
            let canonical = std::fs::canonicalize(list).unwrap();
            json!({
                "from": "rescan",
                "lists": [canonical.display().to_string()],
                "sites_ranked_by_lists": listed,
                "sites_keeping_last_rank": kept,
            })
        }
    }
}

/// Every site `night`'s run scans, as the web defines it.
pub fn night(night: u8, mode: Mode, port: u16) -> Vec<Expected> {
    (0..web::sites())
        .filter(|i| {
            web::listed(*i, night) || (night == 2 && mode == Mode::Rescan && web::listed(*i, 1))
        })
        .map(|i| {
            let rank = if web::listed(i, night) {
                web::rank(i, night)
            } else {
                web::rank(i, 1)
            };
            let origin = format!("https://{}:{port}", web::host(i));
            let served = web::serves(i, night);
            let shape = match served {
                Serves::McpError => Shape::McpError,
                Serves::Everything(status) => Shape::Down(status),
                _ => Shape::Answered,
            };
            let (outcome, reason_kind, endpoint, tools) = match served {
                Serves::Plain => ("out_of_scope", None, None, None),
                Serves::Server { path, tools, .. } => {
                    ("pass", None, Some(format!("{origin}{path}")), Some(tools))
                }
                Serves::McpError | Serves::Everything(500) => {
                    ("not_measured", Some("server_error"), None, None)
                }
                Serves::Everything(429) => ("not_measured", Some("rate_limited"), None, None),
                Serves::Everything(other) => panic!("the web serves no {other} everywhere"),
            };
            Expected {
                origin,
                rank,
                outcome,
                reason_kind,
                endpoint,
                tools,
                fleet: web::role(i) == web::Role::Fleet,
                shape,
            }
        })
        .collect()
}

/// The report's rank buckets (cumulative "top N"), as `(bucket, scanned, endpoints, passing)`.
fn rank_buckets(sites: &[Expected]) -> Value {
    let tops: [(&str, Option<u64>); 6] = [
        ("top 1k", Some(1_000)),
        ("top 10k", Some(10_000)),
        ("top 100k", Some(100_000)),
        ("top 1M", Some(1_000_000)),
        ("top 10M", Some(10_000_000)),
        ("all ranked", None),
    ];
    let mut out: Vec<Value> = tops
        .iter()
        .map(|(name, top)| {
            let inside: Vec<&Expected> = sites
                .iter()
                .filter(|s| top.is_none_or(|t| s.rank <= t))
                .collect();
            json!({
                "bucket": name,
                "scanned": inside.len(),
                "endpoints": inside.iter().filter(|s| s.endpoint.is_some()).count(),
                "passing": inside.iter().filter(|s| s.outcome == "pass").count(),
            })
        })
        .collect();
    out.push(json!({"bucket": "unranked", "scanned": 0, "endpoints": 0, "passing": 0}));
    Value::Array(out)
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    match v.len() {
        0 => 0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2,
    }
}

/// The run section's numbers the web decides, in the report's JSON shape.
pub fn run_numbers(sites: &[Expected]) -> Value {
    let count = |f: &dyn Fn(&Expected) -> bool| sites.iter().filter(|s| f(s)).count() as u64;
    let mut outcomes: BTreeMap<&str, u64> = BTreeMap::new();
    let mut reasons: BTreeMap<(&str, &str), u64> = BTreeMap::new();
    for s in sites {
        *outcomes.entry(s.outcome).or_default() += 1;
        if let Some(kind) = s.reason_kind {
            *reasons.entry((s.outcome, kind)).or_default() += 1;
        }
    }
    let endpoints = count(&|s| s.endpoint.is_some());
    let fleet = count(&|s| s.fleet && s.endpoint.is_some());
    let tools: Vec<u64> = sites
        .iter()
        .filter_map(|s| s.tools.as_ref().map(|t| t.len() as u64))
        .collect();
    json!({
        "sites_scanned": sites.len(),
        "endpoints": endpoints,
        "outcomes": outcomes,
        "not_measured_reasons": reasons
            .iter()
            .map(|((o, k), n)| json!([o, k, n]))
            .collect::<Vec<_>>(),
        "tool_servers": tools.len(),
        "tool_min": tools.iter().min().copied().unwrap_or(0),
        "tool_max": tools.iter().max().copied().unwrap_or(0),
        "tool_median": median(tools.clone()),
        "endpoints_platforms_once": endpoints - fleet.saturating_sub(1),
        "fleet_platform_sites": fleet,
        "adoption_by_rank": rank_buckets(sites),
        "second_looks": count(&|s| s.outcome == "not_measured"),
        "not_now_readings": nonzero(&[
            ("mcp_get_not_now", count(&|s| s.shape == Shape::McpError)),
            ("robots_server_error", count(&|s| s.shape == Shape::Down(500))),
        ]),
        "robots_kept_out": nonzero(&[("server_error", count(&|s| s.shape == Shape::Down(500)))]),
    })
}

fn nonzero(pairs: &[(&str, u64)]) -> Value {
    pairs
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| ((*k).to_owned(), json!(n)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The same numbers read from a report's `run`.
pub fn run_numbers_of(run: &Value) -> Value {
    let outcomes: BTreeMap<String, u64> = run["outcomes"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v["count"].as_u64().unwrap()))
        .filter(|(_, n)| *n > 0)
        .collect();
    let reasons: Vec<Value> = run["outcomes_by_reason_kind"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["outcome"] == "not_measured")
        .map(|r| json!([r["outcome"], r["reason_kind"], r["sites"]]))
        .collect();
    let mut reasons = reasons;
    reasons.sort_by_key(|r| r.to_string());
    let fleet = run["platforms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["tool_count"] == 3 && p["sites"].as_u64().unwrap() > 1)
        .map_or(0, |p| p["sites"].as_u64().unwrap());
    let buckets: Vec<Value> = run["adoption_by_rank"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            json!({
                "bucket": b["bucket"], "scanned": b["scanned"],
                "endpoints": b["endpoints"], "passing": b["passing"],
            })
        })
        .collect();
    json!({
        "sites_scanned": run["sites_scanned"],
        "endpoints": run["endpoints"],
        "outcomes": outcomes,
        "not_measured_reasons": reasons,
        "tool_servers": run["tool_counts"]["servers"],
        "tool_min": run["tool_counts"]["min"],
        "tool_max": run["tool_counts"]["max"],
        "tool_median": run["tool_counts"]["median"],
        "endpoints_platforms_once": run["adoption"]["endpoints_platforms_once"],
        "fleet_platform_sites": fleet,
        "adoption_by_rank": buckets,
        "second_looks": run["second_look"]["looked_again"],
        "not_now_readings": run["not_now_readings"],
        "robots_kept_out": run["robots_kept_out"],
    })
}

/// The comparison of the second night with the first, as the web decides it.
pub fn comparison(base: &[Expected], now: &[Expected]) -> Value {
    let before: BTreeMap<&str, &Expected> = base.iter().map(|s| (s.origin.as_str(), s)).collect();
    let after: BTreeMap<&str, &Expected> = now.iter().map(|s| (s.origin.as_str(), s)).collect();
    let mut c: BTreeMap<&str, i64> = BTreeMap::new();
    let mut listed: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut transitions: BTreeMap<(String, String), u64> = BTreeMap::new();
    for (origin, was) in &before {
        let Some(is) = after.get(origin) else {
            *c.entry("sites_only_in_base").or_default() += 1;
            if was.endpoint.is_some() {
                *c.entry("endpoints_not_scanned_count").or_default() += 1;
                listed
                    .entry("endpoints_not_scanned")
                    .or_default()
                    .push(origin.to_string());
            }
            continue;
        };
        *c.entry("sites_in_both").or_default() += 1;
        let key = match (&was.endpoint, &is.endpoint) {
            (Some(_), _) if is.outcome == "not_measured" => Some("endpoints_unavailable_count"),
            (Some(_), None) => Some("vanished_endpoint_count"),
            (Some(a), Some(b)) if a != b => Some("endpoints_moved_count"),
            (Some(_), Some(_)) => Some("endpoints_still_there"),
            (None, Some(_)) => Some("new_endpoint_count"),
            (None, None) => None,
        };
        if let Some(key) = key {
            *c.entry(key).or_default() += 1;
            if let Some((_, list)) = LISTS.iter().find(|(count, _)| *count == key) {
                listed.entry(list).or_default().push(origin.to_string());
            }
        }
        if let (Some(a), Some(b)) = (&was.tools, &is.tools) {
            if a != b {
                *c.entry("changed_tool_list_count").or_default() += 1;
            }
        }
        let delta = |e: &Expected| {
            (
                i64::from(e.endpoint.is_some()),
                i64::from(e.outcome == "pass"),
            )
        };
        *c.entry("endpoints_delta").or_default() += delta(is).0 - delta(was).0;
        *c.entry("passing_delta").or_default() += delta(is).1 - delta(was).1;
        if was.outcome != is.outcome {
            *transitions
                .entry((was.outcome.to_owned(), is.outcome.to_owned()))
                .or_default() += 1;
        }
    }
    c.insert(
        "sites_only_in_run",
        after.keys().filter(|o| !before.contains_key(*o)).count() as i64,
    );
    let mut out = json!({});
    for key in COMPARISON_KEYS {
        out[key] = json!(c.get(key).copied().unwrap_or(0));
    }
    for (_, list) in LISTS {
        let mut origins = listed.remove(list).unwrap_or_default();
        origins.sort();
        origins.truncate(LIST_CAP);
        out[list] = json!(origins);
    }
    let mut transitions: Vec<Value> = transitions
        .into_iter()
        .map(|((from, to), sites)| json!([from, to, sites]))
        .collect();
    transitions.sort_by_key(|t| t.to_string());
    out["outcome_transitions"] = Value::Array(transitions);
    out
}

const COMPARISON_KEYS: [&str; 12] = [
    "sites_in_both",
    "sites_only_in_base",
    "sites_only_in_run",
    "endpoints_delta",
    "passing_delta",
    "new_endpoint_count",
    "vanished_endpoint_count",
    "endpoints_still_there",
    "endpoints_moved_count",
    "endpoints_unavailable_count",
    "endpoints_not_scanned_count",
    "changed_tool_list_count",
];

/// The most origins a comparison's list holds (docs/report.md: "at most 1,000").
const LIST_CAP: usize = 1_000;

/// Each count's list of origins (the first `LIST_CAP` in order).
const LISTS: [(&str, &str); 5] = [
    ("new_endpoint_count", "new_endpoints"),
    ("vanished_endpoint_count", "vanished_endpoints"),
    ("endpoints_moved_count", "endpoints_moved"),
    ("endpoints_unavailable_count", "endpoints_unavailable"),
    ("endpoints_not_scanned_count", "endpoints_not_scanned"),
];

/// The same numbers read from a report's `comparison`.
pub fn comparison_of(c: &Value) -> Value {
    let mut out = json!({});
    for key in COMPARISON_KEYS {
        out[key] = c[key].clone();
    }
    for (_, list) in LISTS {
        out[list] = c[list].clone();
    }
    let mut transitions: Vec<Value> = c["outcome_transitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| json!([t["from"], t["to"], t["sites"]]))
        .collect();
    transitions.sort_by_key(|t| t.to_string());
    out["outcome_transitions"] = Value::Array(transitions);
    out
}
