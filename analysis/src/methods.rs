//! The methods section's data: each run's manifest read for what changes verdicts, and how
//! the record outcomes map to the measurement's five (pass, partial, fail, not measured, out
//! of scope).

use mcpcensus_store::{format_timestamp, RunManifest};
use serde_json::Value;

use crate::model::{InputFile, Methods, OutcomeMapping, Report, RunMethods, Setting};

/// The settings that change verdicts: a label and where the effective config holds it.
/// A setting the manifest does not hold is shown as not recorded.
pub const VERDICT_SETTINGS: [(&str, &str); 12] = [
    ("probe level", "/crawl/probe"),
    ("site deadline (s)", "/crawl/site_deadline_secs"),
    ("connect timeout (ms)", "/net/connect_timeout_ms"),
    ("resolver timeout (ms)", "/net/resolver_timeout_ms"),
    ("requests per second per host", "/net/per_host_rps"),
    ("burst per host", "/net/per_host_burst"),
    ("requests per second per IP", "/net/per_ip_rps"),
    ("connections per IP", "/net/per_ip_connections"),
    ("robots policy", "/crawl/robots"),
    ("document cap (bytes)", "/crawl/document_cap_bytes"),
    ("user agent", "/net/user_agent"),
    ("opt-out lists", "/input/exclude"),
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

/// Input files as the manifest lists them (`inputs: [{path, bytes, sha256}]`), when it does.
fn inputs(manifest: &Value) -> Vec<InputFile> {
    let Some(list) = manifest.get("inputs").and_then(Value::as_array) else {
        return Vec::new();
    };
    list.iter()
        .map(|i| InputFile {
            path: string_at(i, "/path").unwrap_or_default(),
            bytes: i.get("bytes").and_then(Value::as_u64),
            sha256: string_at(i, "/sha256"),
        })
        .collect()
}

/// What a run's manifest says about how it was taken.
pub fn run_methods(manifest: &RunManifest) -> RunMethods {
    // Read as JSON so fields a newer manifest adds (version, inputs) are seen by name.
    let raw = serde_json::to_value(manifest).unwrap_or(Value::Null);
    RunMethods {
        run_id: manifest.run_id.clone(),
        manifest: true,
        started_at: Some(format_timestamp(manifest.started_at)),
        ended_at: manifest.ended_at.map(format_timestamp),
        status: string_at(&raw, "/status"),
        mcpcensus_version: string_at(&raw, "/mcpcensus_version")
            .or_else(|| string_at(&raw, "/version")),
        settings: VERDICT_SETTINGS
            .iter()
            .map(|(name, pointer)| Setting {
                name: (*name).to_owned(),
                value: string_at(&manifest.config, pointer),
            })
            .collect(),
        lines_read: manifest.counts.as_ref().map(|c| c.lines_read),
        inputs: inputs(&raw),
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

/// Gives each finding its rule's title (`title_of` looks a rule id up in the catalog).
pub fn attach_titles(report: &mut Report, title_of: impl Fn(&str) -> Option<String>) {
    for f in &mut report.run.findings {
        f.title = title_of(&f.rule_id);
    }
}
