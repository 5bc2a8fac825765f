//! Plain text for a terminal: the same sections and tables as the page, the Markdown and the
//! CSV sheets, each table in aligned columns (numbers to the right). Every text goes through
//! `terminal_text`, so a server's escape sequences are shown, not run. Paragraphs are one line
//! each (the terminal wraps them), so a sentence can be searched for as it is written.

use std::fmt::Write;

use mcpcensus_store::inert::terminal_text;

use super::sections::{sections, summary, Table};
use crate::model::Report;

/// Columns between two cells, and before every line of a table.
const GAP: &str = "  ";

pub fn render(report: &Report) -> String {
    let mut out = format!("mcpcensus report\n\n{}\n", shown(&summary(report)));
    for s in sections(report) {
        let rule = "=".repeat(s.title.chars().count());
        let _ = writeln!(out, "\n\n{}\n{rule}", shown(s.title));
        for p in &s.text {
            let _ = writeln!(out, "\n{}", shown(p));
        }
        for t in &s.tables {
            table(&mut out, t);
        }
    }
    out
}

fn shown(s: &str) -> String {
    terminal_text(s).into_owned()
}

/// A title, its note, then the header and rows aligned; `None.` for a table without rows.
fn table(out: &mut String, t: &Table) {
    let _ = writeln!(out, "\n{}", shown(&t.title));
    if !t.note.is_empty() {
        let _ = writeln!(out, "{GAP}{}", shown(&t.note));
    }
    if t.rows.is_empty() {
        let _ = writeln!(out, "{GAP}None.");
        return;
    }
    let header: Vec<String> = t.columns.iter().map(|c| shown(c)).collect();
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| r.iter().map(|c| shown(&c.shown())).collect())
        .collect();
    let numeric = t.numeric_columns();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .chain([&header[i]])
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    for cells in [&header, &rule].into_iter().chain(&rows) {
        line(out, cells, &widths, &numeric);
    }
}

/// One line of cells, each padded to its column's width (no padding after the last).
fn line(out: &mut String, cells: &[String], widths: &[usize], numeric: &[bool]) {
    let mut text = String::from(GAP);
    for (i, (cell, width)) in cells.iter().zip(widths).enumerate() {
        if i > 0 {
            text.push_str(GAP);
        }
        let pad = width.saturating_sub(cell.chars().count());
        if numeric[i] {
            text.extend(std::iter::repeat_n(' ', pad));
            text.push_str(cell);
        } else {
            text.push_str(cell);
            text.extend(std::iter::repeat_n(' ', pad));
        }
    }
    let _ = writeln!(out, "{}", text.trim_end());
}
