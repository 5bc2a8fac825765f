//! One pass over a run's records builds its report; memory grows with distinct tool names,
//! domains, addresses and platforms, and 4 bytes per server for the tool-count quantiles.

use std::collections::{BTreeMap, HashMap};

pub use mcpcensus_store::{scanned, server_fingerprint};
use mcpcensus_store::{Outcome, Record};

use crate::model::*;

/// How much a report lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportSettings {
    /// Entries in each top list.
    pub top_n: usize,
    /// Sites one fingerprint needs before it counts as a platform.
    pub platform_min_sites: u64,
}

pub const DEFAULT_TOP_N: usize = 20;
pub const DEFAULT_PLATFORM_MIN_SITES: u64 = 10;

impl Default for ReportSettings {
    fn default() -> Self {
        ReportSettings {
            top_n: DEFAULT_TOP_N,
            platform_min_sites: DEFAULT_PLATFORM_MIN_SITES,
        }
    }
}

#[derive(Debug, Default)]
struct PlatformAcc {
    server_name: Option<String>,
    server_version: Option<String>,
    tool_count: u64,
    sites: u64,
    passing: u64,
}

#[derive(Debug, Default)]
pub struct Aggregator {
    settings: ReportSettings,
    run_id: String,
    report: RunReport,
    outcomes: BTreeMap<String, u64>,
    outcomes_surface: BTreeMap<String, u64>,
    /// Scanned sites per (outcome, reason kind).
    reason_kinds: BTreeMap<(String, String), u64>,
    /// Scanned sites per surface signal, and per (first look's outcome, outcome).
    surface_signals: BTreeMap<String, u64>,
    second_looks: BTreeMap<(String, String), u64>,
    /// Scanned sites, surface, endpoints and passing per exclusive rank slot.
    rank_slots: [RankBucket; RANK_BUCKETS.len() + 2],
    /// The readiness level's counts per exclusive rank slot.
    readiness: crate::readiness::ReadinessSlots,
    tool_counts: Vec<u32>,
    tool_names: HashMap<String, u64>,
    findings: BTreeMap<(String, String), u64>,
    domains: HashMap<String, u64>,
    ips: HashMap<String, u64>,
    platforms: HashMap<String, PlatformAcc>,
    /// Scanned sites, endpoints and passing sites per top-level domain.
    tlds: HashMap<String, (u64, u64, u64)>,
    /// The registry section.
    registry: crate::registry::RegistryAcc,
    /// The capability mix's tagged sites.
    capabilities: crate::capabilities::CapabilityAcc,
}

/// Endpoint records that join a platform: a server name or a tool list to fingerprint.
pub fn is_platform_candidate(r: &Record) -> bool {
    r.server_name.is_some() || !r.tool_names.is_empty()
}

/// The top-level domain a host is counted under: its last label.
pub fn tld(host: &str) -> &str {
    host.rsplit('.').next().unwrap_or(host)
}

fn bump(map: &mut BTreeMap<String, u64>, key: &str) {
    *map.entry(key.to_owned()).or_default() += 1;
}

impl Aggregator {
    pub fn new(run_id: &str, settings: ReportSettings) -> Aggregator {
        Aggregator {
            settings,
            run_id: run_id.to_owned(),
            ..Aggregator::default()
        }
    }

