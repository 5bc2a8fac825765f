//! The session and its verdicts.

use super::*;

#[test]
fn a_401_with_a_challenge_is_partial() {
    let record = check(
        "auth-challenge.test",
        Expect::new(
            Outcome::Partial,
            "initialize answered 401 with a WWW-Authenticate challenge (Bearer): an agent can \
             use it with authorization",
        )
        .at(
            &url("auth-challenge.test", "/mcp"),
            DiscoveredVia::ServerCard,
        )
        .posts(INITIALIZE),
    );
    assert!(record.tool_names.is_empty());
}

#[test]
fn a_401_at_mcp_is_no_signal_whatever_its_challenge() {
    check(
        "auth-nocard.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP",
        ),
    );
}

#[test]
fn a_401_without_a_challenge_is_not_measured() {
    check(
        "auth-bare.test",
        Expect::new(
            Outcome::NotMeasured,
            "initialize answered 401 (unauthorized) without a WWW-Authenticate challenge: not \
             measured",
        )
        .at(&url("auth-bare.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
}

/// What a site whose server fails at `step` must show besides the outcome and reason.
fn failing_at(host: &str, outcome: Outcome, reason: &str) -> Expect {
    let step = step_of(host);
    let (posts, version): (&'static [&'static str], _) = match step {
        "initialize" => (INITIALIZE, None),
        "notifications/initialized" => (HANDSHAKE, Some("2025-11-25")),
        _ => (&SESSION, Some("2025-11-25")),
    };
    let mut expect = Expect::new(outcome, reason)
        .at(&url(host, "/mcp"), DiscoveredVia::McpPath)
        .posts(posts);
    expect.version = version;
    expect
}

#[test]
fn status_403_429_and_5xx_at_each_step_are_not_measured() {
    for status in ["403", "429", "500"] {
        let words = match status {
            "403" => "403 (forbidden)",
            "429" => "429 (too many requests)",
            _ => "500 (internal server error)",
        };
        for step in ["init", "notif", "tools"] {
            let host = format!("s{status}-{step}.test");
            let reason = format!("{} answered {words}: not measured", step_of(&host));
            check(&host, failing_at(&host, Outcome::NotMeasured, &reason));
        }
    }
}

#[test]
fn a_redirect_at_each_step_is_not_followed() {
    for step in ["init", "notif", "tools"] {
        let host = format!("redirect-{step}.test");
        check(
            &host,
            failing_at(&host, Outcome::NotMeasured, "redirects; not followed"),
        );
        assert!(
            fixture()
                .world
                .web
                .requests(&host)
                .iter()
                .all(|r| r.path_only() != "/moved/mcp"),
            "{host}: the redirect was followed"
        );
    }
}

#[test]
fn an_html_page_fails_with_a_defect() {
    check(
        "html-init.test",
        failing_at(
            "html-init.test",
            Outcome::Fail,
            "initialize answered 200 (ok) with an HTML page instead of JSON-RPC",
        )
        .defect(),
    );
}

#[test]
fn a_json_rpc_error_fails_with_a_defect() {
    check(
        "rpc-error.test",
        Expect::new(
            Outcome::Fail,
            "initialize answered a JSON-RPC error: code -32603 \"Internal error\"",
        )
        .defect()
        .at(&url("rpc-error.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
    check(
        "rpc-error-tools.test",
        failing_at(
            "rpc-error-tools.test",
            Outcome::Fail,
            "tools/list answered a JSON-RPC error: code -32603 \"Database down\"",
        )
        .defect(),
    );
}

#[test]
fn a_body_without_a_json_rpc_answer_fails_with_a_defect() {
    check(
        "not-json.test",
        Expect::new(
            Outcome::Fail,
            "initialize answered 200 (ok) with a body that is neither JSON nor an event \
             stream: no JSON-RPC answer",
        )
        .defect()
        .at(&url("not-json.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
}

#[test]
fn another_error_status_fails() {
    check(
        "status-404.test",
        Expect::new(Outcome::Fail, "initialize answered 404 (not found)")
            .defect()
            .at(&url("status-404.test", "/mcp"), DiscoveredVia::McpPath)
            .posts(INITIALIZE),
    );
    // A result counts only in a 2xx answer; the server did answer, so no defect.
    check(
        "result-in-400.test",
        Expect::new(
            Outcome::Fail,
            "initialize answered 400 (bad request) with a JSON-RPC result, which counts only \
             in a 2xx answer",
        )
        .at(&url("result-in-400.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
}

#[test]
fn no_answer_is_not_measured() {
    check(
        "reset.test",
        Expect::new(Outcome::NotMeasured, "")
            .reason_contains("initialize got no answer (")
            .at(&url("reset.test", "/mcp"), DiscoveredVia::McpPath)
            .posts(INITIALIZE),
    );
}

#[test]
fn no_tools_capability_is_partial_and_sends_no_tools_list() {
    let record = check(
        "no-tools-cap.test",
        Expect::new(
            Outcome::Partial,
            "initialize succeeded but the server declares no tools capability, so tools/list \
             was not sent",
        )
        .at(&url("no-tools-cap.test", "/mcp"), DiscoveredVia::McpPath)
        .version("2025-11-25")
        .posts(HANDSHAKE),
    );
    assert_eq!(record.tool_count, None);
}

#[test]
fn an_empty_tool_list_is_partial() {
    let record = check(
        "empty-tools.test",
        Expect::new(
            Outcome::Partial,
            "initialize succeeded but tools/list names no tool",
        )
        .at(&url("empty-tools.test", "/mcp"), DiscoveredVia::McpPath)
        .version("2025-11-25")
        .posts(&SESSION),
    );
    assert_eq!(record.tool_count, Some(0));
}

#[test]
fn later_requests_echo_the_session_id_and_send_the_protocol_version() {
    let record = check(
        "session.test",
        Expect::pass(&["session_tool"]).at(&url("session.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert!(record.session_id_issued);
    let server = fixture().world.server("session.test");
    let minted = server.sessions();
    assert_eq!(minted.len(), 1);
    let posts: Vec<_> = server
        .calls()
        .into_iter()
        .filter(|c| c.http_method == "POST")
        .collect();
    assert_eq!(posts.len(), 3);
    assert_eq!(posts[0].session_id, None);
    assert_eq!(posts[0].protocol_header, None);
    for later in &posts[1..] {
        assert_eq!(later.session_id.as_ref(), Some(&minted[0]), "{later:?}");
        assert_eq!(later.protocol_header.as_deref(), Some("2025-11-25"));
        assert!((200..300).contains(&later.status), "{later:?}");
    }
}

#[test]
fn an_event_stream_with_priming_and_notifications_before_the_answer_passes() {
    let record = check(
        "sse-priming.test",
        Expect::pass(&["primed"]).at(&url("sse-priming.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert!(record.session_id_issued);
}

#[test]
fn the_notifications_answer_body_is_never_read() {
    check(
        "notif-html.test",
        Expect::pass(&["echo"]).at(&url("notif-html.test", "/mcp"), DiscoveredVia::McpPath),
    );
}

#[test]
fn an_answer_over_64_kb_fails_with_a_defect_its_own_reason_and_the_names_read() {
    let record = check(
        "oversize-tools.test",
        failing_at(
            "oversize-tools.test",
            Outcome::Fail,
            "tools/list answered 200 (ok) with an answer over 64 KB: the first 64 KB hold no \
             complete JSON-RPC answer",
        )
        .defect(),
    );
    assert_eq!(
        record.reason_kind,
        Some(mcpcensus_store::FailureKind::BodyCap)
    );
    // One tool with a description over 64 KB: no name is complete in the first 64 KB.
    assert!(record.tool_names.is_empty());

    // A list of many tools over 64 KB: the names complete in its first 64 KB are kept.
    let record = fixture().record("long-list-tools.test");
    assert_eq!(record.outcome, Outcome::Fail);
    assert!(record.defect);
    assert_eq!(
        record.outcome_reason,
        "tools/list answered 200 (ok) with an answer over 64 KB: the first 64 KB hold no \
         complete JSON-RPC answer (132 tool names read in them)"
    );
    assert_eq!(record.tool_count, None, "the list was not read whole");
    let names: Vec<String> = (0..132).map(|i| format!("long_{i:03}")).collect();
    assert_eq!(
        record.tool_names, names,
        "the entries whole in 65,536 bytes"
    );
    assert_eq!(record.tool_names_first_25.len(), 25);
}

#[test]
fn the_report_counts_the_servers_that_fail_only_on_the_cap() {
    let run = &fixture().report["run"];
    let mut on_cap: Vec<&str> = fixture()
        .records
        .iter()
        .filter(|r| r.reason_kind == Some(mcpcensus_store::FailureKind::BodyCap))
        .filter_map(|r| r.host.as_deref())
        .collect();
    on_cap.sort_unstable();
    assert_eq!(on_cap, ["long-list-tools.test", "oversize-tools.test"]);
    assert_eq!(run["sites_body_cap"], 2, "{run}");
    let rows = run["outcomes_by_reason_kind"].as_array().unwrap();
    assert!(
        rows.iter()
            .any(|k| k["outcome"] == "fail" && k["reason_kind"] == "body_cap" && k["sites"] == 2),
        "{rows:?}"
    );
    // The rows count every scanned site with a reason kind once.
    let with_kind = fixture()
        .records
        .iter()
        .filter(|r| mcpcensus_store::scanned(r.outcome) && r.reason_kind.is_some())
        .count() as u64;
    let counted: u64 = rows.iter().map(|k| k["sites"].as_u64().unwrap()).sum();
    assert_eq!(counted, with_kind);
}

#[test]
fn thirty_tools_keep_25_in_the_first_25_field() {
    let names: Vec<String> = (1..=30).map(|i| format!("tool_{i:02}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let record = check(
        "tools30.test",
        Expect::pass(&names).at(&url("tools30.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert_eq!(record.tool_names_first_25.len(), 25);
    assert_eq!(record.tool_names.len(), 30);
    assert_eq!(record.tool_count, Some(30));
}

#[test]
fn the_version_the_server_answers_is_accepted() {
    let record = check(
        "old-proto.test",
        Expect::new(
            Outcome::Pass,
            "tools/list names 1 tool (protocol version 2025-03-26)",
        )
        .tools(&["old_tool"])
        .version("2025-03-26")
        .at(&url("old-proto.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(&SESSION),
    );
    assert_eq!(record.protocol_version.as_deref(), Some("2025-03-26"));
    let calls = fixture().world.server("old-proto.test").calls();
    let posts: Vec<_> = calls.iter().filter(|c| c.http_method == "POST").collect();
    assert_eq!(posts[0].protocol_header, None);
    for later in &posts[1..] {
        assert_eq!(later.protocol_header.as_deref(), Some("2025-03-26"));
    }
    // initialize offered 2025-11-25.
    let offered = fixture()
        .world
        .web
        .requests("old-proto.test")
        .iter()
        .filter_map(|r| r.json())
        .find(|m| m["method"] == "initialize")
        .unwrap();
    assert_eq!(offered["params"]["protocolVersion"], "2025-11-25");
}

#[test]
fn a_server_slower_than_12_s_is_not_measured() {
    let record = check(
        "slow.test",
        Expect::new(
            Outcome::NotMeasured,
            "the session's 12 s limit ran out waiting for initialize's answer: not measured",
        )
        .at(&url("slow.test", "/mcp"), DiscoveredVia::McpPath)
        .posts(INITIALIZE),
    );
    let session = record.timings.session_ms.unwrap();
    assert!((11_900..14_000).contains(&session), "{:?}", record.timings);
}

#[test]
fn too_little_time_left_is_not_measured_and_posts_nothing() {
    let record = check(
        "late.test",
        Expect::new(
            Outcome::NotMeasured,
            "too little time left in the scan to open the 12 s session: not measured",
        )
        .at(&url("late.test", "/mcp"), DiscoveredVia::McpPath),
    );
    let spent = u64::from(record.timings.total_ms);
    let delays = 2 * sites::LATE_DOCUMENT_DELAY.as_millis() as u64;
    assert!(spent >= delays && spent < 30_000, "{:?}", record.timings);
}
