//! The report from ClickHouse: the same [`Report`] as [`crate::build`], with every count
//! computed by the server (configs/clickhouse/queries/, valid on 18.16 and modern servers).
//! What comes back is counts, top lists and platforms, never the rows themselves;
//! percentages and the adoption arithmetic are done here from the counts, like the embedded
//! path, so both agree to the last digit.

use std::collections::BTreeMap;

use clickhouse::{Client, Row};
use mcpcensus_store::clickhouse::Connection;
use serde::Deserialize;

use crate::aggregate::ReportSettings;
use crate::error::AnalysisError;
use crate::model::*;

/// The SQL files, by name (configs/clickhouse/queries/).
pub mod sql {
    pub const LATEST_RUN: &str = include_str!("../../configs/clickhouse/queries/latest_run.sql");
    pub const RUN_TOTALS: &str = include_str!("../../configs/clickhouse/queries/run_totals.sql");
    pub const OUTCOMES: &str = include_str!("../../configs/clickhouse/queries/outcomes.sql");
    pub const DOCUMENTS: &str = include_str!("../../configs/clickhouse/queries/documents.sql");
    pub const FIELD_COUNTS: &str =
        include_str!("../../configs/clickhouse/queries/field_counts.sql");
    pub const TOOL_COUNTS: &str = include_str!("../../configs/clickhouse/queries/tool_counts.sql");
    pub const TOP_TOOL_NAMES: &str =
        include_str!("../../configs/clickhouse/queries/top_tool_names.sql");
    pub const TOP_DOMAINS: &str = include_str!("../../configs/clickhouse/queries/top_domains.sql");
    pub const TOP_IPS: &str = include_str!("../../configs/clickhouse/queries/top_ips.sql");
    pub const FINDINGS: &str = include_str!("../../configs/clickhouse/queries/findings.sql");
    pub const GRADES: &str = include_str!("../../configs/clickhouse/queries/grades.sql");
    pub const PLATFORMS: &str = include_str!("../../configs/clickhouse/queries/platforms.sql");
    pub const COMPARE_SITES: &str =
        include_str!("../../configs/clickhouse/queries/compare_sites.sql");
    pub const COMPARE: &str = include_str!("../../configs/clickhouse/queries/compare.sql");
    pub const TRANSITIONS: &str = include_str!("../../configs/clickhouse/queries/transitions.sql");
    pub const HISTORY: &str = include_str!("../../configs/clickhouse/queries/history.sql");
    /// Analysts' questions (not run by the report).
    pub const ANALYST_ADOPTION_BY_TLD: &str =
        include_str!("../../configs/clickhouse/queries/analyst_adoption_by_tld.sql");
    pub const ANALYST_TOOL_COUNT_DISTRIBUTION: &str =
        include_str!("../../configs/clickhouse/queries/analyst_tool_count_distribution.sql");
    pub const ANALYST_AUTH_KINDS_OVER_TIME: &str =
        include_str!("../../configs/clickhouse/queries/analyst_auth_kinds_over_time.sql");
}

/// The record fields counted per value, with the filter each needs.
const FIELDS: [(&str, &str); 8] = [
    ("protocol_version", "1"),
    ("transport", "1"),
    ("auth_kind", "1"),
    ("spec_version", "1"),
    ("migration_status", "1"),
    ("discovered_via", "isNotNull(endpoint)"),
    ("origin_move", "1"),
    ("outcome", "surface = 1"),
];

fn err(query: &str) -> impl FnOnce(clickhouse::error::Error) -> AnalysisError + '_ {
    move |source| AnalysisError::ClickHouse {
        query: query.to_owned(),
        source,
    }
}

#[derive(Debug, Row, Deserialize)]
struct LatestRow {
    run_id: String,
}

#[derive(Debug, Row, Deserialize)]
struct TotalsRow {
    sites_read: u64,
    sites_scanned: u64,
    sites_reachable: u64,
    defects: u64,
    sites_with_discovery_document: u64,
    endpoints: u64,
    passing: u64,
}

