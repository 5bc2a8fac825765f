//! Test fixtures shared by the store and export tests.

use crate::record::*;
use crate::vocab::*;
use crate::ToolCapability;

/// Record `i` with every field set; enum fields cycle through all their variants as `i` grows.
pub(crate) fn full_record(run_id: &str, i: usize) -> Record {
    fn pick<T: Copy>(all: &[T], i: usize) -> T {
        all[i % all.len()]
    }
    let mut r = Record::new(
        run_id,
        1_795_000_000_000 + i as u64 * 1_001,
        &format!("site{i}.example"),
        i as u64 + 1,
        pick(Outcome::ALL, i),
        format!("reason {i}"),
    );
    r.rank = (!i.is_multiple_of(3)).then_some(i as u32 * 1_000 + 1);
    r.origin = Some(format!("https://site{i}.example"));
    r.host = Some(format!("site{i}.example"));
    r.registrable_domain = Some("example".into());
    r.addresses = vec!["192.0.2.1".into(), format!("2001:db8::{i:x}")];
    r.surface_signals = vec![
        pick(SurfaceSignal::ALL, i),
        SurfaceSignal::OauthAuthorizationServer,
    ];
    r.surface = true;
    r.reason_kind = Some(pick(FailureKind::ALL, i + 1));
    r.defect = i % 2 == 1;
    r.endpoint = Some(format!("https://site{i}.example/mcp"));
    r.discovered_via = Some(pick(DiscoveredVia::ALL, i));
    r.discovery_source = Some(pick(DiscoverySource::ALL, i));
    r.protocol_version = Some("2025-06-18".into());
    r.session_id_issued = i % 3 == 1;
    r.server_name = Some(format!("server-{i}"));
    r.server_version = Some("1.2.3".into());
    r.capabilities = Some(r#"{"tools":{"listChanged":true}}"#.into());
    r.tool_count = Some(2);
    r.tool_names = vec!["search".into(), "fetch".into()];
    r.tool_names_first_25 = vec!["search".into()].into();
    r.tools = vec![ToolInfo {
        name: "search".into(),
        title: Some("Search".into()),
        description: Some("Searches ünïcode text 🔍".into()),
        annotations: Some(r#"{"readOnlyHint":true}"#.into()),
        input_schema_hash: Some("abc123".into()),
        fingerprint: Some("def456".into()),
        grade: Some("B".into()),
        capabilities: vec![
            ToolCapability::ReadOnly,
            ToolCapability::ReadsUntrustedContent,
        ],
    }];
    r.count_tool_capabilities(crate::CAPABILITIES_VERSION);
    r.tool_list_fingerprint = Some("0011".into());
    r.probe = Some(pick(ProbeDepth::ALL, i));
    r.probe_note = i
        .is_multiple_of(2)
        .then(|| format!("the probe's time ran out at step {i}"));
    r.transport = Some(pick(Transport::ALL, i));
    r.auth = Some(AuthInfo {
        kind: pick(AuthKind::ALL, i),
        challenge: Some("Bearer realm=\"x\"".into()),
        resource_metadata_url: Some("https://x/.well-known/oauth-protected-resource".into()),
        authorization_servers: vec!["https://auth.example".into()],
        metadata_urls: vec!["https://auth.example/.well-known/oauth-authorization-server".into()],
    });
    r.spec_version = Some("2025-11-25".into());
    r.deprecated_features = vec![pick(DeprecatedFeature::ALL, i), DeprecatedFeature::Sessions];
    r.migration_status = Some(pick(MigrationStatus::ALL, i));
    r.checklist = vec![pick(ChecklistStep::ALL, i), ChecklistStep::RerunScan];
    r.findings = vec![Finding {
        rule_id: "MCP001".into(),
        severity: pick(Severity::ALL, i),
        evidence: format!("evidence {i}"),
        url: Some("https://x/mcp".into()),
        tool: Some("search".into()),
    }];
    r.grades = Some(Grades {
        graded: 1,
        not_graded: 1,
        median: Some("B".into()),
        counts: vec![0, 1, 0, 0, 0, 0],
    });
    r.documents = vec![DocumentLog {
        kind: pick(DocumentKind::ALL, i),
        url: "https://x/.well-known/mcp.json".into(),
        status: Some(200),
        content_type: Some("application/json".into()),
        bytes: 512,
        parsed: true,
        soft_404: i % 5 == 1,
        note: Some("note".into()),
    }];
    r.requests = vec![RequestLog {
        method: "POST".into(),
        url: "https://x/mcp".into(),
        purpose: "initialize".into(),
        status: Some(200),
        bytes: 1024,
        ms: 42,
        error: Some("none".into()),
        headers: vec![Header {
            name: "mcp-session-id".into(),
            value: format!("s{i}"),
        }],
        error_kind: Some(pick(FailureKind::ALL, i)),
    }];
    r.timings = Timings {
        total_ms: 1200,
        resolve_ms: Some(3),
        discovery_ms: Some(400),
        session_ms: Some(700),
        probe_ms: Some(90),
    };
    r.readiness = (i % 2 == 1).then(|| Readiness {
        checks_version: "radar-2026-18".into(),
        robots_txt: Some(true),
        robots_txt_ai_rules: Some(i % 4 == 1),
        llms_txt: Some(false),
        catch_all: Some(i.is_multiple_of(3)),
        naive_only: vec!["llmsTxt".into()],
        ai_bot_rules: vec!["GPTBot=disallow".into()],
        evidence: vec![ReadinessEvidence {
            check: "llmsTxt".into(),
            url: "https://x/llms.txt".into(),
            status: Some(200),
            content_type: Some("text/html".into()),
            bytes: 900,
            parsed: false,
            note: Some("an HTML page, not a file".into()),
        }],
        ..Readiness::default()
    });
    r.first_look = (i % 3 == 2).then(|| FirstLook {
        scanned_at: 1_794_999_000_000 + i as u64,
        outcome: Outcome::Unreachable,
        outcome_reason: "connect timed out".into(),
        reason_kind: Some(pick(FailureKind::ALL, i)),
        total_ms: 30_000,
        requests: r.requests.clone(),
    });
    r
}

/// Enough records that every enum variant appears.
pub(crate) fn full_records(run_id: &str) -> Vec<Record> {
    let n = [
        Outcome::ALL.len(),
        DiscoveredVia::ALL.len(),
        Transport::ALL.len(),
        AuthKind::ALL.len(),
        DocumentKind::ALL.len(),
        SurfaceSignal::ALL.len(),
        DiscoverySource::ALL.len(),
        DeprecatedFeature::ALL.len(),
        MigrationStatus::ALL.len(),
        ChecklistStep::ALL.len(),
        Severity::ALL.len(),
        FailureKind::ALL.len(),
    ]
    .into_iter()
    .max()
    .unwrap_or(1);
    (0..n).map(|i| full_record(run_id, i)).collect()
}
