//! `mcpcensus check TARGET [--explain]`: one site through the crawl's own planner and scanner
//! (normalizing, the opt-out list, resolve and guard, discovery, the capped session), then its
//! verdict; with `--explain` every request and answer first. It never opens the store.

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context};
use mcpcensus_store::{Outcome, Record};

use super::args::CheckArgs;
use super::explain::{write_findings, write_transcript, write_verdict};
use super::setup::{build_scanner, warn_if_no_session_room};
use crate::config::Probe;
use crate::input::{Exclusions, Planner, RawLine, Shard};
use crate::net::Exchange;
use crate::scan::{ScanOptions, Scanned, SiteJob, Work};

/// The run id in a check's record (nothing is stored under it).
pub const CHECK_RUN_ID: &str = "check";
/// Exit code when the target is not a usable host (the verdict is `invalid_input`).
pub const EXIT_INVALID_INPUT: u8 = 1;

/// The check as the command line runs it: output to `--output` or standard output.
pub async fn execute(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let mut out: Box<dyn Write + Send> = match &args.output {
        Some(path) => Box::new(BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        )),
        None => Box::new(std::io::stdout()),
    };
    let code = run(&args, &mut *out).await?;
    out.flush()?;
    Ok(code)
}

/// Checks the target and writes the result to `out`: 0 once the site is measured (whatever
/// its outcome, `excluded` included), [`EXIT_INVALID_INPUT`] for a target that is not a
/// usable host; an error for a bad setting. `--deep` runs the deep probe after the session.
pub async fn run(args: &CheckArgs, out: &mut (dyn Write + Send)) -> anyhow::Result<ExitCode> {
    let (record, transcript) = check(args).await?;
    if args.explain {
        write_transcript(out, &record, &transcript)?;
    }
    write_verdict(out, &record)?;
    if record.probe == Some(mcpcensus_store::ProbeDepth::Deep) {
        super::explain::write_probe(out, &record)?;
    }
    if args.explain {
        write_findings(out, &record)?;
    }
    Ok(if record.outcome == Outcome::InvalidInput {
        ExitCode::from(EXIT_INVALID_INPUT)
    } else {
        ExitCode::SUCCESS
    })
}

/// The record a crawl would write for the target, and every request and answer in order.
pub async fn check(args: &CheckArgs) -> anyhow::Result<(Record, Vec<Exchange>)> {
    let mut config = args.load_config()?;
    if args.deep {
        config.crawl.probe = Probe::Deep;
    }
    let exclusions = Arc::new(Exclusions::load(&config.input.exclude)?);
    if let Some(registry) = &args.registry {
        return check_registry_name(args, &config, exclusions, registry).await;
    }
    // The crawl's intake, for one line: normalize, then the opt-out list.
    let mut planner = Planner::new(Shard::ALL, exclusions.clone());
    let planned = planner.plan(RawLine::Text(&args.target));
    Ok(
        match Work::from_planned(planned, args.target.trim(), 1, CHECK_RUN_ID) {
            None => bail!("no target: {:?} is blank or a comment", args.target),
            Some(Work::Done(record)) => (*record, Vec::new()),
            Some(Work::Scan(job)) => {
                warn_if_no_session_room(&config);
                let scanner = build_scanner(&config, exclusions)?;
                let opts = ScanOptions {
                    transcript: true,
                    ..ScanOptions::default()
                };
                // Without a seat a scan is never held.
                match scanner.scan_site(&job, CHECK_RUN_ID, opts).await {
                    Scanned::Recorded(scanned) => (scanned.record, scanned.transcript),
                    Scanned::Held(ip) => bail!("internal error: the check was held back on {ip}"),
                }
            }
        },
    )
}

/// `check NAME --registry URL`: the entry's remotes are checked as given (no discovery), as a
/// crawl does a `registry:NAME` line.
async fn check_registry_name(
    args: &CheckArgs,
    config: &crate::config::Config,
    exclusions: Arc<Exclusions>,
    registry: &str,
) -> anyhow::Result<(Record, Vec<Exchange>)> {
    let name = args.target.trim();
    let scanner = build_scanner(config, exclusions)?;
    let job = SiteJob::registry(name, name, 1);
    let scan = scanner
        .scan_registry(&job, name, registry, CHECK_RUN_ID, true)
        .await;
    let picked = scan.result?;
    Ok((picked.record, picked.transcript))
}