#[derive(Debug, Row, Deserialize)]
struct OutcomeRow {
    outcome: String,
    sites: u64,
}

#[derive(Debug, Row, Deserialize)]
struct EntryRow {
    entry: String,
    sites: u64,
}

#[derive(Debug, Row, Deserialize)]
struct ValueRow {
    value: String,
    sites: u64,
}

#[derive(Debug, Row, Deserialize)]
struct ToolCountsRow {
    servers: u64,
    min: u64,
    median: u64,
    p90: u64,
    max: u64,
    b1: u64,
    b2_5: u64,
    b6_20: u64,
    b_over_20: u64,
}

#[derive(Debug, Row, Deserialize)]
struct NameRow {
    name: String,
    sites: u64,
}

#[derive(Debug, Row, Deserialize)]
struct FindingRow {
    rule_id: String,
    severity: String,
    findings: u64,
}

#[derive(Debug, Row, Deserialize)]
struct GradeRow {
    letter: String,
    tools: u64,
}

#[derive(Debug, Row, Deserialize)]
struct PlatformRow {
    server_fingerprint: String,
    name: String,
    name_missing: u8,
    version: String,
    version_missing: u8,
    tool_count: u64,
    sites: u64,
    passing: u64,
}

#[derive(Debug, Row, Deserialize)]
struct CompareRow {
    endpoints_before: u64,
    endpoints_now: u64,
    passing_before: u64,
    passing_now: u64,
    new_count: u64,
    new_list: Vec<String>,
    vanished_count: u64,
    vanished_list: Vec<String>,
    changed_count: u64,
    changed_list: Vec<String>,
}

#[derive(Debug, Row, Deserialize)]
struct TransitionRow {
    base_outcome: String,
    run_outcome: String,
    sites: u64,
}

#[derive(Debug, Row, Deserialize)]
struct HistoryRow {
    run_id: String,
    sites_scanned: u64,
    endpoints: u64,
    passing: u64,
}

/// The full report from ClickHouse: `run` (default: the latest), compared with `compare_with`
/// when given, and adoption over every run in the database.
pub async fn build_clickhouse(
    conn: &Connection,
    run: Option<&str>,
    compare_with: Option<&str>,
    settings: ReportSettings,
) -> Result<Report, AnalysisError> {
    let c = &conn.client;
    let run_id = match run {
        Some(id) => id.to_owned(),
        None => {
            let latest: Vec<LatestRow> = c
                .query(sql::LATEST_RUN)
                .fetch_all()
                .await
                .map_err(err("latest_run"))?;
            match latest.into_iter().next() {
                Some(r) if !r.run_id.is_empty() => r.run_id,
                _ => return Err(AnalysisError::NoRun),
            }
        }
    };
    let (run, comparison, history) = tokio::try_join!(
        run_report(c, &run_id, settings),
        async {
            match compare_with {
                Some(base) => comparison(c, base, &run_id).await.map(Some),
                None => Ok(None),
            }
        },
        async {
            c.query(sql::HISTORY)
                .fetch_all::<HistoryRow>()
                .await
                .map_err(err("history"))
        },
    )?;
    let history = history
        .into_iter()
        .map(|h| HistoryPoint {
            run_id: h.run_id,
            sites_scanned: h.sites_scanned,
            endpoints: h.endpoints,
            passing: h.passing,
        })
        .collect();
    Ok(Report {
        schema_version: REPORT_SCHEMA_VERSION,
        run,
        comparison,
        history,
    })
}

