//! The report's shape: the JSON schema machines read (field names are a contract, documented
//! in docs/report.md), and what the text and HTML renderings show.

use std::collections::BTreeMap;

use mcpcensus_store::FailureKind;

pub use crate::model_methods::*;
pub use crate::model_rank::*;
pub use crate::model_registry::RegistryReport;
use serde::{Deserialize, Serialize};

/// A count and its share of a base, in percent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Share {
    pub count: u64,
    pub percent: f64,
}

impl Share {
    pub fn of(count: u64, base: u64) -> Share {
        let percent = if base == 0 {
            0.0
        } else {
            round2(100.0 * count as f64 / base as f64)
        };
        Share { count, percent }
    }
}

/// Shares of `counts` over their sum.
pub fn shares(counts: &BTreeMap<String, u64>, base: u64) -> BTreeMap<String, Share> {
    counts
        .iter()
        .map(|(k, &v)| (k.clone(), Share::of(v, base)))
        .collect()
}

/// Outcome counts with `unreachable` folded into `not_measured` (the survey's "not measured:
/// no answer").
pub fn no_answer_not_measured(counts: &BTreeMap<String, u64>) -> BTreeMap<String, u64> {
    let mut out = counts.clone();
    if let Some(n) = out.remove("unreachable") {
        *out.entry("not_measured".to_owned()).or_default() += n;
    }
    out
}

/// The measurement's five outcomes, in the order reports show them.
pub const MEASURED_OUTCOMES: [&str; 5] =
    ["pass", "partial", "fail", "not_measured", "out_of_scope"];

/// The scanned sites by the measurement's five outcomes, each present: `unreachable` counts as
/// not measured (the survey's "not measured: no answer"), sites not scanned are left out.
pub fn measured_outcomes(counts: &BTreeMap<String, u64>) -> BTreeMap<String, u64> {
    let folded = no_answer_not_measured(counts);
    MEASURED_OUTCOMES
        .iter()
        .map(|o| ((*o).to_owned(), folded.get(*o).copied().unwrap_or(0)))
        .collect()
}

/// Two decimals, so both back ends print the same numbers.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// How one kind of discovery document fared.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentCounts {
    /// Sites where it answered 2xx with a usable document.
    pub parsed: u64,
    /// Sites where a 200 answer was an HTML page (not counted as served).
    pub soft_404: u64,
}

/// Tools per server that listed its tools.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolCounts {
    pub servers: u64,
    pub min: u64,
    pub median: u64,
    pub p90: u64,
    pub max: u64,
    /// Servers by tool count, keyed by [`TOOL_COUNT_BUCKETS`]' labels.
    pub buckets: BTreeMap<String, u64>,
}

/// The tool-count buckets: label, least and most tools (`None`: no upper bound). The one
/// declaration; the SQL gets them as `{tool_count_buckets}`.
pub const TOOL_COUNT_BUCKETS: [(&str, u32, Option<u32>); 4] = [
    ("1", 1, Some(1)),
    ("2-5", 2, Some(5)),
    ("6-20", 6, Some(20)),
    (">20", 21, None),
];

/// The label of the bucket `count` tools fall in (`None` for no tool).
pub fn tool_count_bucket(count: u32) -> Option<&'static str> {
    TOOL_COUNT_BUCKETS
        .iter()
        .find(|(_, least, most)| count >= *least && most.is_none_or(|m| count <= m))
        .map(|(label, _, _)| *label)
}

/// A name or key with how often it occurred.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranked {
    pub name: String,
    pub count: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingCount {
    pub rule_id: String,
    pub severity: String,
    pub count: u64,
    /// The rule's title (docs/rules.md), filled in from the rule catalog by the caller.
    #[serde(default)]
    pub title: Option<String>,
}

/// Adoption among the scanned sites of one top-level domain (the host's last label).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TldAdoption {
    pub tld: String,
    pub scanned: u64,
    pub endpoints: u64,
    pub passing: u64,
}

/// One server fingerprint (name, version, tool list) seen on many sites: a platform such as
/// one vendor serving many shops.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Platform {
    pub fingerprint: String,
    pub server_name: Option<String>,
    pub server_version: Option<String>,
    pub tool_count: u64,
    pub sites: u64,
}

