//! The methods section's data: each run's manifest read for what changes verdicts, and how
//! the record outcomes map to the measurement's five (pass, partial, fail, not measured, out
//! of scope).

use std::collections::BTreeMap;

use mcpcensus_store::{format_timestamp, InputChecksum, RunManifest, RunStatus};
use serde_json::Value;

use crate::model::{
    InputFile, Methods, OutcomeMapping, RankSource, Report, RunMethods, Setting, ShardMethods,
};

/// The settings that change verdicts: a label and where the effective config holds it (a
/// crawler test checks each path against the config). A setting the manifest does not hold is
/// shown as not recorded.
pub const VERDICT_SETTINGS: [(&str, &str); 15] = [
    ("probe level", "/crawl/probe"),
    ("site deadline (s)", "/crawl/site_deadline_secs"),
    ("document cap (bytes)", "/crawl/document_cap_bytes"),
    ("tools kept per server", "/crawl/tools_cap"),
    ("connect timeout (ms)", "/net/connect_timeout_ms"),
    ("resolver timeout (ms)", "/net/resolver_timeout_ms"),
    ("requests per second per host", "/net/per_host_rps"),
    ("burst per host", "/net/per_host_burst"),
    ("requests per second per IP", "/net/per_ip_rps"),
    ("connections per IP", "/net/per_ip_connections"),
    ("robots policy", "/net/robots"),
    ("HTTP versions", "/net/http"),
    ("user agent", "/net/user_agent"),
    ("opt-out lists", "/input/exclude"),
    ("IP-range opt-outs", "/net/exclude_net"),
];

/// Record outcomes and what each stands for in the measurement.
pub const OUTCOME_MAPPING: [(&str, &str); 10] = [
    ("pass", "pass"),
    ("partial", "partial"),
    ("fail", "fail"),
    ("not_measured", "not measured"),
    ("unreachable", "not measured: no answer"),
    ("out_of_scope", "out of scope"),
    ("excluded", "not scanned: on the opt-out list"),
    ("invalid_input", "not scanned: not a usable host"),
    ("planned", "not scanned: dry run"),
    ("not_started", "not scanned: the run stopped first"),
];

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) if items.is_empty() => "none".to_owned(),
        Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

fn string_at(v: &Value, pointer: &str) -> Option<String> {
    v.pointer(pointer).filter(|x| !x.is_null()).map(text)
}

/// Empty provenance fields are a manifest written before they existed: not recorded.
fn recorded(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_owned())
}

/// What a run's manifest says about how it was taken: the dates and status, the build and
/// inputs (its `provenance`) and the settings that change verdicts (its `config`).
pub fn run_methods(manifest: &RunManifest) -> RunMethods {
    combined_methods(&[manifest])
}

/// One value for every part: the parts' value when they agree, else each shard's.
fn agreed(
    parts: &[&RunManifest],
    value: impl Fn(&RunManifest) -> Option<String>,
) -> Option<String> {
    let values: Vec<Option<String>> = parts.iter().map(|m| value(m)).collect();
    if values.windows(2).all(|w| w[0] == w[1]) {
        return values.into_iter().next().flatten();
    }
    let each: Vec<String> = parts
        .iter()
        .zip(&values)
        .map(|(m, v)| {
            let v = v.as_deref().unwrap_or("not recorded");
            format!("{} {v}", m.shard().unwrap_or("every site"))
        })
        .collect();
    Some(format!("differs by shard: {}", each.join("; ")))
}

/// A status for the run from its parts': the worst of them (failed, then interrupted, then
/// running), complete only when every part is.
fn combined_status(parts: &[&RunManifest]) -> RunStatus {
    let has = |s: RunStatus| parts.iter().any(|m| m.status == s);
    [
        RunStatus::Failed,
        RunStatus::Interrupted,
        RunStatus::Running,
    ]
    .into_iter()
    .find(|s| has(*s))
    .unwrap_or(RunStatus::Complete)
}

