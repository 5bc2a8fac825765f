//! `mcpcensus grade FILE`: a pasted `tools/list` result or JSON array of tools (at most 200)
//! through the server rules and the tool description grades, as the deep probe runs them.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use mcpcensus_store::inert::terminal_text;

use super::args::GradeArgs;
use crate::probe::{grade_pasted, PastedReport, LETTERS};

/// Reads the file, grades it and writes the report to `--output` or standard output; an
/// error for a file that is not a tool list or holds more than 200 tools.
pub fn execute(args: &GradeArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("reading {}", args.file.display()))?;
    let report = grade_pasted(&text).with_context(|| format!("grading {}", args.file.display()))?;
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    write_report(&mut *out, &report)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The report: one line per tool (letter, fingerprint, name), the grades, then the findings;
/// the file's text (names, evidence quoting descriptions) is shown inert.
pub fn write_report(out: &mut dyn Write, r: &PastedReport) -> std::io::Result<()> {
    writeln!(out, "tools: {}", r.tools.len())?;
    for tool in &r.tools {
        writeln!(
            out,
            "  {} {} {}",
            tool.grade.as_deref().unwrap_or("-"),
            tool.fingerprint.as_deref().unwrap_or("-"),
            terminal_text(&tool.name)
        )?;
    }
    let counts: Vec<String> = LETTERS
        .iter()
        .zip(&r.grades.counts)
        .map(|(l, n)| format!("{l}={n}"))
        .collect();
    writeln!(
        out,
        "grades: median {} ({} graded, {} not graded; {})",
        r.grades.median.unwrap_or("-"),
        r.grades.tools.len(),
        r.grades.not_graded,
        counts.join(" ")
    )?;
    if let Some(fp) = &r.tool_list_fingerprint {
        writeln!(out, "tool_list_fingerprint: {fp}")?;
    }
    if r.findings.is_empty() {
        return writeln!(out, "findings: none");
    }
    writeln!(out, "findings")?;
    for f in &r.findings {
        let title = crate::rule::rule(&f.rule_id).map_or("", |rule| rule.title);
        writeln!(out, "  {} [{}] {}", f.rule_id, f.severity, title)?;
        if let Some(tool) = &f.tool {
            writeln!(out, "    tool: {}", terminal_text(tool))?;
        }
        writeln!(out, "    evidence: {}", terminal_text(&f.evidence))?;
    }
    Ok(())
}
