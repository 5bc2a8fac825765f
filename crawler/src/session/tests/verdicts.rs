//! Sessions that fail or are not measured: one test per rule of the survey.

use std::time::Duration;

use mcpcensus_store::{FailureKind, Outcome};
use serde_json::json;
use tokio::time::Instant;

use super::script::{
    assert_verdict, init_result, plain_server, replacing, session, session_with, tools_result,
    INIT, LIST, NOTE,
};
use super::server::{site_client, Canned, McpServer, SessionServer};
use crate::net::ServerDeadline;
use crate::session::{can_open, run_session, SessionOptions, REDIRECT_REASON, SESSION_BUDGET};

#[tokio::test]
async fn a_401_with_a_challenge_is_partial_and_without_one_not_measured() {
    let challenge = r#"Bearer error="invalid_token", resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/mcp""#;
    let server = McpServer::start(replacing(
        INIT,
        Canned::json(401, r#"{"error":"invalid_token"}"#).header("www-authenticate", challenge),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Partial,
        "initialize answered 401 with a WWW-Authenticate challenge (Bearer): an agent can use it \
         with authorization",
        false,
    );
    assert_eq!(report.auth_challenge.as_deref(), Some(challenge));
    assert_eq!(report.requests[0].headers[1].name, "www-authenticate");
    assert_eq!(server.methods(), [INIT]);

    let server = McpServer::start(replacing(INIT, Canned::new(401))).await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::NotMeasured,
        "initialize answered 401 (unauthorized) without a WWW-Authenticate challenge: not measured",
        false,
    );
    assert_eq!(report.auth_challenge, None);

    // A challenge at a later step counts too.
    let server = McpServer::start(replacing(
        LIST,
        Canned::new(401).header("www-authenticate", "Bearer realm=\"mcp\""),
    ))
    .await;
    let report = session(&server).await;
    assert_eq!(report.verdict.outcome, Outcome::Partial, "{report:#?}");
    assert!(report
        .verdict
        .reason
        .starts_with("tools/list answered 401 with a WWW-Authenticate"));
}

#[tokio::test]
async fn a_401_names_every_challenge_read_and_one_without_any_is_not_measured() {
    // Two header lines, two challenges: both schemes are named.
    let server = McpServer::start(replacing(
        INIT,
        Canned::new(401)
            .header("www-authenticate", r#"Basic realm="a, b""#)
            .header(
                "www-authenticate",
                r#"bearer resource_metadata="https://mcp.test/prm""#,
            ),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Partial,
        "initialize answered 401 with a WWW-Authenticate challenge (Basic, bearer): an agent can \
         use it with authorization",
        false,
    );
    // A header that reads as no challenge at all is not one.
    let server = McpServer::start(replacing(
        INIT,
        Canned::new(401).header("www-authenticate", r#"="Bearer", ,"#),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::NotMeasured,
        "initialize answered 401 (unauthorized) with a WWW-Authenticate that names no challenge: \
         not measured",
        false,
    );
    assert_eq!(report.auth_challenge, None);
}

#[tokio::test]
async fn forbidden_and_too_many_requests_are_not_measured() {
    for (status, words) in [(403, "403 (forbidden)"), (429, "429 (too many requests)")] {
        let server = McpServer::start(replacing(
            INIT,
            Canned::json(
                status,
                r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no"}}"#,
            ),
        ))
        .await;
        let report = session(&server).await;
        assert_verdict(
            &report,
            Outcome::NotMeasured,
            &format!("initialize answered {words}: not measured"),
            false,
        );
        assert_eq!(server.methods(), [INIT]);
        // A 429 asks to come back later (a second look); a 403 is the server's answer.
        assert_eq!(report.verdict.transient, status == 429, "{status}");
    }
}

#[tokio::test]
async fn a_5xx_at_initialize_or_at_tools_list_is_not_measured() {
    let server = McpServer::start(replacing(INIT, Canned::new(500).text("oops"))).await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::NotMeasured,
        "initialize answered 500 (internal server error): not measured",
        false,
    );
    assert_eq!(server.methods(), [INIT]);
    assert!(report.verdict.transient, "a 5xx may pass");

    let server = McpServer::start(replacing(LIST, Canned::new(503))).await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::NotMeasured,
        "tools/list answered 503 (service unavailable): not measured",
        false,
    );
    // What initialize said is kept.
    assert_eq!(report.protocol_version.as_deref(), Some("2025-11-25"));
    assert_eq!(report.server_name.as_deref(), Some("weather"));
    assert_eq!(server.methods(), [INIT, NOTE, LIST]);
}

#[tokio::test]
async fn a_redirect_at_any_step_is_not_followed() {
    for (step, status, sent) in [
        (INIT, 307, vec![INIT]),
        (NOTE, 302, vec![INIT, NOTE]),
        (LIST, 308, vec![INIT, NOTE, LIST]),
    ] {
        let server = McpServer::start(replacing(
            step,
            Canned::new(status).header("location", "/other-mcp"),
        ))
        .await;
        let report = session(&server).await;
        assert_verdict(&report, Outcome::NotMeasured, REDIRECT_REASON, false);
        assert_eq!(report.verdict.reason, "redirects; not followed");
        assert_eq!(server.methods(), sent, "redirect at {step}");
        let last = report.requests.last().expect("a request");
        assert_eq!(last.status, Some(status));
        assert!(last
            .headers
            .iter()
            .any(|h| h.name == "location" && h.value == "/other-mcp"));
    }
}

#[tokio::test]
async fn an_html_page_fails_as_a_defect() {
    let server = McpServer::start(replacing(
        INIT,
        Canned::new(200)
            .header("content-type", "text/html; charset=utf-8")
            .text(
                "<!DOCTYPE html><html><head><title>Home</title></head><body>Welcome</body></html>",
            ),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Fail,
        "initialize answered 200 (ok) with an HTML page instead of JSON-RPC",
        true,
    );
    assert_eq!(server.methods(), [INIT]);

    // Sniffed from the body when the label is missing; a 404 HTML page fails on its status.
    let server = McpServer::start(replacing(
        INIT,
        Canned::new(404).text("\n  <html><body>Not here</body></html>"),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Fail,
        "initialize answered 404 (not found) with an HTML page",
        true,
    );
}

#[tokio::test]
async fn a_json_rpc_error_fails_as_a_defect() {
    let server = McpServer::start(replacing(
        INIT,
        Canned::json(
            200,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unsupported protocol version","data":{"supported":["2024-11-05"]}}}"#,
        ),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Fail,
        "initialize answered a JSON-RPC error: code -32602 \"Unsupported protocol version\"",
        true,
    );
    assert_eq!(server.methods(), [INIT]);

    // At tools/list, over SSE, with an error status.
    let server = McpServer::start(replacing(
        LIST,
        Canned::sse(
            "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n\n",
        ),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Fail,
        "tools/list answered a JSON-RPC error: code -32601 \"Method not found\"",
        true,
    );
}

#[tokio::test]
async fn a_server_that_speaks_only_newer_revisions_fails_with_its_own_reason_not_a_defect() {
    // The 2026-07-28 revision's refusal: 400 with -32022 naming what it supports; and the
    // pre-release code -32004 in a 200.
    for (status, code) in [(400, -32022), (200, -32004)] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":{code},"message":"Unsupported protocol version","data":{{"supported":["2026-07-28"],"requested":"2025-11-25"}}}}}}"#
        );
        let server = McpServer::start(replacing(INIT, Canned::json(status, &body))).await;
        let report = session(&server).await;
        let code_words = if status == 400 {
            "400 (bad request)"
        } else {
            "200 (ok)"
        };
        assert_verdict(
            &report,
            Outcome::Fail,
            &format!(
                "initialize answered {code_words}: the server speaks 2026-07-28 only (JSON-RPC \
                 error {code}), not the survey's 2025-11-25"
            ),
            false,
        );
        assert_eq!(
            report.verdict.kind,
            Some(mcpcensus_store::FailureKind::NewerRevisionOnly)
        );
    }
    // The same code naming an older revision too is an ordinary JSON-RPC error (a defect).
    let body = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"no","data":{"supported":["2026-07-28","2025-06-18"]}}}"#;
    let server = McpServer::start(replacing(INIT, Canned::json(400, body))).await;
    let report = session(&server).await;
    assert!(report.verdict.defect, "{}", report.verdict.reason);
    assert_eq!(
        report.verdict.kind,
        Some(mcpcensus_store::FailureKind::Answer)
    );
}

#[tokio::test]
async fn a_body_without_a_json_rpc_answer_fails_as_a_defect() {
    let cases = [
        (
            Canned::new(200).header("content-type", "text/plain").text("OK"),
            "initialize answered 200 (ok) with a body that is neither JSON nor an event stream: \
             no JSON-RPC answer",
        ),
        (
            Canned::json(200, r#"{"status":"ok"}"#),
            "initialize answered 200 (ok) with JSON that holds no JSON-RPC answer to the request: \
             no JSON-RPC answer",
        ),
        (
            Canned::json(200, r#"{"jsonrpc":"2.0","id":99,"result":{}}"#),
            "initialize answered 200 (ok) with JSON that holds no JSON-RPC answer to the request: \
             no JSON-RPC answer",
        ),
        (
            Canned::new(200),
            "initialize answered 200 (ok) with an empty body: no JSON-RPC answer",
        ),
        (
            Canned::sse("id: 0\ndata: \n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n"),
            "initialize answered 200 (ok) with an event stream that ended without an answer to \
             the request: no JSON-RPC answer",
        ),
    ];
    for (canned, reason) in cases {
        let server = McpServer::start(replacing(INIT, canned)).await;
        let report = session(&server).await;
        assert_verdict(&report, Outcome::Fail, reason, true);
        assert_eq!(server.methods(), [INIT]);
    }
}

#[tokio::test]
async fn other_error_statuses_fail() {
    for (status, words) in [
        (400, "400 (bad request)"),
        (404, "404 (not found)"),
        (405, "405 (method not allowed)"),
        (406, "406 (not acceptable)"),
        (415, "415 (unsupported media type)"),
    ] {
        let server = McpServer::start(replacing(
            INIT,
            Canned::new(status).header("allow", "GET").text("nope"),
        ))
        .await;
        let report = session(&server).await;
        assert_verdict(
            &report,
            Outcome::Fail,
            &format!("initialize answered {words}"),
            true,
        );
        assert_eq!(server.methods(), [INIT]);
    }
    // A JSON-RPC result in an error status does not count, and is not a defect.
    let server = McpServer::start(replacing(
        INIT,
        Canned::json(400, init_result("2025-11-25", json!({"tools":{}}))),
    ))
    .await;
    let report = session(&server).await;
    assert_verdict(
        &report,
        Outcome::Fail,
        "initialize answered 400 (bad request) with a JSON-RPC result, which counts only in a \
         2xx answer",
        false,
    );
}

#[tokio::test]
async fn an_answer_over_64_kb_is_cut_and_fails() {
    // 400 tools with long descriptions: well over 64 KB of JSON.
    let big: Vec<_> = (0..400)
        .map(|i| json!({"name": format!("t{i}"), "description": "x".repeat(300), "inputSchema": {"type":"object"}}))
        .collect();
    let body = json!({"jsonrpc":"2.0","id":2,"result":{"tools": big}}).to_string();
    assert!(body.len() > 100 * 1024);
    let server = McpServer::start(replacing(LIST, Canned::json(200, body.clone()))).await;
    let report = session(&server).await;
    assert_eq!(
        report.verdict.outcome,
        Outcome::Fail,
        "{}",
        report.verdict.reason
    );
    assert!(
        report.verdict.defect,
        "the survey: no JSON-RPC result, a defect"
    );
    assert_eq!(report.verdict.kind, Some(FailureKind::BodyCap));
    // The tool names complete in the first 64 KB are kept, in order.
    let read = report.tool_names.len();
    assert!((150..400).contains(&read), "{read} names read");
    let expected: Vec<String> = (0..read).map(|i| format!("t{i}")).collect();
    assert_eq!(report.tool_names, expected);
    assert_eq!(report.tool_names_first_25.0, expected[..25]);
    assert_eq!(report.tool_count, None, "the list was not read whole");
    assert_eq!(
        report.verdict.reason,
        format!(
            "tools/list answered 200 (ok) with an answer over 64 KB: the first 64 KB hold no \
             complete JSON-RPC answer ({read} tool names read in them)"
        )
    );
    assert_eq!(report.requests[2].bytes, 64 * 1024);

    // The same list as one event of a stream: its names are read the same way.
    let server = McpServer::start(replacing(
        LIST,
        Canned::sse(format!("event: message\ndata: {body}\n\n")),
    ))
    .await;
    let report = session(&server).await;
    assert_eq!(report.verdict.kind, Some(FailureKind::BodyCap));
    assert!(report.tool_names.len() >= 150, "{}", report.verdict.reason);
    assert_eq!(report.tool_names[0], "t0");

    // The same size over SSE, padded with notifications before the answer.
    let note = format!(
        "event: message\ndata: {}\n\n",
        json!({"jsonrpc":"2.0","method":"notifications/message","params":{"data":"y".repeat(1000)}})
    );
    let stream = format!(
        "{}event: message\ndata: {}\n\n",
        note.repeat(70),
        tools_result(1)
    );
    let server = McpServer::start(replacing(LIST, Canned::sse(stream))).await;
    let report = session(&server).await;
    assert_eq!(report.verdict.outcome, Outcome::Fail, "{report:#?}");
    assert!(
        report.verdict.reason.contains("over 64 KB"),
        "{}",
        report.verdict.reason
    );
    assert!(report.tool_names.is_empty(), "only notifications were read");
}

#[tokio::test]
async fn a_server_slower_than_the_session_budget_is_not_measured() {
    let opts = SessionOptions {
        budget: Duration::from_millis(1500),
        ..SessionOptions::default()
    };
    // Slow to send the head of initialize.
    let server = McpServer::start(replacing(
        INIT,
        Canned::json(200, init_result("2025-11-25", json!({"tools":{}})))
            .head_delay(Duration::from_secs(5)),
    ))
    .await;
    let started = Instant::now();
    let report = session_with(&server, &opts).await;
    let elapsed = started.elapsed();
    assert_verdict(
        &report,
        Outcome::NotMeasured,
        "the session's 1.5 s limit ran out waiting for initialize's answer: not measured",
        false,
    );
    assert!(elapsed < Duration::from_secs(4), "took {elapsed:?}");
    assert!(report.requests[0].error.is_some());

    // A tools/list stream that never carries the answer: the limit covers the whole session.
    let server = McpServer::start(replacing(LIST, Canned::sse("id: 0\ndata: \n\n").hold())).await;
    let started = Instant::now();
    let report = session_with(&server, &opts).await;
    assert_verdict(
        &report,
        Outcome::NotMeasured,
        "the session's 1.5 s limit ran out waiting for tools/list's answer: not measured",
        false,
    );
    assert!(started.elapsed() < Duration::from_secs(4));
    assert_eq!(server.methods(), [INIT, NOTE, LIST]);
}

#[tokio::test]
async fn too_little_time_left_sends_nothing() {
    assert_eq!(SESSION_BUDGET, Duration::from_secs(12));
    assert_eq!(SessionOptions::default().budget, SESSION_BUDGET);
    let now = Instant::now();
    assert!(can_open(now, now + SESSION_BUDGET));
    assert!(can_open(now, now + Duration::from_secs(30)));
    assert!(!can_open(
        now,
        now + SESSION_BUDGET - Duration::from_millis(1)
    ));
    assert!(!can_open(now + Duration::from_secs(1), now));

    let server = McpServer::start(plain_server).await;
    let site = site_client();
    let deadline = ServerDeadline::after(Duration::from_secs(11), site.waits().clone());
    let report = run_session(
        &site,
        &server.endpoint(),
        &SessionOptions::default(),
        &deadline,
    )
    .await;
    assert_verdict(
        &report,
        Outcome::NotMeasured,
        "too little time left in the scan to open the 12 s session: not measured",
        false,
    );
    assert!(report.requests.is_empty());
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(server.seen().is_empty());
}

#[tokio::test]
async fn a_guard_refusal_or_no_answer_is_not_measured() {
    let server = McpServer::start(plain_server).await;
    let net = crate::net::Net::new(crate::net::NetOptions {
        allow_nets: Vec::new(),
        ..super::server::net_options()
    })
    .expect("net");
    let site = net.site_client();
    let deadline = ServerDeadline::after(Duration::from_secs(60), site.waits().clone());
    let report = run_session(
        &site,
        &server.endpoint(),
        &SessionOptions::default(),
        &deadline,
    )
    .await;
    assert_verdict(
        &report,
        Outcome::NotMeasured,
        "the scanner's guard refused to send initialize: the endpoint's address 127.0.0.1 is \
         not public (loopback): not measured",
        false,
    );
    assert!(server.seen().is_empty());
    assert_eq!(report.requests.len(), 1);
    assert_eq!(report.requests[0].status, None);

    // Nobody listening: connection refused.
    let closed = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let endpoint =
        url::Url::parse(&format!("http://{}:{closed}/mcp", super::server::HOST)).expect("url");
    let site = site_client();
    let deadline = ServerDeadline::after(Duration::from_secs(60), site.waits().clone());
    let report = run_session(&site, &endpoint, &SessionOptions::default(), &deadline).await;
    assert_verdict(
        &report,
        Outcome::NotMeasured,
        "initialize got no answer (connection refused): not measured",
        false,
    );
}
