//! Markdown for papers and READMEs: the same sections and tables as the HTML page.

use std::fmt::Write;

use mcpcensus_store::inert::markdown_cell;

use super::sections::{sections, summary, Cell, Table};
use crate::model::Report;

/// A cell's text, safe inside a Markdown table row.
fn cell(c: &Cell) -> String {
    markdown_cell(&c.shown())
}

fn table(out: &mut String, t: &Table) {
    let _ = writeln!(out, "\n### {}\n", markdown_cell(&t.title));
    if !t.note.is_empty() {
        let _ = writeln!(out, "{}\n", markdown_cell(&t.note));
    }
    if t.rows.is_empty() {
        out.push_str("None.\n");
        return;
    }
    let columns: Vec<String> = t.columns.iter().map(|c| markdown_cell(c)).collect();
    let _ = writeln!(out, "| {} |", columns.join(" | "));
    let align: Vec<&str> = t
        .numeric_columns()
        .into_iter()
        .map(|numeric| if numeric { "---:" } else { "---" })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for row in &t.rows {
        let cells: Vec<String> = row.iter().map(cell).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
}

pub fn render(report: &Report) -> String {
    let mut out = format!(
        "# mcpcensus report\n\n{}\n",
        markdown_cell(&summary(report))
    );
    for s in sections(report) {
        let _ = writeln!(out, "\n## {}\n", markdown_cell(s.title));
        for p in &s.text {
            let _ = writeln!(out, "{}\n", markdown_cell(p));
        }
        for t in &s.tables {
            table(&mut out, t);
        }
    }
    out
}
