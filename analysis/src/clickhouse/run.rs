//! One run's report from ClickHouse: independent queries sent together (the server works on
//! them in parallel), each answer turned into its part of the [`RunReport`].

use std::collections::BTreeMap;

use clickhouse::Client;

use super::query::{all, one};
use super::rows::*;
use super::sql;
use crate::aggregate::ReportSettings;
use crate::error::AnalysisError;
use crate::model::*;

/// The record fields counted per value, with the filter each needs.
const FIELDS: [(&str, &str); 9] = [
    ("protocol_version", "1"),
    ("transport", "1"),
    ("auth_kind", "1"),
    ("spec_version", "1"),
    ("migration_status", "1"),
    ("discovered_via", "isNotNull(endpoint)"),
    ("discovery_source", "1"),
    ("origin_move", "1"),
    ("outcome", "surface = 1"),
];

type Counts = BTreeMap<String, u64>;

pub async fn run_report(
    c: &Client,
    run_id: &str,
    settings: ReportSettings,
) -> Result<RunReport, AnalysisError> {
    let top_n = settings.top_n as u64;
    let (totals, outcomes, documents, fields, tools, top_tool_names, top_domains, top_ips) = tokio::try_join!(
        one::<TotalsRow>(sql::query(c, sql::RUN_TOTALS).bind(run_id), "run_totals"),
        all::<OutcomeRow>(sql::query(c, sql::OUTCOMES).bind(run_id), "outcomes"),
        all::<EntryRow>(sql::query(c, sql::DOCUMENTS).bind(run_id), "documents"),
        field_counts(c, run_id),
        one::<ToolCountsRow>(sql::query(c, sql::TOOL_COUNTS).bind(run_id), "tool_counts"),
        top(c, sql::TOP_TOOL_NAMES, "top_tool_names", run_id, top_n),
        top(c, sql::TOP_DOMAINS, "top_domains", run_id, top_n),
        top(c, sql::TOP_IPS, "top_ips", run_id, top_n),
    )?;
    let (findings, grades, platforms, deprecated, tlds, reason_kinds, rank_slots, readiness) = tokio::try_join!(
        all::<FindingRow>(
            sql::query(c, sql::FINDINGS).bind(run_id).bind(run_id),
            "findings"
        ),
        all::<GradeRow>(
            sql::query(c, sql::GRADES).bind(run_id).bind(run_id),
            "grades"
        ),
        all::<PlatformRow>(
            sql::query(c, sql::PLATFORMS)
                .bind(run_id)
                .bind(settings.platform_min_sites),
            "platforms"
        ),
        all::<ValueRow>(
            sql::query(c, sql::DEPRECATED_FEATURES).bind(run_id),
            "deprecated_features"
        ),
        all::<TldRow>(
            sql::query(c, sql::ADOPTION_BY_TLD).bind(run_id).bind(top_n),
            "adoption_by_tld"
        ),
        all::<ReasonKindRow>(
            sql::query(c, sql::REASON_KINDS).bind(run_id),
            "reason_kinds"
        ),
        all::<RankSlotRow>(sql::query(c, sql::RANK_SLOTS).bind(run_id), "rank_slots"),
        all::<ReadinessRow>(sql::query(c, sql::READINESS).bind(run_id), "readiness"),
    )?;
    let outcomes: Counts = outcomes.into_iter().map(|o| (o.outcome, o.sites)).collect();
    let mut rep = RunReport {
        run_id: run_id.to_owned(),
        sites_read: totals.sites_read,
        sites_scanned: totals.sites_scanned,
        sites_reachable: totals.sites_reachable,
        sites_with_discovery_document: totals.sites_with_discovery_document,
        endpoints: totals.endpoints,
        defects: totals.defects,
        measured_outcomes: shares(&measured_outcomes(&outcomes), totals.sites_scanned),
        outcomes: shares(&outcomes, totals.sites_read),
        outcomes_no_answer_not_measured: shares(
            &no_answer_not_measured(&outcomes),
            totals.sites_read,
        ),
        documents: document_counts(documents),
        tool_counts: tool_counts(tools),
        top_tool_names,
        top_domains,
        top_ips,
        findings: findings.into_iter().map(finding).collect(),
        grades: grades.into_iter().map(|g| (g.letter, g.tools)).collect(),
        adoption: Adoption::counted(
            totals.endpoints,
            totals.passing,
            platforms.iter().map(|p| (p.sites, p.passing)),
        ),
        platforms: platforms.into_iter().map(platform).collect(),
        deprecated_features: deprecated.into_iter().map(|v| (v.value, v.sites)).collect(),
        adoption_by_tld: tlds.into_iter().map(tld).collect(),
        ..RunReport::default()
    };
    let surface_outcomes;
    (
        rep.protocol_versions,
        rep.transports,
        rep.auth_kinds,
        rep.spec_versions,
        rep.migration_status,
        rep.endpoints_by_method,
        rep.discovery_sources,
        rep.measured_elsewhere,
        surface_outcomes,
    ) = fields;
    rep.set_reason_kinds(
        reason_kinds
            .into_iter()
            .map(|r| ((r.outcome, r.kind), r.sites))
            .collect(),
    );
    let mut slots: [RankBucket; RANK_BUCKETS.len() + 2] = Default::default();
    for row in rank_slots {
        if let Some(slot) = slots.get_mut(usize::from(row.slot)) {
            *slot = RankBucket {
                scanned: row.scanned,
                surface: row.surface,
                endpoints: row.endpoints,
                passing: row.passing,
                ..RankBucket::default()
            };
        }
    }
    rep.set_rank_buckets(&slots);
    rep.readiness = readiness_report(readiness);
    rep.tool_capabilities = capability_report(c, run_id, settings).await?;
    rep.registry = registry(c, run_id, top_n).await?;
    rep.sites_with_surface = surface_outcomes.values().sum();
    rep.outcomes_surface = shares(&surface_outcomes, rep.sites_with_surface);
    let (signals, looks, not_now) = tokio::try_join!(
        all::<ValueRow>(
            sql::query(c, sql::SURFACE_SIGNALS).bind(run_id),
            "surface_signals"
        ),
        all::<LookRow>(
            sql::query(c, sql::SECOND_LOOKS).bind(run_id),
            "second_looks"
        ),
        all::<NotNowRow>(
            sql::query(c, sql::NOT_NOW).bind(run_id).bind(run_id),
            "not_now"
        ),
    )?;
    for row in not_now {
        let map = if row.figure == "robots_kept_out" {
            &mut rep.robots_kept_out
        } else {
            &mut rep.not_now_readings
        };
        map.insert(row.key, row.sites);
    }
    let signals: Counts = signals.into_iter().map(|v| (v.value, v.sites)).collect();
    rep.surface_signals = shares(&signals, rep.sites_scanned);
    rep.second_look = SecondLookCounts::from_pairs(
        looks
            .into_iter()
            .map(|l| ((l.first, l.second), l.sites))
            .collect(),
    );
    Ok(rep)
}

