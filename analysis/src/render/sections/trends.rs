//! Trends: adoption over runs on a time axis, outcome shares over runs, and what changed
//! between the reported run and the one it is compared with.

use mcpcensus_store::Outcome;

use super::{Cell, Chart, Layout, Section, Table};
use crate::model::{Comparison, HistoryPoint, Report, Share};

/// Adoption series: a name and the count it takes from a run. Each is drawn as a share of
/// every denominator in `DENOMINATORS`.
/// A named count taken from a run.
type Measure = (&'static str, fn(&HistoryPoint) -> u64);

const SERIES: [Measure; 4] = [
    ("endpoints", |h| h.endpoints),
    ("passing", |h| h.passing),
    ("endpoints, platforms once", |h| h.endpoints_platforms_once),
    ("passing, platforms once", |h| h.passing_platforms_once),
];

/// The populations adoption is a share of (a new population is one more entry here).
const DENOMINATORS: [Measure; 1] = [("sites scanned", |h| h.sites_scanned)];

pub fn section(report: &Report, layout: Layout) -> Option<Section> {
    let over_runs = report.history.len() > 1 || layout == Layout::Sheets;
    if !over_runs && report.comparison.is_none() {
        return None;
    }
    let mut tables = Vec::new();
    if over_runs {
        tables.push(adoption(&report.history));
        tables.push(outcomes(&report.history));
        tables.extend(super::trends_labels::by_label(&report.history));
    }
    if let Some(c) = &report.comparison {
        tables.extend(comparison(c));
    }
    Some(Section {
        id: "trends",
        title: "Trends",
        text: vec![format!(
            "{} runs, oldest first by start time; a run is placed at its earliest scan.",
            report.history.len()
        )],
        tables,
    })
}

fn adoption(history: &[HistoryPoint]) -> Table {
    let mut columns = vec!["Run", "First scan", "Sites scanned"];
    // Series are named with their population; table headings only need it when there are
    // several (the note names the one there is).
    let (mut series, mut headings) = (Vec::new(), Vec::new());
    for (d, _) in DENOMINATORS {
        for (s, _) in SERIES {
            series.push(format!("{s}, % of {d}"));
            headings.push(if DENOMINATORS.len() == 1 {
                format!("{s} %")
            } else {
                format!("{s}, % of {d}")
            });
        }
    }
    let names: Vec<&str> = SERIES.iter().map(|(s, _)| *s).collect();
    columns.extend(&names);
    columns.extend(headings.iter().map(String::as_str));
    let mut t = Table::new("trend-adoption", "Adoption over runs", &columns).note(
        "Sites with an MCP endpoint and passing sites, with every platform site counted and \
         with each platform counted once; the percentages are of the sites scanned.",
    );
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); series.len()];
    let (mut x, mut labels) = (Vec::new(), Vec::new());
    for h in history {
        let mut row = vec![
            Cell::text(&h.run_id),
            Cell::text(h.first_scan_at.clone().unwrap_or_else(|| "-".into())),
            Cell::Count(h.sites_scanned),
        ];
        row.extend(SERIES.iter().map(|(_, f)| Cell::Count(f(h))));
        let mut shares = Vec::new();
        for (_, base) in DENOMINATORS {
            for (_, f) in SERIES {
                shares.push(Share::of(f(h), base(h)).percent);
            }
        }
        row.extend(shares.iter().map(|p| Cell::Percent(*p)));
        t.rows.push(row);
        // A run with nothing scanned has no place on the time axis.
        if let Some(ms) = h.first_scan_ms {
            x.push(ms);
            labels.push(h.run_id.clone());
            for (v, p) in values.iter_mut().zip(&shares) {
                v.push(*p);
            }
        }
    }
    t.chart = Chart::Line {
        x,
        labels,
        series: series.into_iter().zip(values).collect(),
    };
    t
}

fn outcomes(history: &[HistoryPoint]) -> Table {
    let parts: Vec<&str> = Outcome::ALL
        .iter()
        .map(|o| o.as_str())
        .filter(|o| history.iter().any(|h| h.outcomes.contains_key(*o)))
        .collect();
    let mut columns = vec!["Run"];
    columns.extend(&parts);
    let mut t = Table::new("trend-outcomes", "Outcome shares over runs", &columns)
        .note("Each run's records by outcome, in percent of the records.");
    let mut rows = Vec::new();
    for h in history {
        let shares: Vec<f64> = parts
            .iter()
            .map(|o| Share::of(h.outcomes.get(*o).copied().unwrap_or(0), h.sites_read).percent)
            .collect();
        let mut row = vec![Cell::text(&h.run_id)];
        row.extend(shares.iter().map(|p| Cell::Percent(*p)));
        t.rows.push(row);
        rows.push((h.run_id.clone(), shares));
    }
    t.chart = Chart::Stacked {
        parts: parts.iter().map(|p| (*p).to_owned()).collect(),
        rows,
    };
    t
}

