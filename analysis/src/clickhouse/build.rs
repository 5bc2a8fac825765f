//! The whole report from ClickHouse: the run, its comparison and adoption over runs.

use mcpcensus_store::clickhouse::Connection;

use super::compare::comparison;
use super::query::all;
use super::rows::{HistoryRow, LatestRow};
use super::run::run_report;
use super::sql;
use crate::aggregate::ReportSettings;
use crate::error::AnalysisError;
use crate::model::*;

/// The full report from ClickHouse: `run` (default: the latest), compared with `compare_with`
/// when given, and adoption over every run in the database.
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
    let (run, comparison, history) = tokio::try_join!(
        run_report(c, &run_id, settings),
        async {
            match compare_with {
                Some(base) => comparison(c, base, &run_id).await.map(Some),
                None => Ok(None),
            }
        },
        all::<HistoryRow>(c.query(sql::HISTORY), "history"),
    )?;
    let history = history
        .into_iter()
        .map(|h| HistoryPoint {
            run_id: h.run_id,
            sites_scanned: h.sites_scanned,
            endpoints: h.endpoints,
            passing: h.passing,
        })
        .collect();
    Ok(Report {
        schema_version: REPORT_SCHEMA_VERSION,
        run,
        comparison,
        history,
    })
}