/// The registry section: each entry classed by the server and counted here as the embedded
/// report counts it (by entry and by URL), then the overlap the server computes.
async fn registry(c: &Client, run_id: &str, top_n: u64) -> Result<RegistryReport, AnalysisError> {
    use crate::registry::{EntryRow, RegistryAcc};
    use mcpcensus_store::RegistryClass;
    // Both always run (the overlap's cost is one scan of the run's endpoints), so every
    // query the report has is run, and compared across server versions, on any run.
    let (entries, overlap) = tokio::try_join!(
        all::<RegistryClassRow>(
            sql::query(c, sql::REGISTRY_CLASSES).bind(run_id),
            "registry_classes",
        ),
        all::<RegistryOverlapRow>(
            sql::query(c, sql::REGISTRY_OVERLAP)
                .bind(top_n)
                .bind(run_id),
            "registry_overlap",
        ),
    )?;
    let mut acc = RegistryAcc::default();
    for row in entries {
        acc.add_entry(EntryRow {
            class: RegistryClass::ALL
                .iter()
                .copied()
                .find(|k| k.as_str() == row.class),
            key: Some(row.key).filter(|k| !k.is_empty()),
            initialized_400: row.initialized_400 != 0,
            signin_redirect: row.signin_redirect != 0,
        });
    }
    let mut rep = acc.finish(usize::try_from(top_n).unwrap_or(usize::MAX));
    if rep.is_empty() {
        return Ok(rep);
    }
    for (count, origins) in [
        (&mut rep.web_and_registry, &mut rep.web_and_registry_origins),
        (&mut rep.web_only, &mut rep.web_only_origins),
        (&mut rep.registry_only, &mut rep.registry_only_origins),
    ] {
        *count = 0;
        origins.clear();
    }
    for row in overlap {
        let (count, origins) = match row.set.as_str() {
            "web_and_registry" => (&mut rep.web_and_registry, &mut rep.web_and_registry_origins),
            "web_only" => (&mut rep.web_only, &mut rep.web_only_origins),
            _ => (&mut rep.registry_only, &mut rep.registry_only_origins),
        };
        *count = row.endpoints;
        *origins = row.origins;
    }
    Ok(rep)
}