    pub fn add(&mut self, r: &Record) {
        let rep = &mut self.report;
        rep.sites_read += 1;
        self.registry.add(r);
        bump(&mut self.outcomes, r.outcome.as_str());
        crate::readiness::count_record(&mut self.readiness, r);
        self.capabilities.add(r);
        if !scanned(r.outcome) {
            return;
        }
        rep.sites_scanned += 1;
        if r.outcome != Outcome::Unreachable {
            rep.sites_reachable += 1;
        }
        rep.defects += u64::from(r.defect);
        if let Some(kind) = r.reason_kind {
            let key = (r.outcome.as_str().to_owned(), kind.as_str().to_owned());
            *self.reason_kinds.entry(key).or_default() += 1;
        }
        if let Some(kind) = mcpcensus_store::robots_kept_out(r) {
            bump(&mut rep.robots_kept_out, kind);
        }
        if let Some(reading) = mcpcensus_store::not_now_reading(r) {
            bump(&mut rep.not_now_readings, reading);
        }
        if r.surface {
            rep.sites_with_surface += 1;
            bump(&mut self.outcomes_surface, r.outcome.as_str());
        }
        for signal in &r.surface_signals {
            bump(&mut self.surface_signals, signal.as_str());
        }
        if let Some(first) = &r.first_look {
            let key = (
                first.outcome.as_str().to_owned(),
                r.outcome.as_str().to_owned(),
            );
            *self.second_looks.entry(key).or_default() += 1;
        }
        if let Some(moved) = mcpcensus_store::origin_move(r) {
            bump(&mut rep.measured_elsewhere, moved.as_str());
        }
        let (parsed, soft) = mcpcensus_store::document_kinds(r);
        for (kinds, is_soft) in [(parsed, false), (soft, true)] {
            for kind in kinds {
                let entry = rep.documents.entry(kind).or_default();
                if is_soft {
                    entry.soft_404 += 1;
                } else {
                    entry.parsed += 1;
                }
            }
        }
        if let Some(source) = r.discovery_source {
            rep.sites_with_discovery_document += 1;
            bump(&mut rep.discovery_sources, source.as_str());
        }
        for feature in &r.deprecated_features {
            bump(&mut rep.deprecated_features, feature.as_str());
        }
        let pass = r.outcome == Outcome::Pass;
        let slot = &mut self.rank_slots[rank_slot(r.rank.map(u64::from))];
        slot.scanned += 1;
        slot.surface += u64::from(r.surface);
        slot.endpoints += u64::from(r.endpoint.is_some());
        slot.passing += u64::from(r.endpoint.is_some() && pass);
        if let Some(host) = &r.host {
            let t = self.tlds.entry(tld(host).to_owned()).or_default();
            t.0 += 1;
            t.1 += u64::from(r.endpoint.is_some());
            t.2 += u64::from(r.endpoint.is_some() && pass);
        }
        for (map, value) in [
            (&mut rep.protocol_versions, r.protocol_version.as_deref()),
            (&mut rep.transports, r.transport.map(|t| t.as_str())),
            (
                &mut rep.auth_kinds,
                r.auth.as_ref().map(|a| a.kind.as_str()),
            ),
            (&mut rep.spec_versions, r.spec_version.as_deref()),
            (
                &mut rep.migration_status,
                r.migration_status.map(|m| m.as_str()),
            ),
        ] {
            if let Some(v) = value {
                bump(map, v);
            }
        }
        for f in &r.findings {
            *self
                .findings
                .entry((f.rule_id.clone(), f.severity.as_str().to_owned()))
                .or_default() += 1;
        }
        for t in &r.tools {
            if let Some(g) = &t.grade {
                bump(&mut rep.grades, g);
            }
        }
        if let Some(n) = r.tool_count.filter(|&n| n > 0) {
            self.tool_counts.push(n);
            for name in &r.tool_names {
                *self.tool_names.entry(name.clone()).or_default() += 1;
            }
        }
        if r.endpoint.is_none() {
            return;
        }
        rep.endpoints += 1;
        rep.adoption.passing += u64::from(pass);
        if let Some(via) = r.discovered_via {
            bump(&mut rep.endpoints_by_method, via.as_str());
        }
        if let Some(d) = &r.registrable_domain {
            *self.domains.entry(d.clone()).or_default() += 1;
        }
        if let Some(ip) = r.addresses.first() {
            *self.ips.entry(ip.clone()).or_default() += 1;
        }
        if is_platform_candidate(r) {
            let acc = self.platforms.entry(server_fingerprint(r)).or_default();
            acc.server_name.clone_from(&r.server_name);
            acc.server_version.clone_from(&r.server_version);
            acc.tool_count = u64::from(r.tool_count.unwrap_or(0));
            acc.sites += 1;
            acc.passing += u64::from(pass);
        }
    }

