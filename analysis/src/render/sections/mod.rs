//! The report laid out once as sections of tables, each with the chart that shows it; the
//! HTML and Markdown renderings both draw from this, so they say the same as the JSON.

mod breakdowns;
mod capabilities;
mod methods;
mod outcomes;
mod readiness;
mod registry;
mod trends;
mod trends_labels;

pub use methods::REQUESTED;
pub use trends_labels::{by_label as label_table, NO_LABEL};

use crate::model::{Report, RunReport};

/// One table cell: text, or a number kept as a number (sorting, charts).
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Count(u64),
    Signed(i64),
    Percent(f64),
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    /// The value as shown.
    pub fn shown(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Count(n) => n.to_string(),
            Cell::Signed(n) => format!("{n:+}"),
            Cell::Percent(p) => format!("{p}%"),
        }
    }

    /// The number a column sorts by, if the cell is one.
    pub fn number(&self) -> Option<f64> {
        match self {
            Cell::Text(_) => None,
            Cell::Count(n) => Some(*n as f64),
            Cell::Signed(n) => Some(*n as f64),
            Cell::Percent(p) => Some(*p),
        }
    }
}

/// How a table is drawn as well.
#[derive(Debug, Clone, PartialEq)]
pub enum Chart {
    None,
    /// One horizontal bar per row: the label from the `label` columns (joined by spaces),
    /// the value from column `value`.
    Bars {
        label: Vec<usize>,
        value: usize,
        unit: &'static str,
    },
    /// Series over time: `x` per row (ms since the epoch), each series' values (percent).
    Line {
        x: Vec<u64>,
        labels: Vec<String>,
        series: Vec<(String, Vec<f64>)>,
    },
    /// One bar per row split into shares (percent) of named parts.
    Stacked {
        parts: Vec<String>,
        rows: Vec<(String, Vec<f64>)>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Stable id (HTML anchors, tests).
    pub id: String,
    pub title: String,
    /// A sentence saying what is counted, or empty.
    pub note: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    pub chart: Chart,
}

impl Table {
    pub fn new(id: &str, title: &str, columns: &[&str]) -> Table {
        Table {
            id: id.to_owned(),
            title: title.to_owned(),
            note: String::new(),
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            rows: Vec::new(),
            chart: Chart::None,
        }
    }

    pub fn note(mut self, note: impl Into<String>) -> Table {
        self.note = note.into();
        self
    }

    pub fn bars(mut self, value: usize, unit: &'static str) -> Table {
        self.chart = Chart::Bars {
            label: vec![0],
            value,
            unit,
        };
        self
    }

    /// Bars labelled by several columns (when the first alone repeats).
    pub fn labelled_by(mut self, columns: &[usize]) -> Table {
        if let Chart::Bars { label, .. } = &mut self.chart {
            *label = columns.to_vec();
        }
        self
    }

    /// Per column, whether every row holds a number there (shown aligned right).
    pub fn numeric_columns(&self) -> Vec<bool> {
        (0..self.columns.len())
            .map(|i| {
                self.rows
                    .iter()
                    .all(|r| r.get(i).is_some_and(|c| c.number().is_some()))
            })
            .collect()
    }

    /// A table of name and count per entry of a map, drawn as bars.
    pub fn counts<'a>(
        id: &str,
        title: &str,
        columns: [&str; 2],
        entries: impl IntoIterator<Item = (&'a String, &'a u64)>,
    ) -> Table {
        let mut t = Table::new(id, title, &columns).bars(1, "");
        t.rows = entries
            .into_iter()
            .map(|(k, v)| vec![Cell::text(k.as_str()), Cell::Count(*v)])
            .collect();
        t
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub id: &'static str,
    pub title: &'static str,
    /// Paragraphs before the tables.
    pub text: Vec<String>,
    pub tables: Vec<Table>,
}

/// Which tables a rendering lays out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The page and the Markdown: tables only the deep probe fills, tool grades and input files
    /// when there is something in them, the trends with more than one run.
    Page,
    /// The CSV sheets: those tables always (an empty one is its header), so a sheet's file is
    /// there whatever the run held; the comparison's and the by-label tables still only when
    /// the report has a comparison or a labelled run.
    Sheets,
}

/// The report's sections in reading order: trends (with more than one run), breakdowns of the
/// reported run, methods.
pub fn sections(report: &Report) -> Vec<Section> {
    laid_out(report, Layout::Page)
}

/// The sections with the tables `layout` asks for.
pub fn laid_out(report: &Report, layout: Layout) -> Vec<Section> {
    let mut out = Vec::new();
    if let Some(trends) = trends::section(report, layout) {
        out.push(trends);
    }
    out.push(breakdowns::section(&report.run, layout));
    if !report.run.registry.is_empty() {
        out.push(registry::section(&report.run.registry));
    }
    out.push(methods::section(report, layout));
    out
}

/// The one-paragraph summary the page opens with.
pub fn summary(report: &Report) -> String {
    let r = &report.run;
    let a = &r.adoption;
    format!(
        "Run {}: {} sites read, {} scanned, {} answered. {} have an MCP endpoint ({} counting \
         each platform once), {} pass. {}.",
        r.run_id,
        r.sites_read,
        r.sites_scanned,
        r.sites_reachable,
        a.endpoints,
        a.endpoints_platforms_once,
        a.passing,
        reason_headline(r)
    )
}

/// The two reason kinds the headline counts apart: answers over the 64 KB cap, and servers
/// that speak only a newer revision than the survey's (not a defect).
pub fn reason_headline(r: &RunReport) -> String {
    format!(
        "Answers over 64 KB: {}; servers that speak a newer revision only: {}",
        r.sites_body_cap, r.sites_newer_revision_only
    )
}
