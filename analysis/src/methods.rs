//! The methods section's data: each run's manifest read for what changes verdicts, and how
//! the record outcomes map to the measurement's five (pass, partial, fail, not measured, out
//! of scope).

use mcpcensus_store::{format_timestamp, RunManifest};
use serde_json::Value;

use crate::model::{InputFile, Methods, OutcomeMapping, Report, RunMethods, Setting};

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
    let p = &manifest.provenance;
    RunMethods {
        run_id: manifest.run_id.clone(),
        manifest: true,
        started_at: Some(format_timestamp(manifest.started_at)),
        ended_at: manifest.ended_at.map(format_timestamp),
        status: Some(manifest.status.as_str().to_owned()),
        mcpcensus_version: recorded(&p.mcpcensus_version),
        build: recorded(&p.build),
        public_suffix_list: recorded(&p.public_suffix_list),
        settings: VERDICT_SETTINGS
            .iter()
            .map(|(name, pointer)| Setting {
                name: (*name).to_owned(),
                value: string_at(&manifest.config, pointer),
            })
            .collect(),
        lines_read: manifest.counts.as_ref().map(|c| c.lines_read),
        inputs: p
            .inputs
            .iter()
            .map(|i| InputFile {
                path: i.input.clone(),
                bytes: i.bytes,
                xxh3_64: i.xxh3_64.clone(),
            })
            .collect(),
    }
}

/// Fills in the methods of every run in the report's history from `manifests` (a run
/// without one is marked so), and the outcome mapping.
pub fn attach_methods(report: &mut Report, manifests: &[RunManifest]) {
    let runs = report
        .history
        .iter()
        .map(|h| match manifests.iter().find(|m| m.run_id == h.run_id) {
            Some(m) => run_methods(m),
            None => RunMethods {
                run_id: h.run_id.clone(),
                ..RunMethods::default()
            },
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
/// report's runs loaded before ClickHouse kept manifests, from the store `--from` names).
pub fn fill_missing_methods(report: &mut Report, manifests: &[RunManifest]) {
    for m in report.methods.runs.iter_mut().filter(|m| !m.manifest) {
        if let Some(manifest) = manifests.iter().find(|x| x.run_id == m.run_id) {
            *m = run_methods(manifest);
        }
    }
}

/// Gives each finding its rule's title (`title_of` looks a rule id up in the catalog).
pub fn attach_titles(report: &mut Report, title_of: impl Fn(&str) -> Option<String>) {
    for f in &mut report.run.findings {
        f.title = title_of(&f.rule_id);
    }
}
