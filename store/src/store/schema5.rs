//! Reading segments written with schema 5, the layout before the tools' capability tags: the
//! record as it was then, decoded from its own rkyv layout and turned into today's record (no
//! `tools[].capabilities`, `capabilities_version` or `tool_capabilities`). A store written by
//! an earlier release stays readable (`export`, `report`, `load`, `--resume`) without a
//! migration step.

use rkyv::rancor;
use rkyv::util::AlignedVec;
use rkyv::{Archive, Deserialize};

use super::tool_v5::{self, ToolInfoV5};
use crate::first_tools::FirstToolNames;
use crate::record::*;
use crate::vocab::*;

/// The schema version these types read.
pub(crate) const VERSION: u16 = 5;

/// Schema 5's record: today's without the capability fields, its tools without their tags. The
/// field order is the stored layout's: never reorder.
#[derive(Archive, Deserialize)]
#[cfg_attr(test, derive(rkyv::Serialize))]
pub(crate) struct RecordV5 {
    schema_version: u16,
    run_id: String,
    scanned_at: u64,
    input: String,
    input_line: u64,
    rank: Option<u32>,
    origin: Option<String>,
    final_origin: Option<String>,
    redirects: Vec<RedirectHop>,
    surface: bool,
    surface_signals: Vec<SurfaceSignal>,
    host: Option<String>,
    registrable_domain: Option<String>,
    addresses: Vec<String>,
    outcome: Outcome,
    outcome_reason: String,
    reason_kind: Option<FailureKind>,
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
    probe_note: Option<String>,
    transport: Option<Transport>,
    auth: Option<AuthInfo>,
    spec_version: Option<String>,
    deprecated_features: Vec<DeprecatedFeature>,
    migration_status: Option<MigrationStatus>,
    checklist: Vec<ChecklistStep>,
    findings: Vec<Finding>,
    grades: Option<Grades>,
    documents: Vec<DocumentLog>,
    requests: Vec<RequestLog>,
    timings: Timings,
    truncated: Option<String>,
    robots: Option<RobotsInfo>,
    refused_urls: Vec<String>,
    readiness: Option<Readiness>,
    first_look: Option<FirstLook>,
}

/// Checked decode of a schema 5 frame into today's record.
pub(crate) fn decode(payload: &AlignedVec) -> Result<Record, rancor::Error> {
    rkyv::from_bytes::<RecordV5, rancor::Error>(payload).map(Record::from)
}

impl From<RecordV5> for Record {
    fn from(r: RecordV5) -> Record {
        Record {
            schema_version: r.schema_version,
            run_id: r.run_id,
            scanned_at: r.scanned_at,
            input: r.input,
            input_line: r.input_line,
            rank: r.rank,
            origin: r.origin,
            final_origin: r.final_origin,
            redirects: r.redirects,
            surface: r.surface,
            surface_signals: r.surface_signals,
            host: r.host,
            registrable_domain: r.registrable_domain,
            addresses: r.addresses,
            outcome: r.outcome,
            outcome_reason: r.outcome_reason,
            reason_kind: r.reason_kind,
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
            probe_note: r.probe_note,
            transport: r.transport,
            auth: r.auth,
            spec_version: r.spec_version,
            deprecated_features: r.deprecated_features,
            migration_status: r.migration_status,
            checklist: r.checklist,
            findings: r.findings,
            grades: r.grades,
            documents: r.documents,
            requests: r.requests,
            timings: r.timings,
            truncated: r.truncated,
            robots: r.robots,
            refused_urls: r.refused_urls,
            readiness: r.readiness,
            first_look: r.first_look,
            capabilities_version: None,
            tool_capabilities: None,
        }
    }
}

/// Test support: a record's schema 5 frame, as an earlier release wrote it.
#[cfg(test)]
pub(crate) fn encode(r: &Record) -> AlignedVec {
    let r = r.clone();
    let old = RecordV5 {
        schema_version: VERSION,
        run_id: r.run_id,
        scanned_at: r.scanned_at,
        input: r.input,
        input_line: r.input_line,
        rank: r.rank,
        origin: r.origin,
        final_origin: r.final_origin,
        redirects: r.redirects,
        surface: r.surface,
        surface_signals: r.surface_signals,
        host: r.host,
        registrable_domain: r.registrable_domain,
        addresses: r.addresses,
        outcome: r.outcome,
        outcome_reason: r.outcome_reason,
        reason_kind: r.reason_kind,
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
        probe_note: r.probe_note,
        transport: r.transport,
        auth: r.auth,
        spec_version: r.spec_version,
        deprecated_features: r.deprecated_features,
        migration_status: r.migration_status,
        checklist: r.checklist,
        findings: r.findings,
        grades: r.grades,
        documents: r.documents,
        requests: r.requests,
        timings: r.timings,
        truncated: r.truncated,
        robots: r.robots,
        refused_urls: r.refused_urls,
        readiness: r.readiness,
        first_look: r.first_look,
    };
    rkyv::to_bytes::<rancor::Error>(&old).expect("a record serializes")
}
