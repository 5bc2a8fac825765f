//! Reports over mcpcensus records: adoption, tool counts, findings, platforms and trends,
//! from the embedded store (computed here) in text, JSON and HTML.

mod aggregate;
pub mod clickhouse;
mod compare;
mod error;
pub mod model;
pub mod render;
#[cfg(test)]
mod tests;

pub use aggregate::{scanned, server_fingerprint, Aggregator, ReportSettings};
pub use clickhouse::build_clickhouse;
pub use compare::compare;
pub use error::AnalysisError;
pub use model::*;

use mcpcensus_store::{Outcome, Record, Store};

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

/// The full report from an embedded store: `run` (default: the latest), compared with
/// `compare_with` when given, and adoption over every run in the store.
pub fn build(
    store: &Store,
    run: Option<&str>,
    compare_with: Option<&str>,
    settings: ReportSettings,
) -> Result<Report, AnalysisError> {
    let run_id = match run {
        Some(id) => id.to_owned(),
        None => store.latest_run()?.ok_or(AnalysisError::NoRun)?.run_id,
    };
    let run = run_report(&run_id, store.read_run(&run_id)?, settings)?;
    let comparison = match compare_with {
        Some(base) => Some(compare(
            base,
            store.read_run(base)?,
            &run_id,
            store.read_run(&run_id)?,
        )?),
        None => None,
    };
    let mut history = Vec::new();
    for m in store.runs()? {
        if m.dry_run {
            continue;
        }
        let count = |k: &str| m.counts.get(k).copied().unwrap_or(0);
        let unscanned: u64 = [
            Outcome::InvalidInput,
            Outcome::Excluded,
            Outcome::Planned,
            Outcome::NotStarted,
        ]
        .iter()
        .map(|o| count(&format!("outcome.{}", o.as_str())))
        .sum();
        history.push(HistoryPoint {
            run_id: m.run_id.clone(),
            sites_scanned: count("records_written").saturating_sub(unscanned),
            endpoints: count("endpoints"),
            passing: count("outcome.pass"),
        });
    }
    Ok(Report {
        schema_version: REPORT_SCHEMA_VERSION,
        run,
        comparison,
        history,
    })
}
