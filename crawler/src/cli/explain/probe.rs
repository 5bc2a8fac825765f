//! The deep probe's part of `mcpcensus check --deep` output, `name: value` lines after the
//! verdict's: the classification, the checklist with its texts and the grades.

use std::io::{self, Write};

use mcpcensus_store::inert::terminal_text;
use mcpcensus_store::Record;

use crate::probe::step_text;

/// Writes the probe's classification of `r` (one `name: value` line each).
pub fn write_probe(out: &mut dyn Write, r: &Record) -> io::Result<()> {
    // Values a server chose (the spec version it claims) are shown inert.
    let dash = |v: Option<&str>| terminal_text(v.unwrap_or("-")).into_owned();
    writeln!(
        out,
        "  transport: {}",
        dash(r.transport.map(|t| t.as_str()))
    )?;
    let auth = r.auth.as_ref().map(|a| a.kind.as_str());
    writeln!(out, "  auth: {}", dash(auth))?;
    writeln!(out, "  spec_version: {}", dash(r.spec_version.as_deref()))?;
    let deprecated = if r.deprecated_features.is_empty() {
        "none".to_owned()
    } else {
        let names: Vec<&str> = r.deprecated_features.iter().map(|d| d.as_str()).collect();
        names.join(", ")
    };
    writeln!(out, "  deprecated_features: {deprecated}")?;
    writeln!(
        out,
        "  migration_status: {}",
        dash(r.migration_status.map(|m| m.as_str()))
    )?;
    if !r.checklist.is_empty() {
        let steps: Vec<String> = r
            .checklist
            .iter()
            .enumerate()
            .map(|(i, step)| format!("{}. {}", i + 1, step_text(*step)))
            .collect();
        writeln!(out, "  checklist: {}", steps.join(" "))?;
    }
    if let Some(g) = &r.grades {
        let counts: Vec<String> = crate::probe::LETTERS
            .iter()
            .zip(&g.counts)
            .map(|(l, n)| format!("{l}={n}"))
            .collect();
        writeln!(
            out,
            "  grades: median {} ({} graded, {} not graded; {})",
            dash(g.median.as_deref()),
            g.graded,
            g.not_graded,
            counts.join(" ")
        )?;
    }
    if let Some(fp) = &r.tool_list_fingerprint {
        writeln!(out, "  tool_list_fingerprint: {fp}")?;
    }
    Ok(())
}
