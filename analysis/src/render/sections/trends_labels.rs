//! Trends by label: the runs of each `crawl --label` (e.g. the nightly re-scans apart from a
//! one-off full census) as their own series, so adoption is compared like with like.

use std::collections::BTreeMap;

use super::{Cell, Chart, Table};
use crate::model::{HistoryPoint, Share};

/// The group of runs without a label.
pub const NO_LABEL: &str = "(none)";

/// A run's label group.
pub fn label_of(h: &HistoryPoint) -> &str {
    h.label.as_deref().unwrap_or(NO_LABEL)
}

/// The runs grouped by label (labels in name order, then runs without one; runs oldest
/// first), one row per run with
/// its adoption and the change from the label's run before; `None` when no run has a label.
pub fn by_label(history: &[HistoryPoint]) -> Option<Table> {
    if history.iter().all(|h| h.label.is_none()) {
        return None;
    }
    // Labels in name order, the runs without one last.
    let mut groups: BTreeMap<(bool, &str), Vec<&HistoryPoint>> = BTreeMap::new();
    for h in history {
        groups
            .entry((h.label.is_none(), label_of(h)))
            .or_default()
            .push(h);
    }
    let mut t = Table::new(
        "trend-labels",
        "Adoption by label",
        &[
            "Label",
            "Run",
            "First scan",
            "Sites scanned",
            "endpoints",
            "endpoints %",
            "endpoints %, change",
            "passing %",
        ],
    )
    .note(format!(
        "Each label's runs, oldest first; runs without a label are {NO_LABEL}, last. The \
         change is in percentage points from the label's run before."
    ));
    for ((_, label), runs) in &groups {
        let mut before: Option<f64> = None;
        for h in runs {
            let endpoints = Share::of(h.endpoints, h.sites_scanned).percent;
            t.rows.push(vec![
                Cell::text(*label),
                Cell::text(&h.run_id),
                Cell::text(h.first_scan_at.clone().unwrap_or_else(|| "-".into())),
                Cell::Count(h.sites_scanned),
                Cell::Count(h.endpoints),
                Cell::Percent(endpoints),
                before.map_or(Cell::text("-"), |b| {
                    Cell::text(format!("{:+.1}", endpoints - b))
                }),
                Cell::Percent(Share::of(h.passing, h.sites_scanned).percent),
            ]);
            before = Some(endpoints);
        }
    }
    t.chart = Chart::None;
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(run_id: &str, label: Option<&str>, endpoints: u64) -> HistoryPoint {
        HistoryPoint {
            run_id: run_id.into(),
            label: label.map(str::to_owned),
            sites_scanned: 10,
            endpoints,
            ..HistoryPoint::default()
        }
    }

    #[test]
    fn runs_group_by_label_with_the_unlabelled_last() {
        assert!(by_label(&[point("r1", None, 1), point("r2", None, 2)]).is_none());
        let t = by_label(&[
            point("r1", Some("weekly"), 1),
            point("r2", None, 2),
            point("r3", Some("nightly"), 3),
            point("r4", Some("weekly"), 4),
        ])
        .unwrap();
        let rows: Vec<(String, String, String)> = t
            .rows
            .iter()
            .map(|r| (r[0].shown(), r[1].shown(), r[6].shown()))
            .collect();
        let row = |l: &str, r: &str, c: &str| (l.to_owned(), r.to_owned(), c.to_owned());
        assert_eq!(
            rows,
            [
                row("nightly", "r3", "-"),
                row("weekly", "r1", "-"),
                row("weekly", "r4", "+30.0"),
                row(NO_LABEL, "r2", "-"),
            ]
        );
    }
}