/// The shards of `K/N` that no part is: a shard process that never wrote its manifest here.
fn missing_shards(parts: &[&RunManifest]) -> Vec<String> {
    let parsed: Vec<(u32, u32)> = parts
        .iter()
        .filter_map(|m| {
            let (k, n) = m.shard()?.split_once('/')?;
            Some((k.parse().ok()?, n.parse().ok()?))
        })
        .collect();
    let Some(count) = parsed.iter().map(|(_, n)| *n).max() else {
        return Vec::new();
    };
    (0..count)
        .filter(|k| !parsed.iter().any(|(i, _)| i == k))
        .map(|k| format!("{k}/{count}"))
        .collect()
}

/// The key an input is the same file by: its checksum and size, else (standard input, or no
/// checksum recorded) its part and path, so two shards' standard inputs are two inputs.
fn input_key(part: usize, i: &InputChecksum) -> String {
    match (&i.xxh3_64, i.bytes) {
        (Some(h), Some(b)) => format!("{h}:{b}"),
        _ => format!("part{part}:{}", i.input),
    }
}

/// The run's lines, each input line once however many shards read it. Exact when every part's
/// manifest gives each input's lines (their sum its `lines_read`): the distinct inputs' lines
/// summed. Else (manifests written before inputs' lines were recorded) parts that read the
/// same inputs read the same lines: the largest count of each such group, summed over groups.
fn combined_lines(parts: &[&RunManifest]) -> Option<u64> {
    let read: Vec<u64> = parts
        .iter()
        .map(|m| m.counts.as_ref().map(|c| c.lines_read))
        .collect::<Option<_>>()?;
    let covered = parts.iter().zip(&read).all(|(m, lines)| {
        m.provenance
            .inputs
            .iter()
            .filter_map(|i| i.lines)
            .sum::<u64>()
            == *lines
    });
    if covered {
        let mut distinct = BTreeMap::new();
        for (n, m) in parts.iter().enumerate() {
            for i in m.provenance.inputs.iter().filter(|i| i.lines.is_some()) {
                distinct.insert(input_key(n, i), i.lines.unwrap_or(0));
            }
        }
        return Some(distinct.values().sum());
    }
    let mut groups: BTreeMap<Vec<String>, u64> = BTreeMap::new();
    for (n, (m, lines)) in parts.iter().zip(&read).enumerate() {
        let mut key: Vec<String> = m
            .provenance
            .inputs
            .iter()
            .map(|i| input_key(n, i))
            .collect();
        key.sort();
        let most = groups.entry(key).or_default();
        *most = (*most).max(*lines);
    }
    Some(groups.values().sum())
}

/// Each distinct input once, with the shards that read it.
fn combined_inputs(parts: &[&RunManifest]) -> Vec<InputFile> {
    let mut out: Vec<(String, InputFile)> = Vec::new();
    for (n, m) in parts.iter().enumerate() {
        for i in &m.provenance.inputs {
            let key = input_key(n, i);
            let at = match out.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => {
                    out.push((
                        key,
                        InputFile {
                            path: i.input.clone(),
                            bytes: i.bytes,
                            xxh3_64: i.xxh3_64.clone(),
                            lines: i.lines,
                            read_by: Vec::new(),
                        },
                    ));
                    out.len() - 1
                }
            };
            if let Some(shard) = m.shard() {
                out[at].1.read_by.push(shard.to_owned());
            }
        }
    }
    out.into_iter().map(|(_, i)| i).collect()
}

/// Where the parts' ranks came from: a re-scan's selection (today's lists, the sites each
/// source ranked, summed over the parts), else the run's input lists.
fn rank_source(parts: &[&RunManifest]) -> RankSource {
    let rescans: Vec<&Value> = parts
        .iter()
        .filter_map(|m| m.selection.as_ref()?.get("rescan").filter(|r| !r.is_null()))
        .collect();
    let mut lists: Vec<String> = Vec::new();
    let mut push = |path: String| {
        if !lists.contains(&path) {
            lists.push(path);
        }
    };
    if rescans.is_empty() {
        parts
            .iter()
            .flat_map(|m| &m.provenance.inputs)
            .for_each(|i| push(i.input.clone()));
        return RankSource {
            from: "lists".into(),
            lists,
            ..RankSource::default()
        };
    }
    let count = |r: &Value, key: &str| r.get(key).and_then(Value::as_u64).unwrap_or(0);
    let (mut by_lists, mut kept) = (0, 0);
    for r in &rescans {
        let listed_again = count(r, "ranks_from_lists");
        by_lists += listed_again + count(r, "new");
        kept += count(r, "stale").saturating_sub(listed_again);
        r.get("lists")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|l| l.get("path").and_then(Value::as_str))
            .for_each(|p| push(p.to_owned()));
    }
    RankSource {
        from: "rescan".into(),
        lists,
        sites_ranked_by_lists: Some(by_lists),
        sites_keeping_last_rank: Some(kept),
    }
}

