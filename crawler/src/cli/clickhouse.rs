//! ClickHouse from the command line: `schema init`, `load`, and the crawl's sink. Credentials
//! come from the URL's user info (`https://user:password@host/`), the environment
//! (`MCPCENSUS_CLICKHOUSE_USER`, `MCPCENSUS_CLICKHOUSE_PASSWORD`) or the config
//! (`clickhouse.user`, `clickhouse.password_file`), in that order; they are never logged, and a
//! URL is shown or recorded only through `redact_url`.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};
use mcpcensus_store::clickhouse::{
    self as ch, redact_url, Backoff, ClickHouseSink, Connection, Password, RunRow, SinkOptions,
    Target,
};
use mcpcensus_store::RunManifest;

use super::args::LoadArgs;
use crate::config::{ClickHouseSettings, Config};

/// Overrides `clickhouse.user`.
pub const USER_ENV: &str = "MCPCENSUS_CLICKHOUSE_USER";
/// The password itself (overrides `clickhouse.password_file`).
pub const PASSWORD_ENV: &str = "MCPCENSUS_CLICKHOUSE_PASSWORD";
/// Under the crawl's `--out`: `clickhouse-spool/<run id>/` holds records during outages.
pub const SPOOL_DIR: &str = "clickhouse-spool";

/// The target for `url`, with the database, credentials and CA file from the URL, flags,
/// environment and config.
pub fn target(
    url: &str,
    database: Option<&str>,
    settings: &ClickHouseSettings,
) -> anyhow::Result<Target> {
    let mut target = Target::from_url(url, database.unwrap_or(&settings.database))?;
    if target.user.is_none() {
        target.user = std::env::var(USER_ENV)
            .ok()
            .filter(|u| !u.is_empty())
            .or_else(|| settings.user.clone());
    }
    if target.password.is_none() {
        target.password = match std::env::var(PASSWORD_ENV) {
            Ok(p) if !p.is_empty() => Some(Password::new(p)),
            _ => match &settings.password_file {
                Some(path) => Some(read_password(path)?),
                None => None,
            },
        };
    }
    target.ca_file.clone_from(&settings.ca_file);
    target.validate()?;
    Ok(target)
}

/// `--clickhouse-ca-file` over the config's `clickhouse.ca_file`.
pub fn set_ca_file(settings: &mut ClickHouseSettings, flag: Option<&std::path::PathBuf>) {
    if let Some(path) = flag {
        settings.ca_file = Some(path.clone());
    }
}

fn read_password(path: &Path) -> anyhow::Result<Password> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the ClickHouse password file {}", path.display()))?;
    Ok(Password::new(text.trim_end_matches(['\n', '\r'])))
}

async fn connect(target: &Target) -> anyhow::Result<Connection> {
    ch::connect(target)
        .await
        .with_context(|| format!("connecting to ClickHouse at {}", redact_url(&target.url)))
}

/// The connection `mcpcensus report --clickhouse` reads through (no schema changes).
pub async fn connect_for_report(
    url: &str,
    database: Option<&str>,
    settings: &ClickHouseSettings,
) -> anyhow::Result<Connection> {
    let target = target(url, database, settings)?;
    connect(&target).await
}

/// Calls `each(origin, last scan ms)` for every site in the crawl's ClickHouse database (the
/// re-scan's pass over the sites table); returns the number of sites.
pub async fn last_scans(
    config: &Config,
    url: &str,
    each: impl FnMut(String, u64, Option<u32>),
) -> anyhow::Result<u64> {
    let target = target(url, None, &config.clickhouse)?;
    let conn = connect(&target).await?;
    ch::init_schema(&conn).await?;
    Ok(ch::last_scans(&conn, each).await?)
}

/// `mcpcensus schema init`.
pub async fn schema_init(
    url: &str,
    database: Option<&str>,
    settings: &ClickHouseSettings,
) -> anyhow::Result<ExitCode> {
    let target = target(url, database, settings)?;
    let conn = connect(&target).await?;
    ch::init_schema(&conn).await?;
    println!(
        "schema ready: database {} on ClickHouse {}",
        target.database, conn.version
    );
    Ok(ExitCode::SUCCESS)
}

