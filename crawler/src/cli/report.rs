//! `mcpcensus report`: the report from the embedded store or ClickHouse, with the findings'
//! rule titles and the run manifests' methods, in the format asked for.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};
use mcpcensus_analysis::{attach_titles, fill_missing_methods, render, Report, ReportSettings};

use super::args::{ReportArgs, ReportFormat};
use super::setup::open_stores;

/// A rule's title from the one rule table (the discovery audit's and the deep probe's).
fn rule_title(id: &str) -> Option<String> {
    crate::rule::rule(id).map(|rule| rule.title.to_owned())
}

async fn build(args: &ReportArgs, settings: ReportSettings) -> anyhow::Result<Report> {
    let run = args.run.as_deref();
    let compare = args.compare.as_deref();
    let mut config = args.config.load()?;
    super::clickhouse::set_ca_file(&mut config.clickhouse, args.clickhouse_ca_file.as_ref());
    let Some(url) = args.clickhouse.as_ref().or(config.clickhouse.url.as_ref()) else {
        if args.database.is_some() {
            bail!("--database names a ClickHouse database: give --clickhouse URL too");
        }
        let stores = open_stores(&args.from, &config)?;
        return Ok(mcpcensus_analysis::build(&stores, run, compare, settings)?);
    };
    let conn =
        super::clickhouse::connect_for_report(url, args.database.as_deref(), &config.clickhouse)
            .await?;
    let mut report = mcpcensus_analysis::build_clickhouse(&conn, run, compare, settings).await?;
    // Runs loaded before ClickHouse kept manifests: `--from` names a store that has them.
    if !args.from.is_empty() {
        let parts = open_stores(&args.from, &config)?.parts()?;
        let manifests: Vec<_> = parts.into_iter().map(|p| p.manifest).collect();
        fill_missing_methods(&mut report, &manifests);
    }
    Ok(report)
}

/// Writes every CSV sheet of the report into `dir` (created if missing; files of the same
/// name are replaced).
fn write_sheets(dir: &Path, report: &Report) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let sheets = render::csv::sheets(report);
    for sheet in &sheets {
        let path = dir.join(&sheet.file);
        std::fs::write(&path, &sheet.text)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    eprintln!(
        "wrote {} CSV files to {} (listed in {})",
        sheets.len(),
        dir.display(),
        render::csv::INDEX_FILE
    );
    Ok(())
}

/// `--format csv` without `-o`.
const CSV_NEEDS_DIR: &str =
    "--format csv writes a folder of files, one per table: give it with -o DIR";

pub async fn report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    // Checked before anything is read: CSV is a folder of files, standard output holds one.
    if args.format == ReportFormat::Csv && args.output.is_none() {
        bail!(CSV_NEEDS_DIR);
    }
    let mut report = build(&args, ReportSettings::default()).await?;
    attach_titles(&mut report, rule_title);
    let text = match args.format {
        ReportFormat::Text => render::text::render(&report),
        ReportFormat::Json => render::json(&report),
        ReportFormat::Html => render::html::render(&report),
        ReportFormat::Markdown => render::markdown::render(&report),
        ReportFormat::Csv => {
            let Some(dir) = &args.output else {
                bail!(CSV_NEEDS_DIR)
            };
            write_sheets(dir, &report)?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}
