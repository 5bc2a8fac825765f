//! Records as ClickHouse rows: one `sites` row per record, one `tools` row per tool, one
//! `findings` row per finding. Those three structs are made at build time from the tables in
//! `configs/clickhouse/schema.sql` (`store/build.rs`): booleans are UInt8, enumerations their
//! text form, times DateTime seconds.

use clickhouse::Row;
use serde::Serialize;

use crate::record::{ReadinessCheck, Record};
use crate::store::RunManifest;

/// The key a site's rows collapse on within a run: the origin, or for records without one
/// (invalid input) the input line. A registry server's record is keyed by its name: its
/// remote may be on an origin the web's list also holds, and both records are kept.
pub fn site_key(record: &Record) -> String {
    if let Some(name) = crate::registry_server(record) {
        return format!("registry:{name}");
    }
    match &record.origin {
        Some(origin) => origin.clone(),
        None => format!("line:{}:{}", record.input_line, record.input),
    }
}

fn seconds(ms: u64) -> u32 {
    u32::try_from(ms / 1000).unwrap_or(u32::MAX)
}

/// One `runs` row: a crawl's or load's state.
#[derive(Debug, Clone, PartialEq, Row, Serialize)]
pub struct RunRow {
    pub run_id: String,
    /// Seconds since the epoch.
    pub started_at: u32,
    pub updated_at: u32,
    /// The manifest's status: `running`, `complete`, `interrupted`, `failed`.
    pub status: String,
    /// `crawl`, `crawl shard K/N` or `load`.
    pub source: String,
    pub sites: u64,
    pub server_version: String,
    /// `crawl --label`, or empty.
    pub label: String,
    /// `started_at` and `updated_at` in ms: runs started within one second keep their order.
    pub started_at_ms: u64,
    pub updated_at_ms: u64,
    /// The run manifest as JSON (the report's methods read it), or empty.
    pub manifest: String,
}

impl RunRow {
    pub fn new(run_id: &str, started_at_ms: u64, status: &str, source: &str, sites: u64) -> RunRow {
        let now = crate::record::now_ms();
        RunRow {
            run_id: run_id.to_owned(),
            started_at: seconds(started_at_ms),
            updated_at: seconds(now),
            status: status.to_owned(),
            source: source.to_owned(),
            sites,
            server_version: String::new(),
            label: String::new(),
            started_at_ms,
            updated_at_ms: now,
            manifest: String::new(),
        }
    }

    /// The row of the run `manifest` describes, as it stands (status, label, the manifest).
    pub fn of_manifest(manifest: &RunManifest, source: &str, sites: u64) -> RunRow {
        let mut row = RunRow::new(
            &manifest.run_id,
            manifest.started_at,
            manifest.status.as_str(),
            source,
            sites,
        );
        row.label = manifest.label.clone().unwrap_or_default();
        // A manifest is plain data (strings, numbers, JSON values): serializing cannot fail.
        row.manifest = serde_json::to_string(manifest).unwrap_or_default();
        row
    }
}

/// One `run_parts` row: the manifest of one process that wrote the run (a shard's).
#[derive(Debug, Clone, PartialEq, Row, Serialize)]
pub struct RunPartRow {
    pub run_id: String,
    /// The shard (`2/4`), '' for a run of every site.
    pub part: String,
    pub updated_at: u32,
    pub updated_at_ms: u64,
    pub manifest: String,
}

impl RunPartRow {
    pub fn of_manifest(manifest: &RunManifest) -> RunPartRow {
        let now = crate::record::now_ms();
        RunPartRow {
            run_id: manifest.run_id.clone(),
            part: manifest.shard().unwrap_or_default().to_owned(),
            updated_at: seconds(now),
            updated_at_ms: now,
            // A manifest is plain data (strings, numbers, JSON values): serializing cannot fail.
            manifest: serde_json::to_string(manifest).unwrap_or_default(),
        }
    }
}

include!(concat!(env!("OUT_DIR"), "/rows.rs"));

