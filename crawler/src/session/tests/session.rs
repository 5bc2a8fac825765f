//! Whole sessions that pass or partially pass, and what the server saw of them.

use std::time::Duration;

use mcpcensus_store::Outcome;
use serde_json::json;
use tokio::time::Instant;

use super::script::{
    assert_verdict, init_result, plain_server, replacing, session, session_with, tools_result,
    INIT, LIST, NOTE,
};
use super::server::{Canned, McpServer, Seen, SessionServer};
use crate::session::SessionOptions;

#[tokio::test]
async fn passes_with_json_answers_and_sends_the_surveys_requests() {
    let server = McpServer::start(plain_server).await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Pass,
        "tools/list names 3 tools (protocol version 2025-11-25)",
        false,
    );
    assert_eq!(report.protocol_version.as_deref(), Some("2025-11-25"));
    assert_eq!(report.server_name.as_deref(), Some("weather"));
    assert_eq!(report.server_version.as_deref(), Some("1.2.3"));
    assert_eq!(report.capabilities.as_deref(), Some(r#"{"tools":{}}"#));
    assert!(!report.session_id_issued);
    assert_eq!(report.tool_count, Some(3));
    assert_eq!(report.tool_names, ["tool_00", "tool_01", "tool_02"]);
    assert_eq!(report.tool_names_first_25.0, report.tool_names);
    assert_eq!(
        report.tools[1].description.as_deref(),
        Some("Tool number 1")
    );
    assert!(report.tools[0].input_schema_hash.is_some());
    assert!(report.exchanges.is_empty(), "exchanges only when asked");

    // The request logs.
    let purposes: Vec<_> = report.requests.iter().map(|r| r.purpose.as_str()).collect();
    assert_eq!(purposes, [INIT, NOTE, LIST]);
    let statuses: Vec<_> = report.requests.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [Some(200), Some(202), Some(200)]);
    assert!(report
        .requests
        .iter()
        .all(|r| r.method == "POST" && r.url == server.endpoint().as_str() && r.error.is_none()));
    assert_eq!(report.requests[0].headers[0].name, "content-type");
    assert_eq!(report.requests[0].headers[0].value, "application/json");
    assert!(report.requests[2].bytes > 100);

    // What the server saw: three POSTs, the survey's headers, the version after initialize.
    assert_eq!(server.methods(), [INIT, NOTE, LIST]);
    let seen = server.seen();
    for (i, s) in seen.iter().enumerate() {
        assert_eq!(
            s.header("accept").as_deref(),
            Some("application/json, text/event-stream")
        );
        assert_eq!(
            s.header("content-type").as_deref(),
            Some("application/json")
        );
        assert_eq!(s.header("accept-language").as_deref(), Some("en"));
        assert!(s
            .header("user-agent")
            .is_some_and(|ua| ua.starts_with("mcpcensus/")));
        assert_eq!(s.header("mcp-session-id"), None);
        let version = s.header("mcp-protocol-version");
        if i == 0 {
            assert_eq!(version, None);
        } else {
            assert_eq!(version.as_deref(), Some("2025-11-25"));
        }
        for banned in ["authorization", "cookie", "origin"] {
            assert_eq!(s.header(banned), None);
        }
    }
    assert_eq!(seen[0].body, crate::session::initialize_body());
    assert_eq!(seen[1].body, crate::session::initialized_body());
    assert_eq!(seen[2].body, crate::session::tools_list_body());
    // A complete answer's connection goes back to the site's pool (usually all three share
    // one; the pool's check-in can race the next request, so only some reuse is asserted).
    assert!(
        server
            .stats
            .accepted
            .load(std::sync::atomic::Ordering::SeqCst)
            <= 2
    );
}

