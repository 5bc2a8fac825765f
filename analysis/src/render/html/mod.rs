//! One self-contained HTML page (no network): sections of tables, each drawn as an SVG
//! chart above it, sortable by a little inline script; readable on a laptop and a phone,
//! printable.

mod assets;
pub mod charts;

use std::fmt::Write;

use super::sections::{sections, summary, Cell, Chart, Section, Table};
use crate::model::Report;

/// Escapes text for HTML element content and attribute values: the one HTML escape of every
/// output (store's `inert`), so server text shows as text.
pub use mcpcensus_store::inert::html_text as escape;

fn chart(t: &Table) -> Option<String> {
    if t.rows.is_empty() {
        return None;
    }
    let id = format!("c-{}", t.id);
    let (svg, legend) = match &t.chart {
        Chart::None => return None,
        Chart::Bars { label, value, unit } => {
            let rows: Vec<(String, f64)> = t
                .rows
                .iter()
                .map(|r| {
                    let name: Vec<String> = label.iter().map(|i| r[*i].shown()).collect();
                    (name.join(" "), r[*value].number().unwrap_or(0.0))
                })
                .collect();
            let title = format!("{}: {} by {}", t.title, t.columns[*value], t.columns[0]);
            (charts::bars(&id, &title, unit, &rows), String::new())
        }
        Chart::Line { x, labels, series } => {
            let names: Vec<String> = series.iter().map(|(n, _)| n.clone()).collect();
            (
                charts::line(&id, &t.title, x, labels, series),
                charts::legend(&names, true),
            )
        }
        Chart::Stacked { parts, rows } => (
            charts::stacked(&id, &t.title, parts, rows),
            charts::legend(parts, false),
        ),
    };
    Some(format!(
        "<figure id=\"{}\" data-chart=\"{}\">{svg}{legend}</figure>",
        t.id,
        kind(&t.chart)
    ))
}

fn kind(c: &Chart) -> &'static str {
    match c {
        Chart::None => "none",
        Chart::Bars { .. } => "bars",
        Chart::Line { .. } => "line",
        Chart::Stacked { .. } => "stacked",
    }
}

const LONG_TEXT: usize = 32;

fn td(c: &Cell) -> String {
    match c.number() {
        Some(n) => format!(
            "<td class=\"num\" data-sort=\"{n}\">{}</td>",
            escape(&c.shown())
        ),
        // Long text (origins, fingerprints) may wrap anywhere; the rest stays on one line.
        None if c.shown().chars().count() > LONG_TEXT => {
            format!("<td class=\"long\">{}</td>", escape(&c.shown()))
        }
        None => format!("<td>{}</td>", escape(&c.shown())),
    }
}

fn table(out: &mut String, t: &Table) {
    let _ = write!(
        out,
        "<div class=\"block\" id=\"t-{}\"><h3 id=\"h-{}\">{}</h3>",
        t.id,
        t.id,
        escape(&t.title)
    );
    if !t.note.is_empty() {
        let _ = write!(out, "<p class=\"note\">{}</p>", escape(&t.note));
    }
    if t.rows.is_empty() {
        out.push_str("<p class=\"note\">None.</p></div>\n");
        return;
    }
    // A bar chart sits beside its table on a wide screen; lines and stacks take the width.
    let pair = matches!(t.chart, Chart::Bars { .. });
    if pair {
        out.push_str("<div class=\"pair\">");
    }
    if let Some(c) = chart(t) {
        out.push_str(&c);
    }
    let numeric = t.numeric_columns();
    let _ = write!(
        out,
        "<div class=\"table-wrap\"><table class=\"sortable\" data-table=\"{}\" \
         aria-labelledby=\"h-{}\"><thead><tr>",
        t.id, t.id
    );
    for (c, num) in t.columns.iter().zip(&numeric) {
        let class = if *num { " class=\"num\"" } else { "" };
        let _ = write!(
            out,
            "<th scope=\"col\"{class}><button type=\"button\">{}</button></th>",
            escape(c)
        );
    }
    out.push_str("</tr></thead><tbody>");
    for row in &t.rows {
        out.push_str("<tr>");
        for c in row {
            out.push_str(&td(c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    if pair {
        out.push_str("</div>");
    }
    out.push_str("</div>\n");
}

fn section(out: &mut String, s: &Section) {
    let _ = write!(out, "<section id=\"{}\"><h2>{}</h2>", s.id, escape(s.title));
    for p in &s.text {
        let _ = write!(out, "<p>{}</p>", escape(p));
    }
    for t in &s.tables {
        table(out, t);
    }
    out.push_str("</section>\n");
}

pub fn render(report: &Report) -> String {
    let all = sections(report);
    let mut body = format!(
        "<header><h1>mcpcensus report</h1><p>{}</p><nav aria-label=\"Sections\"><ul>",
        escape(&summary(report))
    );
    for s in &all {
        let _ = write!(
            body,
            "<li><a href=\"#{}\">{}</a></li>",
            s.id,
            escape(s.title)
        );
    }
    body.push_str(
        "</ul></nav><p class=\"note\">Every chart comes with its table; select a column \
         heading to sort a table.</p></header>\n<main>\n",
    );
    for s in &all {
        section(&mut body, s);
    }
    body.push_str("</main>\n");
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>mcpcensus report {}</title><style>{}</style></head><body>\n{body}\
         <script>{}</script></body></html>\n",
        escape(&report.run.run_id),
        assets::CSS,
        assets::SORT_JS
    )
}
