//! Renderings of a report: text for terminals, JSON for machines, one HTML page with SVG
//! charts, Markdown, and a folder of CSV sheets; HTML, Markdown and CSV lay the report out the
//! same way (`sections`).

pub mod csv;
#[cfg(test)]
mod csv_tests;
pub mod html;
pub mod markdown;
pub mod sections;
pub mod text;

use crate::model::Report;

/// The JSON form (schema in docs/report.md).
pub fn json(report: &Report) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