/// `mcpcensus schema init --cluster NAME [--node URL...]`: with nodes, the statements go to
/// `url` and each node in turn; without, once with `ON CLUSTER`.
pub async fn schema_init_cluster(
    url: &str,
    database: Option<&str>,
    cluster: &str,
    nodes: &[String],
    settings: &ClickHouseSettings,
) -> anyhow::Result<ExitCode> {
    let ddl = if nodes.is_empty() {
        ch::ClusterDdl::OnCluster
    } else {
        ch::ClusterDdl::PerNode
    };
    for node in std::iter::once(url).chain(nodes.iter().map(String::as_str)) {
        let target = target(node, database, settings)?;
        let conn = connect(&target).await?;
        let node = redact_url(node);
        ch::init_cluster_schema(&conn, cluster, ddl)
            .await
            .with_context(|| format!("creating the cluster schema on {node}"))?;
        println!(
            "cluster schema ready: database {} of cluster {cluster} on {node} (ClickHouse {})",
            target.database, conn.version
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `mcpcensus schema print [--cluster NAME [--per-node]]`.
pub fn schema_print(
    database: Option<&str>,
    cluster: Option<&str>,
    per_node: bool,
) -> anyhow::Result<ExitCode> {
    let ddl = schema_ddl(database, cluster, per_node)?;
    std::io::stdout().lock().write_all(ddl.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The statements `schema init` would send, each ending in `;` and a blank line.
fn schema_ddl(
    database: Option<&str>,
    cluster: Option<&str>,
    per_node: bool,
) -> anyhow::Result<String> {
    let settings = ClickHouseSettings::default();
    let target = Target::new(
        "http://localhost:8123",
        database.unwrap_or(&settings.database),
    );
    target.validate()?;
    let statements = match cluster {
        None => ch::schema_statements(&target.database),
        Some(cluster) => {
            ch::validate_cluster(cluster)?;
            let ddl = if per_node {
                ch::ClusterDdl::PerNode
            } else {
                ch::ClusterDdl::OnCluster
            };
            ch::cluster_schema_statements(&target.database, cluster, ddl)
        }
    };
    Ok(statements.iter().map(|s| format!("{s};\n\n")).collect())
}

/// `mcpcensus load DIR`: an embedded store, one of its runs, or a spool.
pub async fn load(args: LoadArgs) -> anyhow::Result<ExitCode> {
    if !args.dir.is_dir() {
        bail!("{} is not a directory", args.dir.display());
    }
    let mut config = args.config.load()?;
    set_ca_file(&mut config.clickhouse, args.clickhouse_ca_file.as_ref());
    let url = super::setup::clickhouse_url(args.clickhouse.as_deref(), &config)?;
    let target = target(&url, args.database.as_deref(), &config.clickhouse)?;
    let conn = connect(&target).await?;
    ch::init_schema(&conn).await?;
    let started = std::time::Instant::now();
    let summary = ch::load_dir(
        &conn,
        &args.dir,
        ch::sink::DEFAULT_BATCH_ROWS,
        ch::sink::DEFAULT_INSERT_ATTEMPTS,
        &default_backoff(),
        ch::sink::DEFAULT_INSERT_TIMEOUT,
        None,
    )
    .await?;
    if summary.dirs.is_empty() {
        bail!("no segment files under {}", args.dir.display());
    }
    for damage in &summary.damage {
        eprintln!("warning: {damage:?}");
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "loaded {} records from {} folder(s) and {} run manifest(s) into {} in {:.1} s \
         ({:.0} records/s){}",
        summary.records,
        summary.dirs.len(),
        summary.runs.len(),
        target.database,
        secs,
        summary.records as f64 / secs.max(1e-9),
        if summary.unreadable > 0 {
            format!("; {} unreadable records skipped", summary.unreadable)
        } else {
            String::new()
        }
    );
    Ok(ExitCode::SUCCESS)
}

fn default_backoff() -> Backoff {
    Backoff::new(
        ch::sink::DEFAULT_BACKOFF_INITIAL,
        ch::sink::DEFAULT_BACKOFF_MAX,
    )
    .unwrap_or_else(|| unreachable!("the default backoff is valid"))
}

/// A spool loaded at the start of a crawl.
#[derive(Debug, Clone)]
pub struct Drained {
    pub run_id: String,
    pub records: u64,
    /// Rows the server refused, now in `dead_letter`.
    pub dead_lettered: u64,
    pub dead_letter: std::path::PathBuf,
}

/// A crawl's ClickHouse side: the schema is created, the run recorded in `runs`, and the sink
/// started with its spool under `<out>/clickhouse-spool/<run id>`.
pub struct CrawlClickHouse {
    conn: Connection,
    /// The `runs` row's source: `crawl`, or `crawl shard K/N` (one row per shard on a cluster).
    source: String,
    /// The sink's stats as it goes (metrics).
    pub live: std::sync::Arc<ch::LiveSinkStats>,
}

impl CrawlClickHouse {
    /// Connects and creates the schema; the run is not recorded yet ([`Self::begin`]).
    pub async fn connect(config: &Config, url: &str) -> anyhow::Result<CrawlClickHouse> {
        let target = target(url, None, &config.clickhouse)?;
        let conn = connect(&target).await?;
        ch::init_schema(&conn).await?;
        let source = match config.input.shard {
            s if s == crate::input::Shard::ALL => "crawl".to_owned(),
            s => format!("crawl shard {s}"),
        };
        Ok(CrawlClickHouse {
            conn,
            source,
            live: std::sync::Arc::default(),
        })
    }

    /// Records the run in `runs` as running, with its manifest (so a report from ClickHouse
    /// alone has the run's methods).
    pub async fn begin(&self, manifest: &RunManifest) -> anyhow::Result<()> {
        self.record_run(manifest, 0).await
    }

    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Starts the sink (its own thread and runtime); records the server rejects for their
    /// content go to `dead_letter`.
    pub async fn sink(
        &self,
        config: &Config,
        run_id: &str,
        dead_letter: std::path::PathBuf,
    ) -> anyhow::Result<ClickHouseSink> {
        let mut options = SinkOptions::new(config.crawl.out.join(SPOOL_DIR).join(run_id));
        options.live = self.live.clone();
        options.dead_letter = Some(dead_letter);
        let target = self.conn.target.clone();
        let sink = tokio::task::spawn_blocking(move || ClickHouseSink::start(target, options))
            .await
            .context("starting the ClickHouse sink")??;
        Ok(sink)
    }

    /// Loads the spools other runs left under `out` (a crawl that died during an outage) and
    /// removes them once loaded; a spool whose run another process is writing is left alone,
    /// and so is one that cannot be loaded now (logged: the crawl starts all the same). Rows
    /// the server refuses go to their run's dead-letter file.
    pub async fn drain_leftover_spools(
        &self,
        store: &mcpcensus_store::Store,
        current_run: &str,
    ) -> Vec<Drained> {
        let root = store.root().join(SPOOL_DIR);
        let Ok(entries) = std::fs::read_dir(&root) else {
            return Vec::new();
        };
        let mut drained = Vec::new();
        for entry in entries.flatten() {
            let run_id = entry.file_name().to_string_lossy().into_owned();
            if run_id == current_run || !entry.path().is_dir() {
                continue;
            }
            // A run the store does not know, or one being written now, is not ours to drain.
            let Ok(Some(_lock)) = store.try_lock_run(&run_id) else {
                continue;
            };
            match self.drain_spool(store, &entry.path(), &run_id).await {
                Ok(d) => drained.push(d),
                Err(e) => tracing::error!(
                    run_id = %run_id,
                    error = %format!("{e:#}"),
                    "could not load the spool an earlier run left; it stays for the next crawl or `mcpcensus load`"
                ),
            }
        }
        drained
    }

    /// Loads the spool `run_id` itself left (a resume holding the run's lock: nobody else
    /// writes it), so ClickHouse holds every record the run handed over before it is asked
    /// which sites are done.
    pub async fn drain_own_spool(
        &self,
        store: &mcpcensus_store::Store,
        run_id: &str,
    ) -> anyhow::Result<()> {
        let dir = store.root().join(SPOOL_DIR).join(run_id);
        if dir.is_dir() {
            self.drain_spool(store, &dir, run_id).await?;
        }
        Ok(())
    }

    async fn drain_spool(
        &self,
        store: &mcpcensus_store::Store,
        dir: &Path,
        run_id: &str,
    ) -> anyhow::Result<Drained> {
        let dead_letter = store.run_dir(run_id)?.join(ch::DEAD_LETTER_FILE);
        let mut dead = ch::DeadLetters::new(&dead_letter, ch::DEFAULT_DEAD_LETTER_MAX_BYTES);
        let summary = ch::load_dir(
            &self.conn,
            dir,
            ch::sink::DEFAULT_BATCH_ROWS,
            ch::sink::DEFAULT_INSERT_ATTEMPTS,
            &default_backoff(),
            ch::sink::DEFAULT_INSERT_TIMEOUT,
            Some(&mut dead),
        )
        .await
        .with_context(|| format!("draining the spool of run {run_id}"))?;
        std::fs::remove_dir_all(dir).with_context(|| format!("removing {}", dir.display()))?;
        tracing::info!(run_id = %run_id, records = summary.records, dead_lettered = summary.dead_lettered, "drained a spool left by an earlier run");
        Ok(Drained {
            run_id: run_id.to_owned(),
            records: summary.records,
            dead_lettered: summary.dead_lettered,
            dead_letter,
        })
    }

    /// The run's final `runs` row, with its final manifest; a failure is logged, not fatal
    /// (the records are in).
    pub async fn finish_run(&self, manifest: &RunManifest, sites: u64) {
        if let Err(e) = self.record_run(manifest, sites).await {
            tracing::warn!(error = %e, "could not record the run's end in ClickHouse");
        }
    }

    async fn record_run(&self, manifest: &RunManifest, sites: u64) -> anyhow::Result<()> {
        let mut row = RunRow::of_manifest(manifest, &self.source, sites);
        row.server_version = self.conn.version.clone();
        ch::record_run(&self.conn, &row).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{schema_ddl, target};
    use crate::cli::setup::{redacted, redacted_argv};
    use crate::config::{ClickHouseSettings, Config};

    #[test]
    fn the_url_gives_the_credentials_and_is_recorded_redacted() {
        let settings = ClickHouseSettings {
            user: Some("from_config".to_owned()),
            ca_file: Some("ca.pem".into()),
            ..ClickHouseSettings::default()
        };
        let url = "https://writer:s3cret@ch.example:8443/";
        let t = target(url, Some("db"), &settings).unwrap();
        assert_eq!(t.url, "https://ch.example:8443/");
        assert_eq!(t.user.as_deref(), Some("writer"));
        assert!(t.password.is_some());
        assert_eq!(t.ca_file, settings.ca_file);

        let mut config = Config::default();
        config.clickhouse.url = Some(url.to_owned());
        let recorded = serde_json::to_string(&redacted(&config)).unwrap();
        assert!(!recorded.contains("s3cret"), "{recorded}");
        assert!(recorded.contains("writer:***@ch.example"), "{recorded}");
        let argv = ["mcpcensus", "crawl", "--clickhouse", url].map(String::from);
        assert_eq!(
            redacted_argv(&argv)[3],
            "https://writer:***@ch.example:8443/"
        );
    }

    #[test]
    fn schema_print_gives_the_single_node_or_the_cluster_ddl() {
        let single = schema_ddl(Some("census"), None, false).unwrap();
        assert!(
            single.starts_with("CREATE DATABASE IF NOT EXISTS census;\n\n"),
            "{single}"
        );
        assert!(
            single.contains("CREATE TABLE IF NOT EXISTS census.sites ("),
            "{single}"
        );
        assert!(
            !single.contains("_local") && !single.contains('{'),
            "{single}"
        );
        let cluster = schema_ddl(Some("census"), Some("c1"), false).unwrap();
        assert_eq!(cluster.matches(";\n\n").count(), 14, "{cluster}");
        assert_eq!(cluster.matches(" ON CLUSTER c1").count(), 14, "{cluster}");
        let per_node = schema_ddl(None, Some("c1"), true).unwrap();
        assert!(!per_node.contains("ON CLUSTER"), "{per_node}");
        assert!(
            per_node.contains("Distributed(c1, mcpcensus, sites_local, sipHash64(site_key))"),
            "{per_node}"
        );
        for (db, cluster) in [(Some("a;b"), None), (None, Some("c-1"))] {
            let err = schema_ddl(db, cluster, false).unwrap_err();
            assert!(!err.to_string().is_empty());
        }
    }
}
