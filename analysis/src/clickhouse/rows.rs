//! The rows the report queries answer (column names as in configs/clickhouse/queries/).

use clickhouse::Row;
use serde::Deserialize;

#[derive(Debug, Row, Deserialize)]
pub struct RunFirstRow {
    pub run_id: String,
    pub first_record_ms: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct TotalsRow {
    pub sites_read: u64,
    pub sites_scanned: u64,
    pub sites_reachable: u64,
    pub defects: u64,
    pub sites_with_discovery_document: u64,
    pub endpoints: u64,
    pub passing: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct OutcomeRow {
    pub outcome: String,
    pub sites: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct RegistryClassRow {
    pub class: String,
    pub key: String,
    pub initialized_400: u8,
    pub signin_redirect: u8,
}

#[derive(Debug, Row, Deserialize)]
pub struct RegistryOverlapRow {
    pub set: String,
    pub endpoints: u64,
    pub origins: Vec<String>,
}

#[derive(Debug, Row, Deserialize)]
pub struct ReasonKindRow {
    pub outcome: String,
    pub kind: String,
    pub sites: u64,
}

/// A row of `not_now.sql`: which figure, its key, the sites.
#[derive(Debug, Row, Deserialize)]
pub struct NotNowRow {
    pub figure: String,
    pub key: String,
    pub sites: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct LookRow {
    pub first: String,
    pub second: String,
    pub sites: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct ReadinessRow {
    pub slot: u8,
    pub check_id: String,
    pub sites: u64,
    pub catch_all: u64,
    pub checked: u64,
    pub present: u64,
    pub naive_only: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct CapabilityRow {
    pub slot: u8,
    pub tag: String,
    pub servers: u64,
    pub servers_once: u64,
    pub tools: u64,
    pub tools_once: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct ToxicFlowRow {
    pub origin: String,
    pub evidence: String,
}

#[derive(Debug, Row, Deserialize)]
pub struct RankSlotRow {
    pub slot: u8,
    pub scanned: u64,
    pub surface: u64,
    pub endpoints: u64,
    pub passing: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct EntryRow {
    pub entry: String,
    pub sites: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct ValueRow {
    pub value: String,
    pub sites: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct ToolCountsRow {
    pub servers: u64,
    pub min: u64,
    pub median: u64,
    pub p90: u64,
    pub max: u64,
    /// Servers per tool-count bucket, in `TOOL_COUNT_BUCKETS`' order.
    pub buckets: Vec<u64>,
}

#[derive(Debug, Row, Deserialize)]
pub struct NameRow {
    pub name: String,
    pub sites: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct FindingRow {
    pub rule_id: String,
    pub severity: String,
    pub findings: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct GradeRow {
    pub letter: String,
    pub tools: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct PlatformRow {
    pub server_fingerprint: String,
    pub name: String,
    pub name_missing: u8,
    pub version: String,
    pub version_missing: u8,
    pub tool_count: u64,
    pub sites: u64,
    pub passing: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct CompareRow {
    pub sites_in_both: u64,
    pub sites_only_in_base: u64,
    pub sites_only_in_run: u64,
    pub endpoints_before: u64,
    pub endpoints_now: u64,
    pub passing_before: u64,
    pub passing_now: u64,
    pub new_count: u64,
    pub new_list: Vec<String>,
    pub vanished_count: u64,
    pub vanished_list: Vec<String>,
    pub still_there: u64,
    pub moved_count: u64,
    pub moved_list: Vec<String>,
    pub unavailable_count: u64,
    pub unavailable_list: Vec<String>,
    pub not_scanned_count: u64,
    pub not_scanned_list: Vec<String>,
    pub changed_count: u64,
    pub changed_list: Vec<String>,
    pub descriptions_changed_count: u64,
    pub descriptions_changed_list: Vec<String>,
}

#[derive(Debug, Row, Deserialize)]
pub struct TransitionRow {
    pub base_outcome: String,
    pub run_outcome: String,
    pub sites: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct HistoryRow {
    pub run_id: String,
    pub sites_read: u64,
    pub sites_scanned: u64,
    pub first_record_ms: u64,
    pub first_scan_ms: u64,
    pub endpoints: u64,
    pub passing: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct RunsRow {
    pub run_id: String,
    pub run_label: String,
    pub start_ms: u64,
    pub run_manifest: String,
}

#[derive(Debug, Row, Deserialize)]
pub struct RunPartsRow {
    pub run_id: String,
    pub part_manifest: String,
}

#[derive(Debug, Row, Deserialize)]
pub struct RunOutcomeRow {
    pub run_id: String,
    pub outcome: String,
    pub sites: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct RunPlatformsRow {
    pub run_id: String,
    pub extra_sites: u64,
    pub extra_passing: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct TldRow {
    pub tld: String,
    pub scanned: u64,
    pub endpoints: u64,
    pub passing: u64,
}

#[derive(Debug, Row, Deserialize)]
pub struct ValueOnlyRow {
    pub value: String,
}

#[derive(Debug, Row, Deserialize)]
pub struct ToolStateRow {
    pub run_id: String,
    pub origin: String,
    pub name: String,
    pub description: Option<String>,
    pub capabilities: Vec<String>,
}