impl SiteRow {
    pub fn from_record(r: &Record) -> SiteRow {
        let (documents_parsed, documents_soft_404) = crate::derived::document_kinds(r);
        let readiness = r.readiness.as_ref();
        let check = |c: ReadinessCheck| readiness.and_then(|x| x.get(c)).map(u8::from);
        let counts = r.tool_capabilities.as_ref();
        SiteRow {
            run_id: r.run_id.clone(),
            site_key: site_key(r),
            scanned_at: seconds(r.scanned_at),
            scanned_at_ms: r.scanned_at,
            schema_version: r.schema_version,
            input: r.input.clone(),
            input_line: r.input_line,
            origin: r.origin.clone(),
            host: r.host.clone(),
            registrable_domain: r.registrable_domain.clone(),
            addresses: r.addresses.clone(),
            outcome: r.outcome.as_str().to_owned(),
            outcome_reason: r.outcome_reason.clone(),
            defect: u8::from(r.defect),
            endpoint: r.endpoint.clone(),
            discovered_via: r.discovered_via.map(|d| d.as_str().to_owned()),
            discovery_source: r.discovery_source.map(|d| d.as_str().to_owned()),
            protocol_version: r.protocol_version.clone(),
            session_id_issued: u8::from(r.session_id_issued),
            server_name: r.server_name.clone(),
            server_version: r.server_version.clone(),
            capabilities: r.capabilities.clone(),
            tool_count: r.tool_count,
            tool_names: r.tool_names.clone(),
            tool_list_fingerprint: r.tool_list_fingerprint.clone(),
            probe: r.probe.map(|p| p.as_str().to_owned()),
            transport: r.transport.map(|t| t.as_str().to_owned()),
            auth_kind: r.auth.as_ref().map(|a| a.kind.as_str().to_owned()),
            spec_version: r.spec_version.clone(),
            deprecated_features: texts(&r.deprecated_features),
            migration_status: r.migration_status.map(|m| m.as_str().to_owned()),
            checklist: texts(&r.checklist),
            finding_ids: r.findings.iter().map(|f| f.rule_id.clone()).collect(),
            grade_median: r.grades.as_ref().and_then(|g| g.median.clone()),
            request_count: u32::try_from(r.requests.len()).unwrap_or(u32::MAX),
            total_ms: r.timings.total_ms,
            // Serializing a record cannot fail (strings and numbers only).
            record_json: serde_json::to_string(r).unwrap_or_default(),
            documents_parsed,
            documents_soft_404,
            server_fingerprint: crate::derived::server_fingerprint(r),
            final_origin: r.final_origin.clone(),
            origin_move: crate::derived::origin_move(r).map(|m| m.as_str().to_owned()),
            surface: u8::from(r.surface),
            reason_kind: r.reason_kind.map(|k| k.as_str().to_owned()),
            request_error_kinds: crate::derived::request_error_kinds(r),
            endpoint_site: crate::derived::endpoint_site(r).map(str::to_owned),
            rank: r.rank,
            probe_note: r.probe_note.clone(),
            surface_signals: r
                .surface_signals
                .iter()
                .map(|s| s.as_str().to_owned())
                .collect(),
            first_look_outcome: r.first_look.as_ref().map(|f| f.outcome.as_str().to_owned()),
            first_look_reason_kind: r
                .first_look
                .as_ref()
                .and_then(|f| f.reason_kind)
                .map(|k| k.as_str().to_owned()),
            readiness_checks_version: readiness.map(|x| x.checks_version.clone()),
            readiness_robots_txt: check(ReadinessCheck::RobotsTxt),
            readiness_robots_txt_ai_rules: check(ReadinessCheck::RobotsTxtAiRules),
            readiness_content_signals: check(ReadinessCheck::ContentSignals),
            readiness_sitemap: check(ReadinessCheck::Sitemap),
            readiness_link_headers: check(ReadinessCheck::LinkHeaders),
            readiness_markdown_negotiation: check(ReadinessCheck::MarkdownNegotiation),
            readiness_llms_txt: check(ReadinessCheck::LlmsTxt),
            readiness_llms_full_txt: check(ReadinessCheck::LlmsFullTxt),
            readiness_a2a_agent_card: check(ReadinessCheck::A2aAgentCard),
            readiness_agent_skills: check(ReadinessCheck::AgentSkills),
            readiness_api_catalog: check(ReadinessCheck::ApiCatalog),
            readiness_oauth_discovery: check(ReadinessCheck::OauthDiscovery),
            readiness_oauth_protected_resource: check(ReadinessCheck::OauthProtectedResource),
            readiness_mcp_server_card: check(ReadinessCheck::McpServerCard),
            readiness_web_mcp: check(ReadinessCheck::WebMcp),
            readiness_web_bot_auth: check(ReadinessCheck::WebBotAuth),
            readiness_agentmap: check(ReadinessCheck::Agentmap),
            readiness_ai_catalog_link: check(ReadinessCheck::AiCatalogLink),
            readiness_catch_all: readiness.and_then(|x| x.catch_all).map(u8::from),
            readiness_naive_only: readiness.map(|x| x.naive_only.clone()).unwrap_or_default(),
            readiness_ai_bot_rules: readiness
                .map(|x| x.ai_bot_rules.clone())
                .unwrap_or_default(),
            robots_verdict: r.robots.as_ref().map(|x| x.verdict.clone()),
            mcp_get_status: crate::derived::mcp_get_status(r),
            capabilities_version: r.capabilities_version.clone(),
            tools_tagged: counts.map(|c| c.tools),
            tools_read_only: counts.map(|c| c.read_only),
            tools_writes: counts.map(|c| c.writes),
            tools_destructive: counts.map(|c| c.destructive),
            tools_executes_code: counts.map(|c| c.executes_code),
            tools_moves_money: counts.map(|c| c.moves_money),
            tools_sends_messages: counts.map(|c| c.sends_messages),
            tools_reads_untrusted_content: counts.map(|c| c.reads_untrusted_content),
            tools_reads_private_data: counts.map(|c| c.reads_private_data),
        }
    }
}