/// Rows are `p:<kind>` (parsed) or `s:<kind>` (soft 404).
fn document_counts(rows: Vec<EntryRow>) -> BTreeMap<String, DocumentCounts> {
    let mut documents: BTreeMap<String, DocumentCounts> = BTreeMap::new();
    for d in rows {
        let Some((tag, kind)) = d.entry.split_once(':') else {
            continue;
        };
        let entry = documents.entry(kind.to_owned()).or_default();
        if tag == "s" {
            entry.soft_404 = d.sites;
        } else {
            entry.parsed = d.sites;
        }
    }
    documents
}

fn tool_counts(tc: ToolCountsRow) -> ToolCounts {
    // The server answers one count per bucket, in the buckets' order.
    let buckets = TOOL_COUNT_BUCKETS
        .iter()
        .enumerate()
        .map(|(i, (label, _, _))| (label.to_string(), tc.buckets.get(i).copied().unwrap_or(0)))
        .collect();
    if tc.servers == 0 {
        return ToolCounts {
            buckets,
            ..ToolCounts::default()
        };
    }
    ToolCounts {
        servers: tc.servers,
        min: tc.min,
        median: tc.median,
        p90: tc.p90,
        max: tc.max,
        buckets,
    }
}

fn finding(f: FindingRow) -> FindingCount {
    FindingCount {
        rule_id: f.rule_id,
        severity: f.severity,
        count: f.findings,
        title: None,
    }
}

fn platform(p: PlatformRow) -> Platform {
    Platform {
        fingerprint: p.server_fingerprint,
        server_name: (p.name_missing == 0).then_some(p.name),
        server_version: (p.version_missing == 0).then_some(p.version),
        tool_count: p.tool_count,
        sites: p.sites,
    }
}

fn tld(t: TldRow) -> TldAdoption {
    TldAdoption {
        tld: t.tld,
        scanned: t.scanned,
        endpoints: t.endpoints,
        passing: t.passing,
    }
}

/// Every field of `FIELDS`, in order.
async fn field_counts(
    c: &Client,
    run_id: &str,
) -> Result<
    (
        Counts,
        Counts,
        Counts,
        Counts,
        Counts,
        Counts,
        Counts,
        Counts,
        Counts,
    ),
    AnalysisError,
> {
    tokio::try_join!(
        field(c, run_id, FIELDS[0]),
        field(c, run_id, FIELDS[1]),
        field(c, run_id, FIELDS[2]),
        field(c, run_id, FIELDS[3]),
        field(c, run_id, FIELDS[4]),
        field(c, run_id, FIELDS[5]),
        field(c, run_id, FIELDS[6]),
        field(c, run_id, FIELDS[7]),
        field(c, run_id, FIELDS[8]),
    )
}

