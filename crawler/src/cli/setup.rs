//! What several subcommands build from the configuration: the scanner, the store, the
//! manifest's config. Kept apart from the dispatch so the commands do not import each other.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use mcpcensus_store::clickhouse::redact_url;
use mcpcensus_store::Store;

use crate::config::Config;
use crate::input::Exclusions;
use crate::net::Net;
use crate::scan::{ScanSettings, SiteScanner};

/// Says so when the site deadline cannot hold the session's 12 s.
pub(crate) fn warn_if_no_session_room(config: &Config) {
    if config.crawl.site_deadline_secs <= crate::session::SESSION_BUDGET.as_secs() {
        tracing::warn!(
            site_deadline_secs = config.crawl.site_deadline_secs,
            "the site deadline leaves no room for the 12 s MCP session: endpoints found will be \
             recorded as not measured"
        );
    }
}

/// The network and the scanner, from the configuration.
pub fn build_scanner(config: &Config, exclusions: Arc<Exclusions>) -> anyhow::Result<SiteScanner> {
    let net = Net::with_opt_out(config.net_options()?, exclusions.clone())
        .context("setting up the network")?;
    let settings = ScanSettings {
        site_deadline: Duration::from_secs(config.crawl.site_deadline_secs),
        document_cap: config.crawl.document_cap_bytes.get(),
        tools_cap: config.crawl.tools_cap,
        probe: config.crawl.probe,
        readiness: config.crawl.readiness,
        robots: config.net.robots,
    };
    Ok(SiteScanner::new(net, settings, exclusions))
}

/// The config as recorded in the manifest: never a secret.
pub(crate) fn redacted(config: &Config) -> Config {
    let mut c = config.clone();
    if c.clickhouse.password_file.is_some() {
        c.clickhouse.password_file = Some("<redacted>".into());
    }
    c.clickhouse.url = c.clickhouse.url.as_deref().map(redact_url);
    c
}

/// The command line as recorded in the manifest: a password in a URL (`--clickhouse
/// https://user:password@host/`) redacted.
pub(crate) fn redacted_argv(argv: &[String]) -> Vec<String> {
    argv.iter().map(|arg| redact_url(arg)).collect()
}

/// The embedded store: `--from`, else the config's `crawl.out` (by default ./mcpcensus-data).
pub(crate) fn open_store(from: Option<&std::path::Path>, config: &Config) -> anyhow::Result<Store> {
    let dir = from.unwrap_or(&config.crawl.out);
    if !dir.is_dir() {
        bail!("no store at {} (use --from DIR)", dir.display());
    }
    Store::open(dir).with_context(|| format!("opening the store at {}", dir.display()))
}

/// The embedded stores read together: each `--from`, else the config's `crawl.out`.
pub(crate) fn open_stores(
    from: &[std::path::PathBuf],
    config: &Config,
) -> anyhow::Result<mcpcensus_store::StoreSet> {
    let stores = if from.is_empty() {
        vec![open_store(None, config)?]
    } else {
        from.iter()
            .map(|dir| open_store(Some(dir), config))
            .collect::<anyhow::Result<_>>()?
    };
    Ok(mcpcensus_store::StoreSet::new(stores))
}

/// The ClickHouse URL: `--clickhouse`, else the config's `clickhouse.url`.
pub(crate) fn clickhouse_url(flag: Option<&str>, config: &Config) -> anyhow::Result<String> {
    match flag.or(config.clickhouse.url.as_deref()) {
        Some(url) => Ok(url.to_owned()),
        None => {
            bail!("no ClickHouse URL: give --clickhouse URL, or clickhouse.url in --config FILE")
        }
    }
}