/// Sites with an MCP endpoint, with every platform site counted and with each platform
/// counted once.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Adoption {
    pub endpoints: u64,
    pub passing: u64,
    pub endpoints_platforms_once: u64,
    pub passing_platforms_once: u64,
}

impl Adoption {
    /// Adoption from the run's counts and each platform's `(sites, passing sites)`: a
    /// platform's sites count once.
    pub fn counted(
        endpoints: u64,
        passing: u64,
        platforms: impl IntoIterator<Item = (u64, u64)>,
    ) -> Adoption {
        let (extra_sites, extra_passing) =
            platforms.into_iter().fold((0, 0), |(s, p), (sites, pass)| {
                (s + sites - 1, p + pass.saturating_sub(1))
            });
        Adoption {
            endpoints,
            passing,
            endpoints_platforms_once: endpoints - extra_sites,
            passing_platforms_once: passing - extra_passing,
        }
    }
}

/// Everything one run's report says.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub run_id: String,
    /// Records in the run (one per input site).
    pub sites_read: u64,
    /// Sites the crawler scanned (not invalid, excluded, planned or not started).
    pub sites_scanned: u64,
    /// Scanned sites that answered (not unreachable).
    pub sites_reachable: u64,
    /// Per document kind (home, server_card, legacy_card, ai_catalog, ...).
    pub documents: BTreeMap<String, DocumentCounts>,
    /// Sites with any usable discovery document (server card, legacy card, catalog).
    pub sites_with_discovery_document: u64,
    pub endpoints: u64,
    /// Endpoints by discovery method.
    pub endpoints_by_method: BTreeMap<String, u64>,
    /// Scanned sites by the discovery document that first named an MCP server.
    pub discovery_sources: BTreeMap<String, u64>,
    /// The headline: the sites scanned by the measurement's five outcomes (pass, partial,
    /// fail, not measured with `unreachable` folded in, out of scope), shares of `sites_scanned`.
    pub measured_outcomes: BTreeMap<String, Share>,
    /// Outcome shares of the records, every record outcome apart (the finer table).
    pub outcomes: BTreeMap<String, Share>,
    /// The same shares with `unreachable` (no HTTP answer at all) counted as the survey's
    /// "not measured: no answer", i.e. folded into `not_measured`.
    pub outcomes_no_answer_not_measured: BTreeMap<String, Share>,
    /// Scanned sites with an API or agent surface (the record's `surface`): the population the
    /// survey asks its MCP check of.
    pub sites_with_surface: u64,
    /// Outcome shares over the sites with a surface.
    pub outcomes_surface: BTreeMap<String, Share>,
    /// Scanned sites measured at a final origin other than their input's, by where they moved:
    /// `www`, `apex`, `other_subdomain`.
    pub measured_elsewhere: BTreeMap<String, u64>,
    /// Scanned sites whose verdict has a typed reason (the record's `reason_kind`), by
    /// outcome and kind, sorted by outcome then kind.
    #[serde(default)]
    pub outcomes_by_reason_kind: Vec<ReasonKindCount>,
    /// Scanned sites whose reason kind is `body_cap`: an answer over 64 KB.
    #[serde(default)]
    pub sites_body_cap: u64,
    /// Scanned sites whose reason kind is `newer_revision_only`: the server speaks only a
    /// revision newer than the survey's (2026-07-28), not a defect.
    #[serde(default)]
    pub sites_newer_revision_only: u64,
    pub defects: u64,
    pub protocol_versions: BTreeMap<String, u64>,
    pub transports: BTreeMap<String, u64>,
    pub auth_kinds: BTreeMap<String, u64>,
    pub spec_versions: BTreeMap<String, u64>,
    pub migration_status: BTreeMap<String, u64>,
    /// Sites using each deprecated feature (deep probe).
    pub deprecated_features: BTreeMap<String, u64>,
    pub tool_counts: ToolCounts,
    pub top_tool_names: Vec<Ranked>,
    pub findings: Vec<FindingCount>,
    /// Graded tools per letter.
    pub grades: BTreeMap<String, u64>,
    pub top_domains: Vec<Ranked>,
    pub top_ips: Vec<Ranked>,
    pub platforms: Vec<Platform>,
    pub adoption: Adoption,
    /// The top-level domains with the most endpoints (ties: more scanned sites, then name).
    pub adoption_by_tld: Vec<TldAdoption>,
    /// Adoption by the input's rank, in the Web Almanac's cumulative buckets (top 1k, 10k,
    /// 100k, 1M, 10M), then every ranked site and the unranked ones; empty when no scanned
    /// site has a rank.
    #[serde(default)]
    pub adoption_by_rank: Vec<RankBucket>,
    /// The readiness level's checks (docs/readiness.md); absent when no scanned site had a
    /// readiness section (the level was off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness: Option<crate::readiness::ReadinessReport>,
    /// The capability mix of the servers whose tools were tagged (docs/rules.md, "Tool
    /// capabilities"); absent when none was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_capabilities: Option<crate::capabilities::ToolCapabilityReport>,
    /// Scanned sites per kind of API or agent surface evidence (the record's
    /// `surface_signals`), shares of `sites_scanned`; a site counts once per signal it showed.
    #[serde(default)]
    pub surface_signals: BTreeMap<String, Share>,
    /// The second look: sites looked at twice after a failure that may pass, and how their
    /// outcome changed.
    #[serde(default)]
    pub second_look: SecondLookCounts,
    /// Scanned sites robots.txt kept out (not measured), by the verdict's reason kind: `robots`
    /// for the site's own rules, else the failure RFC 9309 reads as complete disallow.
    #[serde(default)]
    pub robots_kept_out: BTreeMap<String, u64>,
    /// Scanned sites a "not now" reading decided (docs/rules.md): `mcp_get_not_now` (the
    /// literal reading: out of scope) and `robots_server_error` (literal: reason `robots`).
    #[serde(default)]
    pub not_now_readings: BTreeMap<String, u64>,
    /// The servers the official MCP registry lists (`registry:` input), by the probers'
    /// classes, and their endpoints beside the web's; absent when the run has none.
    #[serde(default, skip_serializing_if = "RegistryReport::is_empty")]
    pub registry: RegistryReport,
}

