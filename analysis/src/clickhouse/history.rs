//! Adoption over every run, counted by the server: one row per run, joined here with the
//! run's outcome counts, its platforms' extra sites and its `runs` row (label, start time),
//! oldest first by start time.

use clickhouse::Client;
use mcpcensus_store::format_timestamp;

use super::query::all;
use super::rows::{HistoryRow, RunOutcomeRow, RunPlatformsRow};
use super::runs::Runs;
use super::sql;
use crate::error::AnalysisError;
use crate::model::HistoryPoint;

pub async fn history(
    c: &Client,
    runs: &Runs,
    platform_min_sites: u64,
) -> Result<Vec<HistoryPoint>, AnalysisError> {
    let (rows, outcomes, platforms) = tokio::try_join!(
        all::<HistoryRow>(sql::query(c, sql::HISTORY), "history"),
        all::<RunOutcomeRow>(sql::query(c, sql::HISTORY_OUTCOMES), "history_outcomes"),
        all::<RunPlatformsRow>(
            sql::query(c, sql::HISTORY_PLATFORMS).bind(platform_min_sites),
            "history_platforms"
        ),
    )?;
    let mut points: Vec<(u64, HistoryPoint)> = rows
        .into_iter()
        .map(|h| {
            let first_scan_ms = (h.sites_scanned > 0).then_some(h.first_scan_ms);
            let (extra_sites, extra_passing) = platforms
                .iter()
                .find(|p| p.run_id == h.run_id)
                .map_or((0, 0), |p| (p.extra_sites, p.extra_passing));
            let point = HistoryPoint {
                label: runs.label(&h.run_id),
                outcomes: outcomes
                    .iter()
                    .filter(|o| o.run_id == h.run_id)
                    .map(|o| (o.outcome.clone(), o.sites))
                    .collect(),
                first_scan_ms,
                first_scan_at: first_scan_ms.map(format_timestamp),
                sites_read: h.sites_read,
                sites_scanned: h.sites_scanned,
                endpoints: h.endpoints,
                passing: h.passing,
                endpoints_platforms_once: h.endpoints - extra_sites,
                passing_platforms_once: h.passing - extra_passing,
                run_id: h.run_id,
            };
            (runs.start_ms(&point.run_id, h.first_record_ms), point)
        })
        .collect();
    points.sort_by(|a, b| (a.0, &a.1.run_id).cmp(&(b.0, &b.1.run_id)));
    Ok(points.into_iter().map(|(_, p)| p).collect())
}
