//! Reading segments written with schema 2, the layout before the typed failure kinds: the
//! record and the request log as they were then, decoded from their own rkyv layout and
//! turned into today's record (the kinds absent). A store written by an earlier release stays
//! readable (`export`, `report`, `load`, `--resume`) without a migration step.

use rkyv::rancor;
use rkyv::util::AlignedVec;
use rkyv::{Archive, Deserialize};

use super::tool_v5::{self, ToolInfoV5};
use crate::first_tools::FirstToolNames;
use crate::record::*;
use crate::vocab::*;

/// The schema version these types read.
pub(crate) const VERSION: u16 = 2;

/// Schema 2's request log: today's without `error_kind`.
#[derive(Archive, Deserialize)]
#[cfg_attr(test, derive(rkyv::Serialize))]
pub(crate) struct RequestLogV2 {
    method: String,
    url: String,
    purpose: String,
    status: Option<u16>,
    bytes: u64,
    ms: u32,
    error: Option<String>,
    headers: Vec<Header>,
}

/// Schema 2's record: today's without `reason_kind`, its requests of [`RequestLogV2`]. The
/// field order is the stored layout's: never reorder.
#[derive(Archive, Deserialize)]
#[cfg_attr(test, derive(rkyv::Serialize))]
pub(crate) struct RecordV2 {
    schema_version: u16,
    run_id: String,
    scanned_at: u64,
    input: String,
    input_line: u64,
    origin: Option<String>,
    final_origin: Option<String>,
    redirects: Vec<RedirectHop>,
    surface: bool,
    host: Option<String>,
    registrable_domain: Option<String>,
    addresses: Vec<String>,
    outcome: Outcome,
    outcome_reason: String,
    defect: bool,
    endpoint: Option<String>,
    discovered_via: Option<DiscoveredVia>,
    discovery_source: Option<DiscoverySource>,
    protocol_version: Option<String>,
    session_id_issued: bool,
    server_name: Option<String>,
    server_version: Option<String>,
    capabilities: Option<String>,
    tool_count: Option<u32>,
    tool_names: Vec<String>,
    tool_names_first_25: FirstToolNames,
    tools: Vec<ToolInfoV5>,
    tool_list_fingerprint: Option<String>,
    probe: Option<ProbeDepth>,
    transport: Option<Transport>,
    auth: Option<AuthInfo>,
    spec_version: Option<String>,
    deprecated_features: Vec<DeprecatedFeature>,
    migration_status: Option<MigrationStatus>,
    checklist: Vec<ChecklistStep>,
    findings: Vec<Finding>,
    grades: Option<Grades>,
    documents: Vec<DocumentLog>,
    requests: Vec<RequestLogV2>,
    timings: Timings,
    truncated: Option<String>,
    robots: Option<RobotsInfo>,
    refused_urls: Vec<String>,
}

/// Checked decode of a schema 2 frame into today's record.
pub(crate) fn decode(payload: &AlignedVec) -> Result<Record, rancor::Error> {
    rkyv::from_bytes::<RecordV2, rancor::Error>(payload).map(Record::from)
}

impl From<RequestLogV2> for RequestLog {
    fn from(r: RequestLogV2) -> RequestLog {
        RequestLog {
            method: r.method,
            url: r.url,
            purpose: r.purpose,
            status: r.status,
            bytes: r.bytes,
            ms: r.ms,
            error: r.error,
            headers: r.headers,
            error_kind: None,
        }
    }
}

impl From<RecordV2> for Record {
    fn from(r: RecordV2) -> Record {
        Record {
            // Kept as written, so a reader can tell a record without kinds from one whose
            // verdict had none.
            schema_version: r.schema_version,
            run_id: r.run_id,
            scanned_at: r.scanned_at,
            input: r.input,
            input_line: r.input_line,
            rank: None,
            origin: r.origin,
            final_origin: r.final_origin,
            redirects: r.redirects,
            surface: r.surface,
            surface_signals: Vec::new(),
            host: r.host,
            registrable_domain: r.registrable_domain,
            addresses: r.addresses,
            outcome: r.outcome,
            outcome_reason: r.outcome_reason,
            reason_kind: None,
            defect: r.defect,
            endpoint: r.endpoint,
            discovered_via: r.discovered_via,
            discovery_source: r.discovery_source,
            protocol_version: r.protocol_version,
            session_id_issued: r.session_id_issued,
            server_name: r.server_name,
            server_version: r.server_version,
            capabilities: r.capabilities,
            tool_count: r.tool_count,
            tool_names: r.tool_names,
            tool_names_first_25: r.tool_names_first_25,
            tools: tool_v5::now(r.tools),
            tool_list_fingerprint: r.tool_list_fingerprint,
            probe: r.probe,
            probe_note: None,
            transport: r.transport,
            auth: r.auth,
            spec_version: r.spec_version,
            deprecated_features: r.deprecated_features,
            migration_status: r.migration_status,
            checklist: r.checklist,
            findings: r.findings,
            grades: r.grades,
            documents: r.documents,
            requests: r.requests.into_iter().map(RequestLog::from).collect(),
            timings: r.timings,
            truncated: r.truncated,
            robots: r.robots,
            refused_urls: r.refused_urls,
            readiness: None,
            first_look: None,
            capabilities_version: None,
            tool_capabilities: None,
        }
    }
}

/// Test support: a record's schema 2 frame, as an earlier release wrote it.
#[cfg(test)]
pub(crate) fn encode(r: &Record) -> AlignedVec {
    let r = r.clone();
    let old = RecordV2 {
        schema_version: VERSION,
        run_id: r.run_id,
        scanned_at: r.scanned_at,
        input: r.input,
        input_line: r.input_line,
        origin: r.origin,
        final_origin: r.final_origin,
        redirects: r.redirects,
        surface: r.surface,
        host: r.host,
        registrable_domain: r.registrable_domain,
        addresses: r.addresses,
        outcome: r.outcome,
        outcome_reason: r.outcome_reason,
        defect: r.defect,
        endpoint: r.endpoint,
        discovered_via: r.discovered_via,
        discovery_source: r.discovery_source,
        protocol_version: r.protocol_version,
        session_id_issued: r.session_id_issued,
        server_name: r.server_name,
        server_version: r.server_version,
        capabilities: r.capabilities,
        tool_count: r.tool_count,
        tool_names: r.tool_names,
        tool_names_first_25: r.tool_names_first_25,
        tools: tool_v5::then(r.tools),
        tool_list_fingerprint: r.tool_list_fingerprint,
        probe: r.probe,
        transport: r.transport,
        auth: r.auth,
        spec_version: r.spec_version,
        deprecated_features: r.deprecated_features,
        migration_status: r.migration_status,
        checklist: r.checklist,
        findings: r.findings,
        grades: r.grades,
        documents: r.documents,
        requests: r
            .requests
            .into_iter()
            .map(|q| RequestLogV2 {
                method: q.method,
                url: q.url,
                purpose: q.purpose,
                status: q.status,
                bytes: q.bytes,
                ms: q.ms,
                error: q.error,
                headers: q.headers,
            })
            .collect(),
        timings: r.timings,
        truncated: r.truncated,
        robots: r.robots,
        refused_urls: r.refused_urls,
    };
    rkyv::to_bytes::<rancor::Error>(&old).expect("a record serializes")
}