/// Sites looked at twice (the record's `first_look`): the second look decides their outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecondLookCounts {
    /// Scanned sites looked at a second time.
    pub looked_again: u64,
    /// Of those, sites whose second look's outcome differs from the first's.
    pub flipped: u64,
    /// Per (first outcome, second outcome), sorted.
    pub changes: Vec<LookChange>,
}

/// Sites whose first look said `first` and whose second said `second`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LookChange {
    pub first: String,
    pub second: String,
    pub sites: u64,
}

impl SecondLookCounts {
    /// From the scanned sites per (first outcome, second outcome); both back ends count those.
    pub fn from_pairs(pairs: BTreeMap<(String, String), u64>) -> SecondLookCounts {
        let mut out = SecondLookCounts::default();
        for ((first, second), sites) in pairs {
            out.looked_again += sites;
            if first != second {
                out.flipped += sites;
            }
            out.changes.push(LookChange {
                first,
                second,
                sites,
            });
        }
        out
    }
}

/// Scanned sites of one outcome whose verdict has one typed reason kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasonKindCount {
    pub outcome: String,
    pub reason_kind: String,
    pub sites: u64,
}

impl RunReport {
    /// Fills `outcomes_by_reason_kind` and the two headline counts from the scanned sites per
    /// `(outcome, reason kind)`; both back ends count those, this orders and sums them.
    pub fn set_reason_kinds(&mut self, counts: BTreeMap<(String, String), u64>) {
        let sites_of = |kind: FailureKind| {
            counts
                .iter()
                .filter(|((_, k), _)| k == kind.as_str())
                .map(|(_, n)| n)
                .sum()
        };
        self.sites_body_cap = sites_of(FailureKind::BodyCap);
        self.sites_newer_revision_only = sites_of(FailureKind::NewerRevisionOnly);
        self.outcomes_by_reason_kind = counts
            .into_iter()
            .map(|((outcome, reason_kind), sites)| ReasonKindCount {
                outcome,
                reason_kind,
                sites,
            })
            .collect();
    }
}

