//! The whole report from ClickHouse: the run, its comparison and adoption over runs.

use mcpcensus_store::clickhouse::Connection;

use super::compare::comparison;
use super::history::history;
use super::query::all;
use super::rows::LatestRow;
use super::run::run_report;
use super::sql;
use crate::aggregate::ReportSettings;
use crate::error::AnalysisError;
use crate::model::*;

/// The full report from ClickHouse: `run` (default: the latest), compared with `compare_with`
/// (default: the run before it), and adoption over every run in the database. The methods
/// are left empty: run manifests are not in ClickHouse (see [`crate::attach_methods`]).
pub async fn build_clickhouse(
    conn: &Connection,
    run: Option<&str>,
    compare_with: Option<&str>,
    settings: ReportSettings,
) -> Result<Report, AnalysisError> {
    let c = &conn.client;
    let run_id = match run {
        Some(id) => id.to_owned(),
        None => {
            let latest: Vec<LatestRow> = all(c.query(sql::LATEST_RUN), "latest_run").await?;
            match latest.into_iter().next() {
                Some(r) if !r.run_id.is_empty() => r.run_id,
                _ => return Err(AnalysisError::NoRun),
            }
        }
    };
    let (run, history) = tokio::try_join!(
        run_report(c, &run_id, settings),
        history(c, settings.platform_min_sites),
    )?;
    let base = compare_with
        .map(str::to_owned)
        .or_else(|| crate::previous_run(&history, &run_id));
    let comparison = match base {
        Some(base) => Some(comparison(c, &base, &run_id).await?),
        None => None,
    };
    Ok(Report {
        schema_version: REPORT_SCHEMA_VERSION,
        run,
        comparison,
        history,
        methods: Methods::default(),
    })
}
