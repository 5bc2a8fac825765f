//! The capability mix (docs/report.md, `run.tool_capabilities`): over the scanned servers whose
//! tools were tagged (every tool list the census reads is read without a credential), the
//! servers and tools per tag, with every site counted and with each platform counted once, by
//! rank bucket; and the servers with a toxic flow. Both back ends count the same exclusive rank
//! slots ([`CapabilitySlots`]); [`ToolCapabilityReport::build`] makes the report's rows.

use std::collections::{BTreeSet, HashMap};

use mcpcensus_store::{scanned, server_fingerprint, Record, ToolCapability};
use serde::{Deserialize, Serialize};

use crate::model::{rank_slot, Share, ALL_RANKED, RANK_BUCKETS, UNRANKED};

/// The exclusive rank slots ([`rank_slot`]).
pub const SLOTS: usize = RANK_BUCKETS.len() + 2;
/// The toxic-flow finding's rule.
pub const TOXIC_FLOW_RULE: &str = "MCP-TOOLS-001";
/// The columns counted per slot: every tagged tool, each tag, the toxic flows.
const COLUMNS: usize = ToolCapability::ALL.len() + 2;
/// Their names in the SQL's answer (`*` every tool, then the tags, then `toxic_flow`).
pub const ALL_TOOLS: &str = "*";
pub const TOXIC_FLOW: &str = "toxic_flow";

/// One column's counts in one slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MixCounts {
    /// Sites with at least one such tool (every site counted), and those counting once.
    pub servers: u64,
    pub servers_once: u64,
    /// Such tools over those sites, and over the sites counting once.
    pub tools: u64,
    pub tools_once: u64,
}

impl MixCounts {
    fn add(&mut self, other: &MixCounts) {
        self.servers += other.servers;
        self.servers_once += other.servers_once;
        self.tools += other.tools;
        self.tools_once += other.tools_once;
    }
}

pub type SlotCounts = [MixCounts; COLUMNS];
pub type CapabilitySlots = [SlotCounts; SLOTS];

/// The column index of a name in the SQL's answer.
pub fn column_of(name: &str) -> Option<usize> {
    match name {
        ALL_TOOLS => Some(0),
        TOXIC_FLOW => Some(COLUMNS - 1),
        tag => ToolCapability::ALL
            .iter()
            .position(|t| t.as_str() == tag)
            .map(|at| at + 1),
    }
}

/// One tagged site, kept until the platforms are known.
#[derive(Debug)]
struct Site {
    key: String,
    fingerprint: String,
    slot: usize,
    counts: [u32; COLUMNS],
    flow: Option<String>,
}

/// Collects the tagged sites of a run (one pass), then counts them.
#[derive(Debug, Default)]
pub struct CapabilityAcc {
    sites: Vec<Site>,
    versions: BTreeSet<String>,
}

impl CapabilityAcc {
    pub fn add(&mut self, r: &Record) {
        let (Some(counts), Some(version)) = (&r.tool_capabilities, &r.capabilities_version) else {
            return;
        };
        if !scanned(r.outcome) {
            return;
        }
        self.versions.insert(version.clone());
        let flow = r.findings.iter().find(|f| f.rule_id == TOXIC_FLOW_RULE);
        let mut columns = [0u32; COLUMNS];
        columns[0] = counts.tools;
        for (at, tag) in ToolCapability::ALL.iter().enumerate() {
            columns[at + 1] = counts.get(*tag);
        }
        columns[COLUMNS - 1] = u32::from(flow.is_some());
        self.sites.push(Site {
            key: mcpcensus_store::clickhouse::site_key(r),
            fingerprint: server_fingerprint(r),
            slot: rank_slot(r.rank.map(u64::from)),
            counts: columns,
            flow: flow.map(|f| f.evidence.clone()),
        });
    }

    /// The section: `None` when no scanned site's tools were tagged.
    pub fn finish(self, platform_min_sites: u64, top_n: usize) -> Option<ToolCapabilityReport> {
        // A platform counts once, through its first site by key.
        let mut platforms: HashMap<&str, (u64, &str)> = HashMap::new();
        for s in &self.sites {
            let entry = platforms.entry(&s.fingerprint).or_insert((0, &s.key));
            entry.0 += 1;
            if s.key.as_str() < entry.1 {
                entry.1 = &s.key;
            }
        }
        let mut slots = CapabilitySlots::default();
        for s in &self.sites {
            let (sites, first) = platforms[s.fingerprint.as_str()];
            let once = sites < platform_min_sites || first == s.key;
            for (c, &n) in slots[s.slot].iter_mut().zip(&s.counts) {
                let n = u64::from(n);
                c.servers += u64::from(n > 0);
                c.servers_once += u64::from(n > 0 && once);
                c.tools += n;
                c.tools_once += if once { n } else { 0 };
            }
        }
        let mut flows: Vec<ToxicFlowSite> = self
            .sites
            .into_iter()
            .filter_map(|s| {
                s.flow.map(|evidence| ToxicFlowSite {
                    origin: s.key,
                    evidence,
                })
            })
            .collect();
        flows.sort_by(|a, b| (&a.origin, &a.evidence).cmp(&(&b.origin, &b.evidence)));
        flows.truncate(top_n);
        ToolCapabilityReport::build(&slots, self.versions.into_iter().collect(), flows)
    }
}