#[tokio::test]
async fn passes_over_sse_after_a_priming_event_and_a_notification() {
    let server = McpServer::start(|seen: &Seen| match seen.rpc_method().as_deref() {
        Some(INIT) => Canned::sse(format!(
            "id: 0\nretry: 3000\ndata: \n\n: keep-alive\n\n\
             event: message\nid: 1\ndata: {}\n\n\
             event: message\nid: 2\ndata: {}\n\n\
             event: message\nid: 3\ndata: {}\n\n",
            json!({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}),
            json!({"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"1999-01-01"}}),
            init_result("2025-11-25", json!({"tools":{"listChanged":true}})),
        ))
        // The stream stays open after the answer: the session must not wait for its end.
        .hold(),
        Some(NOTE) => Canned::accepted(),
        Some(LIST) => Canned::sse(format!(
            "id: a\r\ndata:\r\n\r\nevent: message\r\ndata: {}\r\n\r\n",
            tools_result(2)
        ))
        .pause(Duration::from_millis(20))
        .hold(),
        _ => Canned::new(400),
    })
    .await;
    let started = Instant::now();
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Pass,
        "tools/list names 2 tools (protocol version 2025-11-25)",
        false,
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "waited on a held stream"
    );
    assert_eq!(report.protocol_version.as_deref(), Some("2025-11-25"));
    assert_eq!(report.tool_names, ["tool_00", "tool_01"]);
    assert_eq!(server.methods(), [INIT, NOTE, LIST]);
}

#[tokio::test]
async fn echoes_the_session_id_a_stateful_server_issues() {
    let server = McpServer::start(|seen: &Seen| {
        let method = seen.rpc_method();
        if method.as_deref() == Some(INIT) {
            return Canned::sse(format!(
                "event: message\ndata: {}\n\n",
                init_result("2025-11-25", json!({"tools":{}}))
            ))
            .header("mcp-session-id", "sess-1868a90c");
        }
        if seen.header("mcp-session-id").as_deref() != Some("sess-1868a90c") {
            return Canned::json(
                400,
                r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"},"id":null}"#,
            );
        }
        plain_server(seen)
    })
    .await;
    let report = session(&server).await;
    assert_eq!(report.verdict.outcome, Outcome::Pass, "{report:#?}");
    assert!(report.session_id_issued);
    assert_eq!(server.methods(), [INIT, NOTE, LIST]);
    let seen = server.seen();
    assert_eq!(seen[0].header("mcp-session-id"), None);
    for later in &seen[1..] {
        assert_eq!(
            later.header("mcp-session-id").as_deref(),
            Some("sess-1868a90c")
        );
        assert_eq!(
            later.header("mcp-protocol-version").as_deref(),
            Some("2025-11-25")
        );
    }
    assert_eq!(report.requests[0].headers[1].name, "mcp-session-id");
}

#[tokio::test]
async fn a_session_without_the_required_id_fails() {
    // The same stateful server, but it forgets to issue the id: the notification gets 400.
    let server = McpServer::start(|seen: &Seen| match seen.rpc_method().as_deref() {
        Some(INIT) => plain_server(seen),
        _ => Canned::json(
            400,
            r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"},"id":null}"#,
        ),
    })
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Fail,
        "notifications/initialized answered 400 (bad request)",
        true,
    );
    assert_eq!(server.methods(), [INIT, NOTE]);
}

#[tokio::test]
async fn accepts_an_older_version_and_sends_it_back() {
    let server = McpServer::start(replacing(
        INIT,
        Canned::json(200, init_result("2025-03-26", json!({"tools":{}}))),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Pass,
        "tools/list names 3 tools (protocol version 2025-03-26)",
        false,
    );
    assert_eq!(report.protocol_version.as_deref(), Some("2025-03-26"));
    let versions: Vec<_> = server
        .seen()
        .iter()
        .map(|s| s.header("mcp-protocol-version"))
        .collect();
    assert_eq!(
        versions,
        [None, Some("2025-03-26".into()), Some("2025-03-26".into())]
    );
}

#[tokio::test]
async fn no_tools_capability_is_partial_and_tools_list_is_never_sent() {
    let server = McpServer::start(replacing(
        INIT,
        Canned::json(
            200,
            init_result("2025-11-25", json!({"resources":{"subscribe":true}})),
        ),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Partial,
        "initialize succeeded but the server declares no tools capability, so tools/list was not sent",
        false,
    );
    assert_eq!(server.methods(), [INIT, NOTE]);
    assert_eq!(report.requests.len(), 2);
    assert_eq!(report.tool_count, None);
    assert_eq!(
        report.capabilities.as_deref(),
        Some(r#"{"resources":{"subscribe":true}}"#)
    );
}

#[tokio::test]
async fn an_empty_tool_list_is_partial() {
    let server = McpServer::start(replacing(LIST, Canned::json(200, tools_result(0)))).await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Partial,
        "initialize succeeded but tools/list names no tool",
        false,
    );
    assert_eq!(report.tool_count, Some(0));
    assert!(report.tool_names.is_empty());
    assert_eq!(server.methods(), [INIT, NOTE, LIST]);
}

#[tokio::test]
async fn thirty_tools_keep_the_first_25_names_and_all_30() {
    let server = McpServer::start(replacing(LIST, Canned::json(200, tools_result(30)))).await;
    let report = session(&server).await;
    assert_eq!(report.verdict.outcome, Outcome::Pass, "{report:#?}");
    assert_eq!(report.tool_count, Some(30));
    assert_eq!(report.tool_names.len(), 30);
    assert_eq!(report.tools.len(), 30);
    assert_eq!(report.tool_names_first_25.len(), 25);
    assert_eq!(report.tool_names_first_25[..], report.tool_names[..25]);
    assert_eq!(report.tool_names[29], "tool_29");

    // A smaller tools cap keeps fewer in full; the count and the seed names stay.
    let opts = SessionOptions {
        tools_cap: std::num::NonZeroUsize::new(10).expect("non-zero"),
        ..SessionOptions::default()
    };
    let report = session_with(&server, &opts).await;
    assert_eq!(report.tool_count, Some(30));
    assert_eq!(report.tool_names.len(), 10);
    assert_eq!(report.tool_names_first_25.len(), 10);
}

#[tokio::test]
async fn notification_answers_are_judged_on_status_alone() {
    for canned in [
        Canned::new(200).text("not even json"),
        Canned::new(204),
        Canned::json(
            202,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"ignored"}}"#,
        ),
    ] {
        let server = McpServer::start(replacing(NOTE, canned)).await;
        let report = session(&server).await;
        assert_eq!(report.verdict.outcome, Outcome::Pass, "{report:#?}");
        assert_eq!(
            report.requests[1].bytes, 0,
            "the notification's body is never read"
        );
    }
}