/// The columns a tool or finding row starts with: its site, and its place in the record's list.
struct ItemKey {
    run_id: String,
    site_key: String,
    position: u32,
    scanned_at: u32,
    origin: Option<String>,
}

/// One row per item of a record's list, each made by `row` from its key and the item.
fn item_rows<T, R>(r: &Record, items: &[T], row: impl Fn(ItemKey, &T) -> R) -> Vec<R> {
    let site_key = site_key(r);
    (0u32..)
        .zip(items)
        .map(|(position, item)| {
            let key = ItemKey {
                run_id: r.run_id.clone(),
                site_key: site_key.clone(),
                position,
                scanned_at: seconds(r.scanned_at),
                origin: r.origin.clone(),
            };
            row(key, item)
        })
        .collect()
}

impl ToolRow {
    pub fn from_record(r: &Record) -> Vec<ToolRow> {
        item_rows(r, &r.tools, |k, t| ToolRow {
            run_id: k.run_id,
            site_key: k.site_key,
            position: k.position,
            scanned_at: k.scanned_at,
            origin: k.origin,
            name: t.name.clone(),
            title: t.title.clone(),
            description: t.description.clone(),
            annotations: t.annotations.clone(),
            input_schema_hash: t.input_schema_hash.clone(),
            fingerprint: t.fingerprint.clone(),
            grade: t.grade.clone(),
            capabilities: texts(&t.capabilities),
        })
    }
}

impl FindingRow {
    pub fn from_record(r: &Record) -> Vec<FindingRow> {
        item_rows(r, &r.findings, |k, f| FindingRow {
            run_id: k.run_id,
            site_key: k.site_key,
            position: k.position,
            scanned_at: k.scanned_at,
            origin: k.origin,
            rule_id: f.rule_id.clone(),
            severity: f.severity.as_str().to_owned(),
            evidence: f.evidence.clone(),
            url: f.url.clone(),
            tool: f.tool.clone(),
        })
    }
}

/// A rough size of a record in memory, for bounding batches by bytes.
pub(crate) fn approx_bytes(r: &Record) -> usize {
    let tools: usize = r
        .tools
        .iter()
        .map(|t| {
            t.name.len()
                + t.description.as_ref().map_or(0, String::len)
                + t.annotations.as_ref().map_or(0, String::len)
                + 128
        })
        .sum();
    let findings: usize = r.findings.iter().map(|f| f.evidence.len() + 96).sum();
    let requests: usize = r
        .requests
        .iter()
        .map(|q| q.url.len() + q.headers.len() * 64 + 96)
        .sum();
    512 + r.input.len()
        + r.outcome_reason.len()
        + r.capabilities.as_ref().map_or(0, String::len)
        + tools
        + findings
        + requests
        + r.documents.len() * 160
}

/// A list of record enum values as their text forms (the columns stay strings).
fn texts<T: std::fmt::Display>(values: &[T]) -> Vec<String> {
    values.iter().map(ToString::to_string).collect()
}