/// Scanned sites per value of one field.
async fn field(
    c: &Client,
    run_id: &str,
    (name, filter): (&str, &str),
) -> Result<Counts, AnalysisError> {
    let query = sql::FIELD_COUNTS
        .replace("{field}", name)
        .replace("{filter}", filter);
    let rows: Vec<ValueRow> = all(sql::query(c, &query).bind(run_id), name).await?;
    Ok(rows.into_iter().map(|v| (v.value, v.sites)).collect())
}

async fn top(
    c: &Client,
    query: &str,
    name: &str,
    run_id: &str,
    n: u64,
) -> Result<Vec<Ranked>, AnalysisError> {
    let rows: Vec<NameRow> = all(sql::query(c, query).bind(run_id).bind(n), name).await?;
    Ok(rows
        .into_iter()
        .map(|r| Ranked {
            name: r.name,
            count: r.sites,
        })
        .collect())
}

/// The readiness section from its rows (one per slot and check; a check id this build does
/// not know is skipped).
fn readiness_report(rows: Vec<ReadinessRow>) -> Option<crate::readiness::ReadinessReport> {
    use crate::readiness::{CheckCounts, ReadinessReport, ReadinessSlots};
    use mcpcensus_store::ReadinessCheck;
    let mut slots = ReadinessSlots::default();
    for row in rows {
        let (Some(slot), Some(at)) = (
            slots.get_mut(usize::from(row.slot)),
            ReadinessCheck::ALL
                .iter()
                .position(|c| c.as_str() == row.check_id),
        ) else {
            continue;
        };
        // Every check's row of a slot carries the slot's sites and catch-alls.
        slot.sites = row.sites;
        slot.catch_all = row.catch_all;
        slot.checks[at] = CheckCounts {
            checked: row.checked,
            present: row.present,
            naive_only: row.naive_only,
        };
    }
    ReadinessReport::build(&slots)
}

/// The capability mix from its rows (one per slot and column; a tag this build does not know
/// is skipped), the first toxic flows and the table versions.
async fn capability_report(
    c: &Client,
    run_id: &str,
    settings: ReportSettings,
) -> Result<Option<crate::capabilities::ToolCapabilityReport>, AnalysisError> {
    use crate::capabilities::{
        column_of, CapabilitySlots, MixCounts, ToolCapabilityReport, ToxicFlowSite,
    };
    let (rows, flows, versions) = tokio::try_join!(
        all::<CapabilityRow>(
            sql::query(c, sql::TOOL_CAPABILITIES)
                .bind(run_id)
                .bind(settings.platform_min_sites)
                .bind(run_id)
                .bind(run_id),
            "tool_capabilities"
        ),
        all::<ToxicFlowRow>(
            sql::query(c, sql::TOXIC_FLOWS)
                .bind(run_id)
                .bind(settings.top_n as u64),
            "toxic_flows"
        ),
        all::<ValueOnlyRow>(
            sql::query(c, sql::TOOL_CAPABILITY_VERSIONS).bind(run_id),
            "tool_capability_versions"
        ),
    )?;
    let mut slots = CapabilitySlots::default();
    for row in rows {
        let (Some(slot), Some(at)) = (slots.get_mut(usize::from(row.slot)), column_of(&row.tag))
        else {
            continue;
        };
        slot[at] = MixCounts {
            servers: row.servers,
            servers_once: row.servers_once,
            tools: row.tools,
            tools_once: row.tools_once,
        };
    }
    let flows = flows
        .into_iter()
        .map(|f| ToxicFlowSite {
            origin: f.origin,
            evidence: f.evidence,
        })
        .collect();
    let versions = versions.into_iter().map(|v| v.value).collect();
    Ok(ToolCapabilityReport::build(&slots, versions, flows))
}
