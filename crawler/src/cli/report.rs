//! `mcpcensus report`: the report from the embedded store or ClickHouse, with the findings'
//! rule titles and the run manifests' methods, in the format asked for.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use mcpcensus_analysis::{attach_titles, fill_missing_methods, render, Report, ReportSettings};

use super::args::{ReportArgs, ReportFormat};
use super::setup::open_store;

/// A rule's title from the one rule table (the discovery audit's and the deep probe's).
fn rule_title(id: &str) -> Option<String> {
    crate::rule::rule(id).map(|rule| rule.title.to_owned())
}

async fn build(args: &ReportArgs, settings: ReportSettings) -> anyhow::Result<Report> {
    let run = args.run.as_deref();
    let compare = args.compare.as_deref();
    let Some(url) = &args.clickhouse else {
        let store = open_store(args.from.as_deref())?;
        return Ok(mcpcensus_analysis::build(&store, run, compare, settings)?);
    };
    let conn = super::clickhouse::connect_for_report(url, args.database.as_deref()).await?;
    let mut report = mcpcensus_analysis::build_clickhouse(&conn, run, compare, settings).await?;
    // Runs loaded before ClickHouse kept manifests: `--from` names a store that has them.
    if let Some(dir) = &args.from {
        fill_missing_methods(&mut report, &open_store(Some(dir))?.runs()?);
    }
    Ok(report)
}

pub async fn report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let mut report = build(&args, ReportSettings::default()).await?;
    attach_titles(&mut report, rule_title);
    let text = match args.format {
        ReportFormat::Text => render::text::render(&report),
        ReportFormat::Json => render::json(&report),
        ReportFormat::Html => render::html::render(&report),
        ReportFormat::Markdown => render::markdown::render(&report),
    };
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}
