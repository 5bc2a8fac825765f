//! The second look on the simulated web: a server that answers 503 to the first look's session
//! and recovers is looked at again near the end of the run and passes; one that stays down is
//! not measured twice; a 403 is the server's answer and is looked at once. The report counts
//! the sites looked at again and those that changed outcome.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mcpcensus_simweb::{RecordedRequest, Reply, SimWeb, Site};
use mcpcensus_store::{FailureKind, Outcome};
use serde_json::{json, Value};

use crate::util::{mcpcensus, record_for, WebCrawl};

/// An MCP endpoint at `/mcp` that answers `status` to the first `failures` initialize
/// requests, then serves one tool; GET answers 405 `Allow: POST` (the survey's `/mcp` signal).
fn endpoint(status: u16, failures: usize, inits: Arc<AtomicUsize>) -> Reply {
    Reply::handler(move |req: &RecordedRequest| {
        if req.method == "GET" {
            return Reply::status(405).header("allow", "POST");
        }
        let Ok(message) = serde_json::from_slice::<Value>(&req.body) else {
            return Reply::status(400);
        };
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        match message.get("method").and_then(Value::as_str) {
            Some("initialize") => {
                if inits.fetch_add(1, Ordering::SeqCst) < failures {
                    return Reply::text("try later").with_status(status);
                }
                Reply::rpc_result(
                    id,
                    json!({"protocolVersion": "2025-11-25",
                           "capabilities": {"tools": {}},
                           "serverInfo": {"name": "recovering", "version": "1.0.0"}}),
                )
            }
            Some("tools/list") => Reply::rpc_result(
                id,
                json!({"tools": [{"name": "echo", "description": "Echoes its input",
                                  "inputSchema": {"type": "object"}}]}),
            ),
            _ => Reply::accepted(),
        }
    })
}

fn site(host: &str, status: u16, failures: usize) -> (Site, Arc<AtomicUsize>) {
    let inits = Arc::new(AtomicUsize::new(0));
    let site = Site::new(host)
        .route("/", Reply::html("<!doctype html><title>Home</title>"))
        .route("/mcp", endpoint(status, failures, inits.clone()));
    (site, inits)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_down_at_the_first_look_is_looked_at_again_and_the_second_look_decides() {
    let (recovers, recovers_inits) = site("recovers.test", 503, 1);
    let (down, down_inits) = site("down.test", 503, usize::MAX);
    let (forbidden, forbidden_inits) = site("forbidden.test", 403, usize::MAX);
    let web = SimWeb::builder()
        .sites([recovers, down, forbidden])
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs: Vec<String> = ["recovers.test", "down.test", "forbidden.test"]
        .iter()
        .map(|h| web.input(h))
        .collect();
    let (code, manifest, records) = crawl
        .run(&web, &inputs, true, &["--second-look-delay", "1s"])
        .await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(records.len(), 3);

    let r = record_for(&records, &web.origin("recovers.test"));
    assert_eq!(r.outcome, Outcome::Pass, "{}", r.outcome_reason);
    let first = r.first_look.as_ref().expect("the first look is kept");
    assert_eq!(first.outcome, Outcome::NotMeasured);
    assert_eq!(first.reason_kind, Some(FailureKind::ServerError));
    assert!(
        first.requests.iter().any(|q| q.status == Some(503)),
        "the first look's requests are kept: {:?}",
        first.requests
    );
    assert!(
        r.scanned_at >= first.scanned_at + 1_000,
        "a second apart at least"
    );
    assert_eq!(recovers_inits.load(Ordering::SeqCst), 2);

    let r = record_for(&records, &web.origin("down.test"));
    assert_eq!(r.outcome, Outcome::NotMeasured);
    assert_eq!(
        r.first_look.as_ref().map(|f| f.outcome),
        Some(Outcome::NotMeasured)
    );
    assert_eq!(
        down_inits.load(Ordering::SeqCst),
        2,
        "never more than twice"
    );

    let r = record_for(&records, &web.origin("forbidden.test"));
    assert_eq!(r.outcome, Outcome::NotMeasured);
    assert!(r.first_look.is_none(), "a 403 is the server's answer");
    assert_eq!(forbidden_inits.load(Ordering::SeqCst), 1);

    let counts = crate::util::counts(&manifest);
    assert_eq!(
        (counts.second_looks, counts.second_looks_flipped),
        (2, 1),
        "{counts:?}"
    );

    // The report: two looked at again, one changed, by change.
    let out = crawl.path("store");
    let json_path = crawl.path("report.json");
    let code = mcpcensus(&[
        "report", "--from", &out, "--format", "json", "-o", &json_path,
    ])
    .await
    .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let looks = &report["run"]["second_look"];
    assert_eq!(looks["looked_again"], 2, "{looks}");
    assert_eq!(looks["flipped"], 1, "{looks}");
    assert_eq!(
        looks["changes"],
        json!([
            {"first": "not_measured", "second": "not_measured", "sites": 1},
            {"first": "not_measured", "second": "pass", "sites": 1},
        ])
    );
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_second_looks_the_first_look_is_the_record() {
    let (recovers, inits) = site("recovers.test", 503, 1);
    let web = SimWeb::builder().sites([recovers]).start().await.unwrap();
    let crawl = WebCrawl::new();
    let (code, manifest, records) = crawl
        .run(
            &web,
            &[web.input("recovers.test")],
            true,
            &["--no-second-look"],
        )
        .await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert_eq!(records[0].outcome, Outcome::NotMeasured);
    assert!(records[0].first_look.is_none());
    assert_eq!(inits.load(Ordering::SeqCst), 1);
    assert_eq!(crate::util::counts(&manifest).second_looks, 0);
    web.shutdown().await;
}
