//! CSV sheets, one per report table, as the Almanac publishes a sheet per figure: every table
//! of the sections (`<table id>.csv`, the id the page anchors it by), empty ones as their
//! header, plus `summary.csv` (the headline figures) and `methods.csv` (what was asked of each
//! site), both key/value, and `index.csv` (each file with its section, title and note). Every
//! cell, headers included, goes through the one CSV escape (`csv_cell`: RFC 4180 quoting,
//! formula starts guarded), so server text opens as text.

use mcpcensus_store::inert::csv_cell;

use super::sections::{laid_out, Cell, Layout, Table, REQUESTED};
use crate::model::Report;

/// The headline figures' file.
pub const SUMMARY_FILE: &str = "summary.csv";
/// The methods text's file.
pub const METHODS_FILE: &str = "methods.csv";
/// The list of files.
pub const INDEX_FILE: &str = "index.csv";

/// One CSV file: its name in the folder and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    pub file: String,
    pub text: String,
}

/// The file a table is written to.
pub fn file_name(table_id: &str) -> String {
    format!("{table_id}.csv")
}

/// Every sheet of the report: the index first, then the summary, the methods text and one per
/// table in reading order.
pub fn sheets(report: &Report) -> Vec<Sheet> {
    let mut index = vec![vec![
        Cell::text(SUMMARY_FILE),
        Cell::text("summary"),
        Cell::text("The report's headline figures"),
        Cell::text(""),
    ]];
    index.push(vec![
        Cell::text(METHODS_FILE),
        Cell::text("methods"),
        Cell::text("What was asked of each site, and what was never done"),
        Cell::text(""),
    ]);
    let mut out = vec![
        Sheet {
            file: SUMMARY_FILE.to_owned(),
            text: key_value(&summary(report)),
        },
        Sheet {
            file: METHODS_FILE.to_owned(),
            text: key_value(
                &REQUESTED
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), Cell::text(*v)))
                    .collect::<Vec<_>>(),
            ),
        },
    ];
    for section in laid_out(report, Layout::Sheets) {
        for t in &section.tables {
            index.push(vec![
                Cell::text(file_name(&t.id)),
                Cell::text(section.id),
                Cell::text(&t.title),
                Cell::text(&t.note),
            ]);
            out.push(Sheet {
                file: file_name(&t.id),
                text: table(t),
            });
        }
    }
    let mut list = Table::new("index", "Files", &["File", "Section", "Title", "Note"]);
    list.rows = index;
    out.insert(
        0,
        Sheet {
            file: INDEX_FILE.to_owned(),
            text: table(&list),
        },
    );
    out
}

/// The headline figures, by key (docs/report.md names each).
fn summary(report: &Report) -> Vec<(String, Cell)> {
    let r = &report.run;
    let a = &r.adoption;
    let base = report.comparison.as_ref().map(|c| c.base_run.clone());
    [
        (
            "schema_version",
            Cell::Count(u64::from(report.schema_version)),
        ),
        ("run_id", Cell::text(&r.run_id)),
        ("compared_with", Cell::text(base.unwrap_or_default())),
        ("sites_read", Cell::Count(r.sites_read)),
        ("sites_scanned", Cell::Count(r.sites_scanned)),
        ("sites_reachable", Cell::Count(r.sites_reachable)),
        (
            "sites_with_discovery_document",
            Cell::Count(r.sites_with_discovery_document),
        ),
        ("sites_with_surface", Cell::Count(r.sites_with_surface)),
        ("endpoints", Cell::Count(a.endpoints)),
        (
            "endpoints_platforms_once",
            Cell::Count(a.endpoints_platforms_once),
        ),
        ("passing", Cell::Count(a.passing)),
        (
            "passing_platforms_once",
            Cell::Count(a.passing_platforms_once),
        ),
        ("defects", Cell::Count(r.defects)),
        ("sites_body_cap", Cell::Count(r.sites_body_cap)),
        (
            "sites_newer_revision_only",
            Cell::Count(r.sites_newer_revision_only),
        ),
        (
            "sites_looked_again",
            Cell::Count(r.second_look.looked_again),
        ),
        ("sites_flipped", Cell::Count(r.second_look.flipped)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

fn key_value(pairs: &[(String, Cell)]) -> String {
    let mut t = Table::new("", "", &["Key", "Value"]);
    t.rows = pairs
        .iter()
        .map(|(k, v)| vec![Cell::text(k.as_str()), v.clone()])
        .collect();
    table(&t)
}

/// A table as CSV: the header row, then a row per table row, lines ending in `\n`.
pub fn table(t: &Table) -> String {
    let mut out = String::new();
    line(&mut out, t.columns.iter().map(|c| csv_cell(c).into_owned()));
    for row in &t.rows {
        line(&mut out, row.iter().map(cell));
    }
    out
}

fn line(out: &mut String, cells: impl Iterator<Item = String>) {
    let cells: Vec<String> = cells.collect();
    out.push_str(&cells.join(","));
    out.push('\n');
}

/// A cell as one field: numbers as plain numbers (a percentage without its `%`), text as
/// written; both through [`csv_cell`] (a negative change starts with `-` and so gets the
/// formula guard, `'-1`, as every cell of the export would).
fn cell(c: &Cell) -> String {
    let text = match c {
        Cell::Text(s) => s.clone(),
        Cell::Count(n) => n.to_string(),
        Cell::Signed(n) => n.to_string(),
        Cell::Percent(p) => p.to_string(),
    };
    csv_cell(&text).into_owned()
}