/// How a run written by one process or by several shard processes was taken: its parts'
/// manifests read as one (dates from the first start to the last end, settings where they
/// agree, each line once).
pub fn combined_methods(parts: &[&RunManifest]) -> RunMethods {
    let Some(first) = parts.first() else {
        return RunMethods::default();
    };
    let all_ended = parts.iter().all(|m| m.ended_at.is_some());
    let sharded = parts.len() > 1 || first.shard().is_some();
    RunMethods {
        run_id: first.run_id.clone(),
        manifest: true,
        started_at: parts
            .iter()
            .map(|m| m.started_at)
            .min()
            .map(format_timestamp),
        ended_at: all_ended
            .then(|| parts.iter().filter_map(|m| m.ended_at).max())
            .flatten()
            .map(format_timestamp),
        status: Some(combined_status(parts).as_str().to_owned()),
        mcpcensus_version: agreed(parts, |m| recorded(&m.provenance.mcpcensus_version)),
        build: agreed(parts, |m| recorded(&m.provenance.build)),
        public_suffix_list: agreed(parts, |m| recorded(&m.provenance.public_suffix_list)),
        settings: VERDICT_SETTINGS
            .iter()
            .map(|(name, pointer)| Setting {
                name: (*name).to_owned(),
                value: agreed(parts, |m| string_at(&m.config, pointer)),
            })
            .collect(),
        lines_read: combined_lines(parts),
        inputs: combined_inputs(parts),
        shards: if sharded {
            parts
                .iter()
                .map(|m| ShardMethods {
                    shard: m.shard().unwrap_or("every site").to_owned(),
                    status: m.status.as_str().to_owned(),
                    started_at: format_timestamp(m.started_at),
                    ended_at: m.ended_at.map(format_timestamp),
                    lines_read: m.counts.as_ref().map(|c| c.lines_read),
                    records_written: m.counts.as_ref().map(|c| c.records_written),
                })
                .collect()
        } else {
            Vec::new()
        },
        shards_missing: missing_shards(parts),
        ranks: Some(rank_source(parts)),
    }
}

/// Fills in the methods of every run in the report's history from `manifests` (a run written
/// by shard processes has one a shard; a run without one is marked so), and the outcome
/// mapping.
pub fn attach_methods(report: &mut Report, manifests: &[RunManifest]) {
    let runs = report
        .history
        .iter()
        .map(|h| {
            let parts: Vec<&RunManifest> =
                manifests.iter().filter(|m| m.run_id == h.run_id).collect();
            if parts.is_empty() {
                RunMethods {
                    run_id: h.run_id.clone(),
                    ..RunMethods::default()
                }
            } else {
                combined_methods(&parts)
            }
        })
        .collect();
    report.methods = Methods {
        runs,
        outcome_mapping: OUTCOME_MAPPING
            .iter()
            .map(|(o, m)| OutcomeMapping {
                outcome: (*o).to_owned(),
                measured_as: (*m).to_owned(),
            })
            .collect(),
    };
}

/// Fills in the methods of the runs that have no manifest yet from `manifests` (a ClickHouse
/// report's runs loaded before ClickHouse kept manifests, from the stores `--from` names).
pub fn fill_missing_methods(report: &mut Report, manifests: &[RunManifest]) {
    for m in report.methods.runs.iter_mut().filter(|m| !m.manifest) {
        let parts: Vec<&RunManifest> = manifests.iter().filter(|x| x.run_id == m.run_id).collect();
        if !parts.is_empty() {
            *m = combined_methods(&parts);
        }
    }
}

/// Gives each finding its rule's title (`title_of` looks a rule id up in the catalog).
pub fn attach_titles(report: &mut Report, title_of: impl Fn(&str) -> Option<String>) {
    for f in &mut report.run.findings {
        f.title = title_of(&f.rule_id);
    }
}
