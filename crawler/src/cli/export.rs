//! `mcpcensus export`: a run's records as JSON lines (whole records, to a file or standard
//! output), or as flat Parquet or CSV tables in a folder (docs/records.md).

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Context};
use mcpcensus_store::TableFormat;

use super::args::{ExportArgs, ExportFormat};
use super::setup::open_store;

pub fn execute(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let store = open_store(args.from.as_deref(), &args.config.load()?)?;
    let run_id = match args.run {
        Some(id) => id,
        None => {
            store
                .latest_run()?
                .context("the store holds no run")?
                .run_id
        }
    };
    let manifest = store.manifest(&run_id)?;
    let mut reader = store.read_run(&run_id)?;
    let table_format = match args.format {
        ExportFormat::Jsonl => None,
        ExportFormat::Parquet => Some(TableFormat::Parquet),
        ExportFormat::Csv => Some(TableFormat::Csv),
    };
    let summary = match table_format {
        None => {
            let out: Box<dyn Write> = match &args.output {
                Some(path) => Box::new(
                    std::fs::File::create(path)
                        .with_context(|| format!("creating {}", path.display()))?,
                ),
                None => Box::new(std::io::stdout().lock()),
            };
            let written = mcpcensus_store::write_jsonl(&mut reader, out)?;
            format!("{written} records")
        }
        Some(format) => {
            let Some(dir) = &args.output else {
                bail!(
                    "--format {} writes a folder of files: give it with -o DIR",
                    format.extension()
                );
            };
            // The run's manifest (settings, inputs, build) travels with the tables.
            let provenance = serde_json::to_value(&manifest)?;
            let [sites, tools, findings] =
                mcpcensus_store::write_tables(&mut reader, dir, format, &provenance)?;
            eprintln!(
                "exported run {run_id} to {}: {sites} sites, {tools} tools, {findings} findings",
                dir.display()
            );
            format!("{sites} sites")
        }
    };
    for damage in reader.damage() {
        eprintln!("warning: {damage:?}");
    }
    tracing::info!(run_id = %run_id, exported = %summary, "exported");
    Ok(ExitCode::SUCCESS)
}
