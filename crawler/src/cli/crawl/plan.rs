//! A crawl's plan: the flags and the configuration read, and every setting checked, before
//! anything is opened (a bad value fails the command with no run created).

use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;

use crate::cli::args::CrawlArgs;
use crate::config::{Config, LogFormat};
use crate::input::{Exclusions, Source};
use crate::run::ProgressMode;

/// What the crawl will do.
pub(super) struct CrawlPlan {
    pub args: CrawlArgs,
    pub config: Config,
    /// The input lists, each checked readable.
    pub sources: Vec<Source>,
    pub exclusions: Arc<Exclusions>,
    /// Sites in flight at once, fitted to the open-files limit (a dry run opens none).
    pub concurrency: usize,
    pub max_duration: Option<Duration>,
    /// The second look's delay; `None` when off (always off in a dry run).
    pub second_look: Option<Duration>,
    pub grace: Duration,
    pub progress: ProgressMode,
    /// How long the metrics endpoint stays up after the run.
    pub metrics_linger: Duration,
}

impl CrawlPlan {
    pub fn new(args: CrawlArgs) -> anyhow::Result<CrawlPlan> {
        let mut config = args.load_config()?;
        let sources = sources(&args.inputs)?;
        let exclusions = Arc::new(Exclusions::load(&config.input.exclude)?);
        let dry_run = args.dry_run;
        let concurrency = if dry_run {
            config.crawl.concurrency.get()
        } else {
            let (sites, lookups) = super::limits::fit_concurrency(
                config.crawl.concurrency.get(),
                config.net.resolver_concurrency.get(),
                config.output.log_format == LogFormat::Json,
            )?;
            // Lowered under a low open-files limit, never raised (`fit_concurrency`).
            if let Some(lookups) = std::num::NonZeroUsize::new(lookups) {
                config.net.resolver_concurrency = lookups;
            }
            sites
        };
        Ok(CrawlPlan {
            concurrency,
            max_duration: config.max_duration()?,
            second_look: if dry_run { None } else { config.second_look()? },
            grace: Duration::from_secs(config.crawl.shutdown_grace_secs),
            progress: progress_mode(&config),
            metrics_linger: args.metrics_linger.unwrap_or(Duration::ZERO),
            args,
            config,
            sources,
            exclusions,
        })
    }
}

fn sources(inputs: &[String]) -> anyhow::Result<Vec<Source>> {
    let sources: Vec<Source> = inputs.iter().map(|a| Source::parse(a)).collect();
    if sources.iter().filter(|s| **s == Source::Stdin).count() > 1 {
        bail!("standard input (-) can be read only once");
    }
    for s in &sources {
        if let Source::File(p) = s {
            if !p.is_file() {
                bail!("input {} is not a readable file", p.display());
            }
        }
    }
    Ok(sources)
}

fn progress_mode(config: &Config) -> ProgressMode {
    let every = Duration::from_secs(config.output.progress_interval_secs);
    let mode = ProgressMode::choose(config.output.quiet, every);
    match config.output.log_format {
        LogFormat::Json => mode.json(every),
        LogFormat::Text => mode,
    }
}