    pub fn finish(mut self) -> RunReport {
        let n = self.settings.top_n;
        let mut rep = std::mem::take(&mut self.report);
        rep.run_id = self.run_id;
        rep.measured_outcomes = shares(&measured_outcomes(&self.outcomes), rep.sites_scanned);
        rep.outcomes = shares(&self.outcomes, rep.sites_read);
        rep.outcomes_no_answer_not_measured =
            shares(&no_answer_not_measured(&self.outcomes), rep.sites_read);
        rep.outcomes_surface = shares(&self.outcomes_surface, rep.sites_with_surface);
        rep.set_reason_kinds(std::mem::take(&mut self.reason_kinds));
        rep.set_rank_buckets(&self.rank_slots);
        rep.surface_signals = shares(&self.surface_signals, rep.sites_scanned);
        rep.second_look = SecondLookCounts::from_pairs(std::mem::take(&mut self.second_looks));
        rep.readiness = crate::readiness::ReadinessReport::build(&self.readiness);
        rep.registry = std::mem::take(&mut self.registry).finish(n);
        let capabilities = std::mem::take(&mut self.capabilities);
        rep.tool_capabilities = capabilities.finish(self.settings.platform_min_sites, n);
        rep.tool_counts = tool_counts(&mut self.tool_counts);
        rep.top_tool_names = top(self.tool_names, n);
        rep.top_domains = top(self.domains, n);
        rep.top_ips = top(self.ips, n);
        rep.findings = self
            .findings
            .into_iter()
            .map(|((rule_id, severity), count)| FindingCount {
                rule_id,
                severity,
                count,
                title: None,
            })
            .collect();
        let min = self.settings.platform_min_sites;
        let mut platforms: Vec<(String, PlatformAcc)> = self
            .platforms
            .into_iter()
            .filter(|(_, p)| p.sites >= min)
            .collect();
        platforms.sort_by(|a, b| b.1.sites.cmp(&a.1.sites).then_with(|| a.0.cmp(&b.0)));
        rep.adoption = Adoption::counted(
            rep.endpoints,
            rep.adoption.passing,
            platforms.iter().map(|(_, p)| (p.sites, p.passing)),
        );
        rep.adoption_by_tld = top_tlds(self.tlds, n);
        rep.platforms = platforms
            .into_iter()
            .map(|(fingerprint, p)| Platform {
                fingerprint,
                server_name: p.server_name,
                server_version: p.server_version,
                tool_count: p.tool_count,
                sites: p.sites,
            })
            .collect();
        rep
    }
}

/// Lower median and nearest-rank 90th percentile, so SQL can compute the same.
fn tool_counts(counts: &mut [u32]) -> ToolCounts {
    let mut buckets: BTreeMap<String, u64> = TOOL_COUNT_BUCKETS
        .iter()
        .map(|(label, _, _)| (label.to_string(), 0))
        .collect();
    if counts.is_empty() {
        return ToolCounts {
            buckets,
            ..ToolCounts::default()
        };
    }
    counts.sort_unstable();
    for bucket in counts.iter().filter_map(|&c| tool_count_bucket(c)) {
        *buckets.entry(bucket.to_owned()).or_default() += 1;
    }
    let len = counts.len();
    let p90 = (len * 9).div_ceil(10).max(1) - 1;
    ToolCounts {
        servers: len as u64,
        min: u64::from(counts[0]),
        median: u64::from(counts[(len - 1) / 2]),
        p90: u64::from(counts[p90]),
        max: u64::from(counts[len - 1]),
        buckets,
    }
}

/// The `n` most frequent, ties by name.
fn top(map: HashMap<String, u64>, n: usize) -> Vec<Ranked> {
    let mut v: Vec<Ranked> = map
        .into_iter()
        .map(|(name, count)| Ranked { name, count })
        .collect();
    v.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.name.cmp(&b.name)));
    v.truncate(n);
    v
}

/// The `n` top-level domains with the most endpoints, then the most scanned sites, then by name.
fn top_tlds(map: HashMap<String, (u64, u64, u64)>, n: usize) -> Vec<TldAdoption> {
    let mut v: Vec<TldAdoption> = map
        .into_iter()
        .map(|(tld, (scanned, endpoints, passing))| TldAdoption {
            tld,
            scanned,
            endpoints,
            passing,
        })
        .collect();
    v.sort_by(|a, b| {
        (b.endpoints, b.scanned)
            .cmp(&(a.endpoints, a.scanned))
            .then_with(|| a.tld.cmp(&b.tld))
    });
    v.truncate(n);
    v
}
