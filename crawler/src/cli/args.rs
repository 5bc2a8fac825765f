//! The command line (a contract: see the design brief).

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use ipnet::IpNet;

use crate::config::{
    defaults, duration_at_most, whole_seconds, Config, Http, LogFormat, Probe, Robots,
};
use crate::input::{Column, Shard};

#[derive(Debug, Parser)]
#[command(
    name = "mcpcensus",
    version,
    about = "Measures how the web adopts the Model Context Protocol (MCP)",
    long_about = "Measures how the web adopts the Model Context Protocol (MCP): for each site of a \
                  domain list it discovers MCP endpoints and discovery documents, opens a capped MCP \
                  session, classifies and audits what it saw, and stores one record per site."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Scan domain lists and store one record per site (the main job).
    Crawl(CrawlArgs),
    /// Scan one site and show every request and answer, then the verdict.
    Check(CheckArgs),
    /// Print stored records.
    Export(ExportArgs),
    /// Reports on MCP adoption and tool counts.
    Report(ReportArgs),
    /// Replay an embedded store or spool into ClickHouse, idempotently.
    Load(LoadArgs),
    /// ClickHouse schema management.
    Schema(SchemaArgs),
    /// Grade a pasted tools/list result or JSON array of tools.
    Grade(GradeArgs),
    /// List the runs in an embedded store.
    Runs(RunsArgs),
    /// Print a shell completion script, e.g. `mcpcensus completions bash > /etc/bash_completion.d/mcpcensus`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), e.g. `mcpcensus man > ~/.local/share/man/man1/mcpcensus.1`.
    Man,
}

/// `--config FILE` for the commands that read a store or ClickHouse: they take the store
/// folder (`crawl.out`) and the ClickHouse settings (`clickhouse.*`) from it; flags override it.
#[derive(Debug, Args, Default)]
pub struct ConfigFile {
    /// TOML config file (flags override it): its store folder and ClickHouse settings are used.
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
}

