//! Reports over mcpcensus records: adoption, tool counts, findings, platforms and trends,
//! from the embedded store (computed here) in text, JSON and HTML.

mod aggregate;
pub mod capabilities;
pub mod clickhouse;
mod compare;
mod error;
mod history;
mod methods;
#[cfg(test)]
mod methods_tests;
pub mod model;
mod model_methods;
mod model_rank;
mod model_registry;
pub mod readiness;
mod registry;
pub mod render;
#[cfg(test)]
mod tests;
pub mod tool_changes;

pub use aggregate::{scanned, server_fingerprint, tld, Aggregator, ReportSettings};
pub use clickhouse::build_clickhouse;
pub use compare::compare;
pub use error::AnalysisError;
pub use history::{history_point, HistoryAcc};
pub use methods::{
    attach_methods, attach_titles, combined_methods, fill_missing_methods, run_methods,
    OUTCOME_MAPPING, VERDICT_SETTINGS,
};
pub use model::*;
pub use model_registry::{FanOut, RegistryClasses, RegistryReport};

use mcpcensus_store::{Record, RunManifest, StoreSet};

/// The report of one run from its records.
pub fn run_report<E>(
    run_id: &str,
    records: impl Iterator<Item = Result<Record, E>>,
    settings: ReportSettings,
) -> Result<RunReport, E> {
    let mut agg = Aggregator::new(run_id, settings);
    for r in records {
        agg.add(&r?);
    }
    Ok(agg.finish())
}

/// The run a report compares with when none is named: the last one before `run_id` in the
/// history (oldest first) with the same label (both without one counts as the same), so a
/// nightly re-scan is compared with the night before, not with a census of other sites.
pub fn previous_run(history: &[HistoryPoint], run_id: &str) -> Option<String> {
    let at = history.iter().position(|h| h.run_id == run_id)?;
    let label = &history[at].label;
    history[..at]
        .iter()
        .rev()
        .find(|h| &h.label == label)
        .map(|h| h.run_id.clone())
}

/// The full report from embedded stores read together (one store, or a sharded run's stores):
/// `run` (default: the one started last), compared with `compare_with` (default: the run
/// before it with the same label), adoption over every crawl run (oldest first by start
/// time), and how each was taken (its manifests, one a shard).
pub fn build(
    stores: &StoreSet,
    run: Option<&str>,
    compare_with: Option<&str>,
    settings: ReportSettings,
) -> Result<Report, AnalysisError> {
    let run_id = match run {
        Some(id) => id.to_owned(),
        None => stores.latest_run()?.ok_or(AnalysisError::NoRun)?[0]
            .run_id
            .clone(),
    };
    let run = run_report(&run_id, stores.read_run(&run_id)?, settings)?;
    let runs: Vec<Vec<RunManifest>> = stores
        .runs()?
        .into_iter()
        .filter(|parts| !parts.iter().all(|m| m.dry_run))
        .collect();
    let mut history = Vec::with_capacity(runs.len());
    for parts in &runs {
        let records = stores.read_run(&parts[0].run_id)?;
        let mut point = history_point(&parts[0].run_id, records, settings.platform_min_sites)?;
        point.label = parts.iter().find_map(|m| m.label.clone());
        history.push(point);
    }
    let base = compare_with
        .map(str::to_owned)
        .or_else(|| previous_run(&history, &run_id));
    let comparison = match base {
        Some(base) => Some(compare(
            &base,
            stores.read_run(&base)?,
            &run_id,
            stores.read_run(&run_id)?,
        )?),
        None => None,
    };
    let mut report = Report {
        schema_version: REPORT_SCHEMA_VERSION,
        run,
        comparison,
        history,
        methods: Methods::default(),
    };
    let manifests: Vec<RunManifest> = runs.into_iter().flatten().collect();
    attach_methods(&mut report, &manifests);
    Ok(report)
}
