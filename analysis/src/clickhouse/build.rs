//! The whole report from ClickHouse: the run, its comparison, adoption over runs and the
//! methods from the manifests in the `runs` table.

use mcpcensus_store::clickhouse::Connection;

use super::compare::comparison;
use super::history::history;
use super::run::run_report;
use super::runs::Runs;
use crate::aggregate::ReportSettings;
use crate::error::AnalysisError;
use crate::methods::attach_methods;
use crate::model::*;

/// The full report from ClickHouse: `run` (default: the one started last), compared with
/// `compare_with` (default: the run before it with the same label), adoption over every run
/// in the database, and each run's methods from its manifest in `runs` (a run loaded before
/// ClickHouse kept manifests has none; see [`crate::fill_missing_methods`]).
pub async fn build_clickhouse(
    conn: &Connection,
    run: Option<&str>,
    compare_with: Option<&str>,
    settings: ReportSettings,
) -> Result<Report, AnalysisError> {
    let c = &conn.client;
    let runs = Runs::read(c).await?;
    let run_id = match run {
        Some(id) => id.to_owned(),
        None => runs.latest(c).await?.ok_or(AnalysisError::NoRun)?,
    };
    let (run, history) = tokio::try_join!(
        run_report(c, &run_id, settings),
        history(c, &runs, settings.platform_min_sites),
    )?;
    let base = compare_with
        .map(str::to_owned)
        .or_else(|| crate::previous_run(&history, &run_id));
    let comparison = match base {
        Some(base) => Some(comparison(c, &base, &run_id).await?),
        None => None,
    };
    let mut report = Report {
        schema_version: REPORT_SCHEMA_VERSION,
        run,
        comparison,
        history,
        methods: Methods::default(),
    };
    attach_methods(&mut report, &runs.manifests()?);
    Ok(report)
}
