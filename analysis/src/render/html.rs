//! One self-contained HTML file with SVG bar charts: no scripts, no network.

use std::fmt::Write;

use crate::model::Report;

const BAR_HEIGHT: u32 = 22;
const CHART_WIDTH: u32 = 640;
const LABEL_WIDTH: u32 = 180;

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A horizontal bar chart; every bar is a `<rect class="bar">` with its value in `data-value`.
pub fn bar_chart(id: &str, title: &str, rows: &[(String, f64)]) -> String {
    let max = rows
        .iter()
        .map(|(_, v)| *v)
        .fold(0.0_f64, f64::max)
        .max(1e-9);
    let height = BAR_HEIGHT * rows.len().max(1) as u32 + 10;
    let mut svg = format!(
        "<figure id=\"{id}\"><figcaption>{}</figcaption>\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{CHART_WIDTH}\" height=\"{height}\" role=\"img\" aria-label=\"{}\">",
        escape(title),
        escape(title)
    );
    let room = f64::from(CHART_WIDTH - LABEL_WIDTH - 80);
    for (i, (label, value)) in rows.iter().enumerate() {
        let y = i as u32 * BAR_HEIGHT + 4;
        let w = (room * value / max)
            .round()
            .max(if *value > 0.0 { 1.0 } else { 0.0 });
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
             <rect class=\"bar\" data-label=\"{}\" data-value=\"{value}\" x=\"{LABEL_WIDTH}\" y=\"{y}\" width=\"{w}\" height=\"{}\"/>\
             <text x=\"{}\" y=\"{}\">{value}</text>",
            LABEL_WIDTH - 6,
            y + 15,
            escape(label),
            escape(label),
            BAR_HEIGHT - 6,
            f64::from(LABEL_WIDTH) + w + 6.0,
            y + 15,
        );
    }
    svg.push_str("</svg></figure>\n");
    svg
}

pub fn render(report: &Report) -> String {
    let r = &report.run;
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<h1>mcpcensus report</h1><p>Run <code>{}</code>: {} sites read, {} scanned, {} reachable, \
         {} endpoints ({} counting each platform once), {} passing.</p>",
        escape(&r.run_id),
        r.sites_read,
        r.sites_scanned,
        r.sites_reachable,
        r.adoption.endpoints,
        r.adoption.endpoints_platforms_once,
        r.adoption.passing
    );
    let outcomes: Vec<(String, f64)> = r
        .outcomes
        .iter()
        .map(|(k, s)| (k.clone(), s.percent))
        .collect();
    body.push_str(&bar_chart(
        "outcomes",
        "Outcome shares (% of sites)",
        &outcomes,
    ));
    let surface: Vec<(String, f64)> = r
        .outcomes_surface
        .iter()
        .map(|(k, s)| (k.clone(), s.percent))
        .collect();
    body.push_str(&bar_chart(
        "outcomes-surface",
        &format!(
            "Outcome shares over the {} sites with an API or agent surface (%)",
            r.sites_with_surface
        ),
        &surface,
    ));
    let moved: Vec<(String, f64)> = r
        .measured_elsewhere
        .iter()
        .map(|(k, v)| (k.clone(), *v as f64))
        .collect();
    body.push_str(&bar_chart(
        "measured-elsewhere",
        "Sites measured at another origin than their input's, by where they moved",
        &moved,
    ));
    let tools: Vec<(String, f64)> = ["1", "2-5", "6-20", ">20"]
        .iter()
        .map(|b| {
            (
                format!("{b} tools"),
                r.tool_counts.buckets.get(*b).copied().unwrap_or(0) as f64,
            )
        })
        .collect();
    body.push_str(&bar_chart(
        "tool-counts",
        "Servers by number of tools",
        &tools,
    ));
    let methods: Vec<(String, f64)> = r
        .endpoints_by_method
        .iter()
        .map(|(k, v)| (k.clone(), *v as f64))
        .collect();
    body.push_str(&bar_chart(
        "discovery-methods",
        "Endpoints by discovery method",
        &methods,
    ));
    let history: Vec<(String, f64)> = report
        .history
        .iter()
        .map(|h| (h.run_id.clone(), h.endpoints as f64))
        .collect();
    body.push_str(&bar_chart(
        "adoption",
        "Sites with an MCP endpoint, by run",
        &history,
    ));
    body.push_str("<h2>Report data</h2><pre>");
    body.push_str(&escape(&super::text::render(report)));
    body.push_str("</pre>\n");
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>mcpcensus report {}</title><style>\
         body{{font-family:system-ui,sans-serif;margin:2em;max-width:60em}}\
         rect.bar{{fill:#3b6ea8}} svg text{{font-size:12px;fill:#222}}\
         figure{{margin:1.5em 0}} figcaption{{font-weight:600;margin-bottom:.4em}}\
         </style></head><body>\n{body}</body></html>\n",
        escape(&r.run_id)
    )
}