impl ConfigFile {
    /// The file's config, or the defaults without one.
    pub fn load(&self) -> Result<Config, crate::ConfigError> {
        let c = match &self.config {
            Some(path) => Config::from_file(path)?,
            None => Config::default(),
        };
        c.validate()?;
        Ok(c)
    }
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Settings shared by `crawl` and `check`: each overrides the config file.
#[derive(Debug, Args, Default)]
pub struct ScanArgs {
    /// TOML config file (flags override it); see configs/default.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Sites in flight at once [default: 1000].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<NonZeroUsize>,
    /// Requests per second to one host [default: 2, burst 4].
    #[arg(long, value_name = "R")]
    pub per_host_rps: Option<f64>,
    /// Burst of requests allowed to one host [default: 4].
    #[arg(long, value_name = "N")]
    pub per_host_burst: Option<u32>,
    /// Requests per second to one IP address [default: 20].
    #[arg(long, value_name = "R")]
    pub per_ip_rps: Option<f64>,
    /// Concurrent connections to one IP address [default: 8].
    #[arg(long, value_name = "N")]
    pub per_ip_connections: Option<NonZeroUsize>,
    /// All of one site's work ends within this long (e.g. 30s, 2m; a plain number is
    /// seconds), at most 1h [default: 30s].
    #[arg(long, value_name = "DUR", value_parser = site_deadline)]
    pub site_deadline: Option<u64>,
    /// Nameserver to use instead of the system's (repeatable).
    #[arg(long = "resolver", value_name = "IP[:PORT]")]
    pub resolvers: Vec<String>,
    /// Extra trust roots, PEM (repeatable).
    #[arg(long = "ca-file", value_name = "PEM")]
    pub ca_files: Vec<PathBuf>,
    /// Let the address guard pass this range (repeatable), e.g. 127.0.0.0/8 for tests.
    #[arg(long = "allow-net", value_name = "CIDR")]
    pub allow_net: Vec<IpNet>,
    /// User-Agent sent with every request; must name you and a contact URL.
    #[arg(long, value_name = "UA")]
    pub user_agent: Option<String>,
    /// Opt-out list: a listed domain excludes itself and its subdomains (repeatable).
    #[arg(long = "exclude", value_name = "FILE")]
    pub exclude: Vec<PathBuf>,
    /// IP-range opt-out: a CIDR or a file of CIDRs never connected to (repeatable).
    #[arg(long = "exclude-net", value_name = "CIDR|FILE")]
    pub exclude_net: Vec<String>,
    /// Your contact (URL or mail address), sent in the User-Agent; set it for public crawls.
    #[arg(long, value_name = "URL|MAIL")]
    pub contact: Option<String>,
    /// respect (fetch robots.txt once per site, skip what it disallows) or ignore [default: respect].
    #[arg(long, value_enum)]
    pub robots: Option<Robots>,
    /// http1 (offer HTTP/1.1 only) or http2 (HTTP/2 first, then HTTP/1.1) [default: http1].
    #[arg(long, value_enum)]
    pub http: Option<Http>,
    /// survey (discovery and the capped session) or deep (the deep server probe as well) [default: survey].
    #[arg(long, value_parser = probe_depth())]
    pub probe: Option<Probe>,
    /// The readiness level as well: the agent-readiness checks (robots.txt's AI rules, llms.txt,
    /// the agent card, ...) of every site scanned, with either depth (docs/readiness.md).
    #[arg(long)]
    pub readiness: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
    /// Log lines as text or JSON [default: text].
    #[arg(long, value_enum)]
    pub log_format: Option<LogFormat>,
}

#[derive(Debug, Args)]
pub struct CrawlArgs {
    /// Domain lists (one host, host:port or https:// origin a line; .gz accepted); - for stdin.
    #[arg(value_name = "FILE|-", required_unless_present = "rescan_older_than")]
    pub inputs: Vec<String>,
    #[command(flatten)]
    pub scan: ScanArgs,
    /// Embedded store directory [default: ./mcpcensus-data].
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Stream records into ClickHouse at this URL instead of the embedded store.
    #[arg(long, value_name = "URL")]
    pub clickhouse: Option<String>,
    /// ClickHouse database [default: mcpcensus].
    #[arg(long, value_name = "NAME")]
    pub database: Option<String>,
    /// PEM certificates trusted for an https:// ClickHouse besides the webpki roots [default:
    /// the config's clickhouse.ca_file].
    #[arg(long, value_name = "PEM")]
    pub clickhouse_ca_file: Option<PathBuf>,
    /// Stop taking new sites after this long, e.g. 8h; at most 365d.
    #[arg(long, value_name = "DUR", value_parser = max_duration)]
    pub max_duration: Option<String>,
    /// Look again near the end of the run, at least this long after the first look, at sites
    /// that ended not measured or unreachable on a failure that may pass (no answer, a
    /// timeout, 429, 5xx); the second look decides [default: 1m; at most 1d].
    #[arg(long, value_name = "DUR", value_parser = second_look_delay)]
    pub second_look_delay: Option<String>,
    /// Look at each site once: no second look.
    #[arg(long, conflicts_with = "second_look_delay")]
    pub no_second_look: bool,
    /// Keep shard K of N (0-based), split by registrable domain.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// The list column holding the site: a 1-based number or a header name [default: the
    /// header's domain/origin/host column, else the line's one site].
    #[arg(long, value_name = "N|NAME")]
    pub host_column: Option<Column>,
    /// The list column holding the rank: a 1-based number or a header name [default: the
    /// header's rank/GlobalRank column, else a number before or after the site].
    #[arg(long, value_name = "N|NAME")]
    pub rank_column: Option<Column>,
    /// Continue the latest interrupted run (or the one named) instead of starting a new one.
    #[arg(long, value_name = "RUN", num_args = 0..=1, default_missing_value = "latest")]
    pub resume: Option<String>,
    /// Name the run [default: a new id]; the shard processes of one census share one id.
    #[arg(long, value_name = "ID", conflicts_with = "resume")]
    pub run_id: Option<String>,
    /// With --run-id: resume that run if the store holds it unfinished, start it if the store
    /// has none (a retried shard on a fresh disk), do nothing if it is complete.
    #[arg(long, requires = "run_id")]
    pub resume_or_start: bool,
    /// Normalize, dedupe, shard and exclude without any network; record what would be scanned.
    #[arg(long)]
    pub dry_run: bool,
    /// Also write the final summary as JSON to this file (for schedulers).
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,
    /// Re-scan the sites whose last record in the store is older than DUR (e.g. 7d, 36h),
    /// plus the sites of the given lists never scanned; sites scanned since are skipped.
    #[arg(long, value_name = "DUR")]
    pub rescan_older_than: Option<String>,
    /// Look `registry:NAME` input lines up in the MCP registry at this URL and scan the
    /// entry's first remote (as `check NAME --registry URL` does).
    #[arg(long, value_name = "URL")]
    pub registry: Option<String>,
    /// Serve Prometheus metrics at http://ADDR/metrics during the crawl (e.g. 127.0.0.1:9184).
    #[arg(long, value_name = "ADDR")]
    pub metrics: Option<std::net::SocketAddr>,
    /// After the run, keep serving the final metrics until they are scraped once or this
    /// long has passed (e.g. 30s), at most 1d [default: 0, stop at once].
    #[arg(long, value_name = "DUR", requires = "metrics", value_parser = metrics_linger)]
    pub metrics_linger: Option<Duration>,
    /// What the run is, e.g. nightly: kept in its manifest and runs row; reports trend by it.
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A host, host:port or https:// origin.
    pub target: String,
    /// Show each request and answer.
    #[arg(long)]
    pub explain: bool,
    /// Run the deep server probe as well.
    #[arg(long)]
    pub deep: bool,
    /// TARGET is a name in the MCP registry at this URL (e.g. com.example/server): check the
    /// first remote of the entry named exactly so, or report its repository (stdio).
    #[arg(long, value_name = "URL")]
    pub registry: Option<String>,
    /// Write here instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub scan: ScanArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// Whole records, one JSON object a line.
    Jsonl,
    /// Flat tables (sites, tools, findings) as Parquet files in the -o folder.
    Parquet,
    /// The same flat tables as CSV files in the -o folder.
    Csv,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Embedded store directory [default: the config's crawl.out, ./mcpcensus-data].
    #[arg(long, value_name = "DIR")]
    pub from: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigFile,
    /// The run to export [default: the latest].
    #[arg(long, value_name = "ID")]
    pub run: Option<String>,
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: ExportFormat,
    /// jsonl: write to this file instead of standard output; parquet, csv: the folder.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    Html,
    Markdown,
    /// A folder of CSV files, one per table (give it with -o DIR).
    Csv,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Embedded store directory [default: the config's crawl.out, ./mcpcensus-data]. Give it
    /// once per store to read several together: a run written by `crawl --shard K/N`
    /// processes into their own stores is then one run. With ClickHouse, stores whose run
    /// manifests fill in the methods of runs ClickHouse holds none for.
    #[arg(long, value_name = "DIR")]
    pub from: Vec<PathBuf>,
    /// Read from ClickHouse at this URL (the counting runs on the server) [default: the
    /// config's clickhouse.url, else the embedded store].
    #[arg(long, value_name = "URL")]
    pub clickhouse: Option<String>,
    /// ClickHouse database [default: the config's, mcpcensus].
    #[arg(long, value_name = "NAME")]
    pub database: Option<String>,
    /// PEM certificates trusted for an https:// ClickHouse besides the webpki roots [default:
    /// the config's clickhouse.ca_file].
    #[arg(long, value_name = "PEM")]
    pub clickhouse_ca_file: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigFile,
    #[arg(long, value_name = "ID")]
    pub run: Option<String>,
    /// Compare with this earlier run [default: the run started before it with the same
    /// label].
    #[arg(long, value_name = "RUN")]
    pub compare: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
    /// Write to this file instead of standard output; csv: the folder (needed).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct LoadArgs {
    /// An embedded store or spool directory.
    pub dir: PathBuf,
    /// ClickHouse URL [default: the config's clickhouse.url].
    #[arg(long, value_name = "URL")]
    pub clickhouse: Option<String>,
    /// ClickHouse database [default: the config's, mcpcensus].
    #[arg(long, value_name = "NAME")]
    pub database: Option<String>,
    /// PEM certificates trusted for an https:// ClickHouse besides the webpki roots [default:
    /// the config's clickhouse.ca_file].
    #[arg(long, value_name = "PEM")]
    pub clickhouse_ca_file: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigFile,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    #[command(subcommand)]
    pub action: SchemaAction,
    /// TOML config file: its ClickHouse URL, database and credentials (flags override it).
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum SchemaAction {
    /// Create the tables and views that are missing.
    Init {
        /// ClickHouse URL [default: the config's clickhouse.url].
        #[arg(long, value_name = "URL")]
        clickhouse: Option<String>,
        #[arg(long, value_name = "NAME")]
        database: Option<String>,
        /// Create the sharded schema on this cluster (local tables behind Distributed tables),
        /// with ON CLUSTER unless --node is given.
        #[arg(long, value_name = "NAME")]
        cluster: Option<String>,
        /// Another node of the cluster (repeatable): the DDL goes to --clickhouse and each node
        /// in turn instead of ON CLUSTER, for clusters without Keeper or ZooKeeper.
        #[arg(long = "node", value_name = "URL", requires = "cluster")]
        nodes: Vec<String>,
        /// PEM certificates trusted for an https:// ClickHouse besides the webpki roots
        /// [default: the config's clickhouse.ca_file].
        #[arg(long, value_name = "PEM")]
        clickhouse_ca_file: Option<PathBuf>,
    },
    /// Print the DDL that `schema init` sends (to read it, or to apply it by hand).
    Print {
        #[arg(long, value_name = "NAME")]
        database: Option<String>,
        /// The sharded schema for this cluster, with ON CLUSTER unless --per-node is given.
        #[arg(long, value_name = "NAME")]
        cluster: Option<String>,
        /// The cluster statements without ON CLUSTER, to send to each node in turn.
        #[arg(long, requires = "cluster")]
        per_node: bool,
    },
}

#[derive(Debug, Args)]
pub struct GradeArgs {
    /// A tools/list result or a JSON array of tools (at most 200).
    pub file: PathBuf,
    /// Write here instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RunsArgs {
    /// Embedded store directory [default: the config's crawl.out, ./mcpcensus-data].
    #[arg(long, value_name = "DIR", global = true)]
    pub from: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigFile,
    #[command(subcommand)]
    pub action: Option<RunsAction>,
}

#[derive(Debug, Subcommand)]
pub enum RunsAction {
    /// Remove old runs from the embedded store: only lists them unless --yes is given.
    Prune(PruneArgs),
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("which").required(true).multiple(true)))]
pub struct PruneArgs {
    /// Keep the newest N runs; with --older-than, a run goes only when both say so.
    #[arg(long, value_name = "N", group = "which")]
    pub keep: Option<usize>,
    /// Remove the runs started longer ago than DUR (e.g. 90d, 12w).
    #[arg(long, value_name = "DUR", group = "which", value_parser = run_age)]
    pub older_than: Option<Duration>,
    /// Remove them; without it the runs are only listed.
    #[arg(long)]
    pub yes: bool,
}

/// `--site-deadline`: whole seconds from 1 to [`defaults::MAX_SITE_DEADLINE_SECS`], as a
/// duration (`30s`, `2m`) or a plain number of seconds (the flag's older form).
fn site_deadline(text: &str) -> Result<u64, String> {
    whole_seconds(text, Duration::from_secs(defaults::MAX_SITE_DEADLINE_SECS))
}

/// `--max-duration`: kept as text (the config's form), checked here so a value past
/// [`defaults::MAX_DURATION`] fails at parse time.
fn max_duration(text: &str) -> Result<String, String> {
    duration_at_most(text, defaults::MAX_DURATION).map(|_| text.to_owned())
}

/// `--second-look-delay`: kept as text like `--max-duration`.
fn second_look_delay(text: &str) -> Result<String, String> {
    duration_at_most(text, defaults::MAX_SECOND_LOOK_DELAY).map(|_| text.to_owned())
}

/// `runs prune --older-than`: any duration (it only moves a cutoff back).
fn run_age(text: &str) -> Result<Duration, String> {
    humantime::parse_duration(text).map_err(|e| format!("{text:?}: {e}"))
}

/// `--metrics-linger`: at most [`defaults::MAX_METRICS_LINGER`].
fn metrics_linger(text: &str) -> Result<Duration, String> {
    duration_at_most(text, defaults::MAX_METRICS_LINGER)
}

/// `--probe`'s values: the record's own names for the scan depths.
fn probe_depth() -> impl clap::builder::TypedValueParser<Value = Probe> {
    use clap::builder::TypedValueParser as _;
    let names: Vec<&'static str> = Probe::ALL.iter().map(|p| p.as_str()).collect();
    clap::builder::PossibleValuesParser::new(names).try_map(|name| name.parse::<Probe>())
}
