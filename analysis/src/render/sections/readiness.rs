//! The readiness level's tables: each check as sites and share of the sites it was made on,
//! with what a naive 2xx count would have said; and the same by rank bucket.

use super::{Cell, Table};
use crate::model::RunReport;
use crate::readiness::ReadinessReport;

/// The tables (empty ones in the sheets layout when the level was off, so the sheets are
/// the same for every run).
pub fn tables(r: &RunReport, every: bool) -> Vec<Table> {
    let empty = ReadinessReport::default();
    let Some(rep) = r.readiness.as_ref().or(every.then_some(&empty)) else {
        return Vec::new();
    };
    let mut checks = Table::new(
        "readiness",
        "Agent readiness",
        &[
            "Check",
            "Sites checked",
            "Present",
            "Share",
            "Naive 2xx count",
            "Overcount avoided",
        ],
    )
    .note(format!(
        "The readiness level's checks (docs/readiness.md) over the {} scanned sites it ran on, \
         {} of which answered a path that cannot exist (catch-alls). Share: of the sites where \
         the check was made. A naive count calls every 2xx answer present; the census does not \
         count soft 404s, HTML where a file belongs, or the catch-all's page.",
        rep.sites_checked, rep.catch_all
    ))
    .bars(3, "%");
    checks.rows = rep
        .checks
        .iter()
        .map(|c| {
            vec![
                Cell::text(&c.check),
                Cell::Count(c.checked),
                Cell::Count(c.present.count),
                Cell::Percent(c.present.percent),
                Cell::Count(c.naive),
                Cell::Count(c.overcount_avoided),
            ]
        })
        .collect();
    let mut tables = vec![checks];
    if every || !rep.by_rank.is_empty() {
        let mut by_rank = Table::new(
            "readiness-by-rank",
            "Agent readiness by rank",
            &["Bucket", "Check", "Sites checked", "Present", "Share"],
        )
        .note(
            "The same per cumulative rank bucket (top 1k, 10k, ...; every ranked site; the \
             unranked). Shown when the input lists had ranks.",
        );
        by_rank.rows = rep
            .by_rank
            .iter()
            .map(|b| {
                vec![
                    Cell::text(&b.bucket),
                    Cell::text(&b.row.check),
                    Cell::Count(b.row.checked),
                    Cell::Count(b.row.present.count),
                    Cell::Percent(b.row.present.percent),
                ]
            })
            .collect();
        tables.push(by_rank);
    }
    tables
}