/// The report's capability section; absent when no scanned site's tools were tagged.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolCapabilityReport {
    /// The capability table versions the run's tools were tagged with (docs/rules.md).
    pub capabilities_versions: Vec<String>,
    /// Every tagged server.
    pub all: MixRow,
    /// The same per rank bucket (cumulative top N, every ranked site, the unranked); empty
    /// when no tagged site has a rank.
    #[serde(default)]
    pub by_rank: Vec<MixRankRow>,
    /// The first servers with a toxic flow, by origin (at most the report's top N).
    pub toxic_flow_servers: Vec<ToxicFlowSite>,
}

/// The mix over one population of servers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MixRow {
    /// Servers whose tools were tagged, and the tools: every site counted, platforms once.
    pub servers: u64,
    pub servers_platforms_once: u64,
    pub tools: u64,
    pub tools_platforms_once: u64,
    /// Servers with a toxic flow (MCP-TOOLS-001).
    pub toxic_flow: Share,
    pub toxic_flow_platforms_once: Share,
    /// One row per tag, in the record's order.
    pub tags: Vec<TagRow>,
}

/// One tag over a population: servers with at least one such tool (share of the servers)
/// and such tools (share of the tools), every site counted and platforms once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TagRow {
    pub tag: String,
    pub servers: Share,
    pub servers_platforms_once: Share,
    pub tools: Share,
    pub tools_platforms_once: Share,
}

/// The mix in one rank bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MixRankRow {
    pub bucket: String,
    /// The bucket's largest rank (`None`: every ranked site, or the unranked ones).
    pub max_rank: Option<u64>,
    #[serde(flatten)]
    pub mix: MixRow,
}

/// A server with a toxic flow and the finding's evidence (the pair of tools).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToxicFlowSite {
    pub origin: String,
    pub evidence: String,
}

fn mix(slot: &SlotCounts) -> MixRow {
    let all = slot[0];
    let flow = slot[COLUMNS - 1];
    let tags = ToolCapability::ALL
        .iter()
        .zip(&slot[1..COLUMNS - 1])
        .map(|(tag, c)| TagRow {
            tag: tag.as_str().to_owned(),
            servers: Share::of(c.servers, all.servers),
            servers_platforms_once: Share::of(c.servers_once, all.servers_once),
            tools: Share::of(c.tools, all.tools),
            tools_platforms_once: Share::of(c.tools_once, all.tools_once),
        })
        .collect();
    MixRow {
        servers: all.servers,
        servers_platforms_once: all.servers_once,
        tools: all.tools,
        tools_platforms_once: all.tools_once,
        toxic_flow: Share::of(flow.servers, all.servers),
        toxic_flow_platforms_once: Share::of(flow.servers_once, all.servers_once),
        tags,
    }
}

fn add(into: &mut SlotCounts, slot: &SlotCounts) {
    for (mine, theirs) in into.iter_mut().zip(slot) {
        mine.add(theirs);
    }
}

impl ToolCapabilityReport {
    /// From the exclusive slots: `None` when no server's tools were tagged.
    pub fn build(
        slots: &CapabilitySlots,
        capabilities_versions: Vec<String>,
        toxic_flow_servers: Vec<ToxicFlowSite>,
    ) -> Option<ToolCapabilityReport> {
        let mut all = SlotCounts::default();
        for slot in slots {
            add(&mut all, slot);
        }
        if all[0].servers == 0 {
            return None;
        }
        Some(ToolCapabilityReport {
            capabilities_versions,
            all: mix(&all),
            by_rank: by_rank(slots),
            toxic_flow_servers,
        })
    }
}

fn by_rank(slots: &CapabilitySlots) -> Vec<MixRankRow> {
    let ranked = &slots[..=RANK_BUCKETS.len()];
    if ranked.iter().all(|s| s[0].servers == 0) {
        return Vec::new();
    }
    let row = |bucket: &str, max_rank: Option<u64>, slot: &SlotCounts| MixRankRow {
        bucket: bucket.to_owned(),
        max_rank,
        mix: mix(slot),
    };
    let mut out = Vec::new();
    let mut running = SlotCounts::default();
    for ((name, top), slot) in RANK_BUCKETS.iter().zip(ranked) {
        add(&mut running, slot);
        out.push(row(name, Some(*top), &running));
    }
    add(&mut running, &ranked[RANK_BUCKETS.len()]);
    out.push(row(ALL_RANKED, None, &running));
    out.push(row(UNRANKED, None, &slots[RANK_BUCKETS.len() + 1]));
    out
}