#[tokio::test]
async fn exchanges_are_kept_for_explain() {
    let server = McpServer::start(|seen: &Seen| match seen.rpc_method().as_deref() {
        Some(INIT) => plain_server(seen).header("mcp-session-id", "abc"),
        _ => plain_server(seen),
    })
    .await;
    let opts = SessionOptions {
        keep_exchanges: true,
        ..SessionOptions::default()
    };
    let report = session_with(&server, &opts).await;
    assert_eq!(report.verdict.outcome, Outcome::Pass);
    assert_eq!(report.exchanges.len(), 3);
    let [init, note, list] = &report.exchanges[..] else {
        panic!("three exchanges");
    };
    assert_eq!(init.purpose, INIT);
    assert_eq!(init.method, "POST");
    assert_eq!(init.body_sent, crate::session::initialize_body());
    assert!(init.headers_sent.contains(&(
        "accept".into(),
        "application/json, text/event-stream".into()
    )));
    // What the client adds is shown too: the transcript is what went out.
    assert!(init.headers_sent.iter().any(|(n, _)| n == "user-agent"));
    assert!(init
        .headers_sent
        .contains(&("accept-encoding".into(), "identity".into())));
    assert_eq!(init.status, Some(200));
    assert!(init.body_bytes > 0);
    assert!(init
        .body_excerpt
        .contains("\"protocolVersion\":\"2025-11-25\""));
    assert!(init
        .headers_received
        .contains(&("mcp-session-id".into(), "abc".into())));
    assert!(!note.body_read);
    assert!(note
        .headers_sent
        .contains(&("mcp-session-id".into(), "abc".into())));
    assert!(note
        .headers_sent
        .contains(&("mcp-protocol-version".into(), "2025-11-25".into())));
    assert!(list.body_read && list.body_excerpt.contains("tool_00"));
}

#[tokio::test]
async fn answers_are_read_by_their_body_not_their_label() {
    let server = McpServer::start(|seen: &Seen| match seen.rpc_method().as_deref() {
        // JSON labelled as an event stream, and an event stream with no label at all.
        Some(INIT) => Canned::new(200)
            .header("content-type", "text/event-stream")
            .text(init_result("2025-11-25", json!({"tools":{}}))),
        Some(LIST) => Canned::new(200).text(format!("data: {}\n\n", tools_result(1))),
        _ => plain_server(seen),
    })
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Pass,
        "tools/list names 1 tool (protocol version 2025-11-25)",
        false,
    );
}

#[tokio::test]
async fn waits_for_the_hosts_rate_do_not_count_against_the_sessions_time() {
    // One request a second to the host: the three POSTs wait 2 s for their turn in all, longer
    // than this session's 1.5 s; the server answers at once, so the session passes.
    let server = McpServer::start(plain_server).await;
    let net = crate::net::Net::new(crate::net::NetOptions {
        per_host_rps: 1.0,
        per_host_burst: std::num::NonZeroU32::MIN,
        ..super::server::net_options()
    })
    .expect("net");
    let site = net.site_client();
    let opts = SessionOptions {
        budget: Duration::from_millis(1500),
        ..SessionOptions::default()
    };
    let started = Instant::now();
    let deadline =
        crate::net::ServerDeadline::new(started + Duration::from_secs(60), site.waits().clone());
    let report = crate::session::run_session(&site, &server.endpoint(), &opts, &deadline).await;
    assert_verdict(
        &report,
        Outcome::Pass,
        "tools/list names 3 tools (protocol version 2025-11-25)",
        false,
    );
    assert!(started.elapsed() >= Duration::from_millis(1900));
    assert!(site.waits().total() >= Duration::from_millis(1900));
    assert_eq!(server.methods(), [INIT, NOTE, LIST]);
}