async fn run_report(
    c: &Client,
    run_id: &str,
    settings: ReportSettings,
) -> Result<RunReport, AnalysisError> {
    let top_n = settings.top_n as u64;
    // Independent queries, sent together: the server works on them in parallel.
    let (t, outcomes, documents, fields, tc, top_tool_names, top_domains, top_ips) = tokio::try_join!(
        async {
            c.query(sql::RUN_TOTALS)
                .bind(run_id)
                .fetch_one::<TotalsRow>()
                .await
                .map_err(err("run_totals"))
        },
        async {
            c.query(sql::OUTCOMES)
                .bind(run_id)
                .fetch_all::<OutcomeRow>()
                .await
                .map_err(err("outcomes"))
        },
        async {
            c.query(sql::DOCUMENTS)
                .bind(run_id)
                .fetch_all::<EntryRow>()
                .await
                .map_err(err("documents"))
        },
        async {
            tokio::try_join!(
                field_counts(c, run_id, FIELDS[0]),
                field_counts(c, run_id, FIELDS[1]),
                field_counts(c, run_id, FIELDS[2]),
                field_counts(c, run_id, FIELDS[3]),
                field_counts(c, run_id, FIELDS[4]),
                field_counts(c, run_id, FIELDS[5]),
                field_counts(c, run_id, FIELDS[6]),
                field_counts(c, run_id, FIELDS[7]),
            )
        },
        async {
            c.query(sql::TOOL_COUNTS)
                .bind(run_id)
                .fetch_one::<ToolCountsRow>()
                .await
                .map_err(err("tool_counts"))
        },
        top(c, sql::TOP_TOOL_NAMES, "top_tool_names", run_id, top_n),
        top(c, sql::TOP_DOMAINS, "top_domains", run_id, top_n),
        top(c, sql::TOP_IPS, "top_ips", run_id, top_n),
    )?;
    let (findings, grades, platforms) = tokio::try_join!(
        async {
            c.query(sql::FINDINGS)
                .bind(run_id)
                .bind(run_id)
                .fetch_all::<FindingRow>()
                .await
                .map_err(err("findings"))
        },
        async {
            c.query(sql::GRADES)
                .bind(run_id)
                .bind(run_id)
                .fetch_all::<GradeRow>()
                .await
                .map_err(err("grades"))
        },
        async {
            c.query(sql::PLATFORMS)
                .bind(run_id)
                .bind(settings.platform_min_sites)
                .fetch_all::<PlatformRow>()
                .await
                .map_err(err("platforms"))
        },
    )?;
    let mut rep = RunReport {
        run_id: run_id.to_owned(),
        sites_read: t.sites_read,
        sites_scanned: t.sites_scanned,
        sites_reachable: t.sites_reachable,
        sites_with_discovery_document: t.sites_with_discovery_document,
        endpoints: t.endpoints,
        defects: t.defects,
        top_tool_names,
        top_domains,
        top_ips,
        ..RunReport::default()
    };
    let outcomes: BTreeMap<String, u64> =
        outcomes.into_iter().map(|o| (o.outcome, o.sites)).collect();
    rep.outcomes = shares(&outcomes, t.sites_read);
    rep.outcomes_no_answer_not_measured = shares(&no_answer_not_measured(&outcomes), t.sites_read);
    for d in documents {
        let (soft, kind) = match d.entry.split_once(':') {
            Some(("s", kind)) => (true, kind),
            Some((_, kind)) => (false, kind),
            None => continue,
        };
        let entry = rep.documents.entry(kind.to_owned()).or_default();
        if soft {
            entry.soft_404 = d.sites;
        } else {
            entry.parsed = d.sites;
        }
    }
    let surface_outcomes;
    (
        rep.protocol_versions,
        rep.transports,
        rep.auth_kinds,
        rep.spec_versions,
        rep.migration_status,
        rep.endpoints_by_method,
        rep.measured_elsewhere,
        surface_outcomes,
    ) = fields;
    rep.sites_with_surface = surface_outcomes.values().sum();
    rep.outcomes_surface = shares(&surface_outcomes, rep.sites_with_surface);
    let buckets = [
        ("1", tc.b1),
        ("2-5", tc.b2_5),
        ("6-20", tc.b6_20),
        (">20", tc.b_over_20),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    rep.tool_counts = if tc.servers == 0 {
        ToolCounts {
            buckets,
            ..ToolCounts::default()
        }
    } else {
        ToolCounts {
            servers: tc.servers,
            min: tc.min,
            median: tc.median,
            p90: tc.p90,
            max: tc.max,
            buckets,
        }
    };
    rep.findings = findings
        .into_iter()
        .map(|f| FindingCount {
            rule_id: f.rule_id,
            severity: f.severity,
            count: f.findings,
        })
        .collect();
    rep.grades = grades.into_iter().map(|g| (g.letter, g.tools)).collect();
    rep.adoption = Adoption {
        endpoints: t.endpoints,
        passing: t.passing,
        endpoints_platforms_once: t.endpoints - platforms.iter().map(|p| p.sites - 1).sum::<u64>(),
        passing_platforms_once: t.passing
            - platforms
                .iter()
                .map(|p| p.passing.saturating_sub(1))
                .sum::<u64>(),
    };
    rep.platforms = platforms
        .into_iter()
        .map(|p| Platform {
            fingerprint: p.server_fingerprint,
            server_name: (p.name_missing == 0).then_some(p.name),
            server_version: (p.version_missing == 0).then_some(p.version),
            tool_count: p.tool_count,
            sites: p.sites,
        })
        .collect();
    Ok(rep)
}

/// Scanned sites per value of one field (`FIELDS`).
async fn field_counts(
    c: &Client,
    run_id: &str,
    (field, filter): (&str, &str),
) -> Result<BTreeMap<String, u64>, AnalysisError> {
    let query = sql::FIELD_COUNTS
        .replace("{field}", field)
        .replace("{filter}", filter);
    Ok(c.query(&query)
        .bind(run_id)
        .fetch_all::<ValueRow>()
        .await
        .map_err(err(field))?
        .into_iter()
        .map(|v| (v.value, v.sites))
        .collect())
}

async fn top(
    c: &Client,
    query: &str,
    name: &str,
    run_id: &str,
    n: u64,
) -> Result<Vec<Ranked>, AnalysisError> {
    Ok(c.query(query)
        .bind(run_id)
        .bind(n)
        .fetch_all::<NameRow>()
        .await
        .map_err(err(name))?
        .into_iter()
        .map(|r| Ranked {
            name: r.name,
            count: r.sites,
        })
        .collect())
}

fn compare_query(outer: &str) -> String {
    outer.replace("{sites}", sql::COMPARE_SITES)
}

fn bind_sites(q: clickhouse::query::Query, base: &str, run: &str) -> clickhouse::query::Query {
    q.bind(base)
        .bind(run)
        .bind(base)
        .bind(run)
        .bind(base)
        .bind(run)
        .bind(base)
        .bind(run)
        .bind(base)
        .bind(run)
}

async fn comparison(c: &Client, base: &str, run: &str) -> Result<Comparison, AnalysisError> {
    let cap = LIST_CAP as u64;
    let q = c
        .query(&compare_query(sql::COMPARE))
        .bind(cap)
        .bind(cap)
        .bind(cap);
    let row: CompareRow = bind_sites(q, base, run)
        .fetch_one()
        .await
        .map_err(err("compare"))?;
    let q = c.query(&compare_query(sql::TRANSITIONS));
    let transitions = bind_sites(q, base, run)
        .fetch_all::<TransitionRow>()
        .await
        .map_err(err("transitions"))?;
    let delta = |now: u64, before: u64| now as i64 - before as i64;
    Ok(Comparison {
        base_run: base.to_owned(),
        run: run.to_owned(),
        endpoints_delta: delta(row.endpoints_now, row.endpoints_before),
        passing_delta: delta(row.passing_now, row.passing_before),
        new_endpoint_count: row.new_count,
        new_endpoints: row.new_list,
        vanished_endpoint_count: row.vanished_count,
        vanished_endpoints: row.vanished_list,
        changed_tool_list_count: row.changed_count,
        changed_tool_lists: row.changed_list,
        outcome_transitions: transitions
            .into_iter()
            .map(|t| Transition {
                from: t.base_outcome,
                to: t.run_outcome,
                sites: t.sites,
            })
            .collect(),
    })
}