fn origins(id: &str, title: &str, count: u64, list: &[String]) -> Table {
    let plural = if count == 1 { "origin" } else { "origins" };
    let note = if count == 0 {
        String::new()
    } else if count as usize > list.len() {
        format!("{count} {plural}; the first {} listed.", list.len())
    } else {
        format!("{count} {plural}.")
    };
    let mut t = Table::new(id, title, &["Origin"]).note(note);
    t.rows = list.iter().map(|o| vec![Cell::text(o.as_str())]).collect();
    t
}

fn comparison(c: &Comparison) -> Vec<Table> {
    let mut summary = Table::new(
        "compare-summary",
        &format!("Run {} compared with run {}", c.run, c.base_run),
        &["Measure", "Sites"],
    )
    .note(
        "Only sites scanned in both runs are compared; sites scanned in one run only (not \
         re-scanned, or new to the list) are counted apart.",
    );
    summary.rows = [
        ("scanned in both runs", Cell::Count(c.sites_in_both)),
        (
            "scanned in the earlier run only",
            Cell::Count(c.sites_only_in_base),
        ),
        ("scanned in this run only", Cell::Count(c.sites_only_in_run)),
        ("endpoints, change", Cell::Signed(c.endpoints_delta)),
        ("passing, change", Cell::Signed(c.passing_delta)),
        ("new endpoints", Cell::Count(c.new_endpoint_count)),
        (
            "earlier endpoints still there",
            Cell::Count(c.endpoints_still_there),
        ),
        (
            "earlier endpoints moved (another URL)",
            Cell::Count(c.endpoints_moved_count),
        ),
        (
            "vanished endpoints (measured, none now)",
            Cell::Count(c.vanished_endpoint_count),
        ),
        (
            "earlier endpoints unavailable (not measured or unreachable now)",
            Cell::Count(c.endpoints_unavailable_count),
        ),
        (
            "earlier endpoints not scanned now",
            Cell::Count(c.endpoints_not_scanned_count),
        ),
        ("changed tool names", Cell::Count(c.changed_tool_list_count)),
        (
            "same names, changed descriptions",
            Cell::Count(c.changed_tool_description_count),
        ),
    ]
    .into_iter()
    .map(|(k, v)| vec![Cell::text(k), v])
    .collect();
    let mut transitions = Table::new(
        "compare-transitions",
        "Sites whose outcome changed",
        &["Change", "From", "To", "Sites"],
    )
    .bars(3, "");
    transitions.rows = c
        .outcome_transitions
        .iter()
        .map(|t| {
            vec![
                Cell::text(format!("{} → {}", t.from, t.to)),
                Cell::text(&t.from),
                Cell::text(&t.to),
                Cell::Count(t.sites),
            ]
        })
        .collect();
    vec![
        summary,
        origins(
            "compare-new",
            "New endpoints",
            c.new_endpoint_count,
            &c.new_endpoints,
        ),
        origins(
            "compare-vanished",
            "Vanished endpoints",
            c.vanished_endpoint_count,
            &c.vanished_endpoints,
        ),
        origins(
            "compare-moved",
            "Endpoints moved to another URL",
            c.endpoints_moved_count,
            &c.endpoints_moved,
        ),
        origins(
            "compare-unavailable",
            "Endpoints whose site was not measured or unreachable in this run",
            c.endpoints_unavailable_count,
            &c.endpoints_unavailable,
        ),
        origins(
            "compare-not-scanned",
            "Endpoints whose site this run did not scan",
            c.endpoints_not_scanned_count,
            &c.endpoints_not_scanned,
        ),
        origins(
            "compare-changed",
            "Changed tool names",
            c.changed_tool_list_count,
            &c.changed_tool_lists,
        ),
        origins(
            "compare-changed-descriptions",
            "Same tool names, changed descriptions (deep probe in both runs)",
            c.changed_tool_description_count,
            &c.changed_tool_descriptions,
        ),
        tool_changes(&c.tool_changes),
        transitions,
    ]
}

/// The servers whose tools changed: added, removed, rewritten, and tools that gained a
/// destructive, code or money tag.
fn tool_changes(t: &crate::tool_changes::ToolChanges) -> Table {
    let mut table = Table::new(
        "compare-tool-changes",
        "Servers whose tools changed",
        &[
            "Origin",
            "Added",
            "Removed",
            "Descriptions changed",
            "Gained destructive, code or money",
        ],
    )
    .note(format!(
        "Over the {} servers whose tools both runs read: {} changed; {} tools added, {} \
         removed, {} descriptions rewritten, {} tools (on {} servers) that gained \
         destructive, executes_code or moves_money. The first {} by origin.",
        t.servers_compared,
        t.servers_changed,
        t.tools_added,
        t.tools_removed,
        t.descriptions_changed,
        t.tools_gained_risk,
        t.servers_gained_risk,
        t.servers.len()
    ));
    table.rows = t
        .servers
        .iter()
        .map(|s| {
            vec![
                Cell::text(&s.origin),
                Cell::text(s.added.join(", ")),
                Cell::text(s.removed.join(", ")),
                Cell::text(s.descriptions_changed.join(", ")),
                Cell::text(s.gained.join("; ")),
            ]
        })
        .collect();
    table
}