/// A site whose verdict changed between two runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transition {
    pub from: String,
    pub to: String,
    pub sites: u64,
}

/// What changed between two runs, among the sites scanned in both: a site one run did not
/// scan (a re-scan of a subset, a site new to the list) is counted apart, never compared.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub base_run: String,
    pub run: String,
    /// Sites (origins) scanned in both runs: every figure below is over them.
    pub sites_in_both: u64,
    /// Sites scanned in the base run only (e.g. not re-scanned) and in `run` only.
    pub sites_only_in_base: u64,
    pub sites_only_in_run: u64,
    /// Endpoints in `run` minus endpoints in `base_run`.
    pub endpoints_delta: i64,
    pub passing_delta: i64,
    /// Origins with an endpoint now and none before; the lists hold at most `LIST_CAP`
    /// origins (sorted), the counts are exact.
    pub new_endpoint_count: u64,
    pub new_endpoints: Vec<String>,
    /// Origins the base run had an endpoint at, measured in this run with none (a site not
    /// measured or unreachable tonight is `endpoints_unavailable`, never vanished).
    pub vanished_endpoint_count: u64,
    pub vanished_endpoints: Vec<String>,
    /// The base run's endpoints found again at the same URL.
    #[serde(default)]
    pub endpoints_still_there: u64,
    /// The base run's endpoints measured in this run at another URL (`/mcp` → `/v2/mcp`).
    #[serde(default)]
    pub endpoints_moved_count: u64,
    #[serde(default)]
    pub endpoints_moved: Vec<String>,
    /// The base run's endpoints whose site is `not_measured` or `unreachable` in this run.
    #[serde(default)]
    pub endpoints_unavailable_count: u64,
    #[serde(default)]
    pub endpoints_unavailable: Vec<String>,
    /// The base run's endpoints whose site this run did not scan.
    #[serde(default)]
    pub endpoints_not_scanned_count: u64,
    #[serde(default)]
    pub endpoints_not_scanned: Vec<String>,
    /// Origins whose tool names changed (both runs listed tools).
    pub changed_tool_list_count: u64,
    pub changed_tool_lists: Vec<String>,
    /// Origins with the same tool names whose tool list fingerprint (names, descriptions and
    /// input schemas; computed by the deep probe) changed, both runs having one.
    pub changed_tool_description_count: u64,
    pub changed_tool_descriptions: Vec<String>,
    pub outcome_transitions: Vec<Transition>,
    /// Per server whose tools both runs kept: tools added, removed, rewritten, and tools that
    /// gained `destructive`, `executes_code` or `moves_money`.
    #[serde(default)]
    pub tool_changes: crate::tool_changes::ToolChanges,
}

/// The whole report: one run, and optionally its comparison with an earlier one and the
/// adoption of every run in the store.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema_version: u32,
    pub run: RunReport,
    pub comparison: Option<Comparison>,
    /// Adoption per run, oldest first.
    pub history: Vec<HistoryPoint>,
    /// How each run in `history` was taken, from its manifest.
    pub methods: Methods,
}

/// One run's adoption, counted from its records. Denominators the trend shows are fields
/// here (today `sites_scanned`); a new population is one more field and one more series.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HistoryPoint {
    pub run_id: String,
    /// The run's `crawl --label`; reports group runs by it ("(none)" without one).
    #[serde(default)]
    pub label: Option<String>,
    /// The earliest scan of the run: the trend's time axis (ms since the epoch, and RFC 3339).
    pub first_scan_ms: Option<u64>,
    pub first_scan_at: Option<String>,
    pub sites_read: u64,
    pub sites_scanned: u64,
    pub endpoints: u64,
    pub passing: u64,
    pub endpoints_platforms_once: u64,
    pub passing_platforms_once: u64,
    /// Records per outcome.
    pub outcomes: BTreeMap<String, u64>,
}

pub const REPORT_SCHEMA_VERSION: u32 = 3;
/// Origins listed per comparison list (the counts stay exact).
pub const LIST_CAP: usize = 1000;
