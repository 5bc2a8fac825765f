//! Slow and trickling sites: a homepage whose headers come late (within and past the crawler's
//! 10 s per document) and one whose body trickles in. The homepage's record says what was read
//! or the exact timeout; the MCP server behind it is still measured when the site deadline
//! leaves the session its 12 s, and is not measured with the reason when it does not.

use std::process::ExitCode;

use mcpcensus_simweb::shapes::{Shape, ShapedSite};
use mcpcensus_simweb::SimWeb;
use mcpcensus_store::{DocumentKind, Outcome, Record};

use crate::util::{record_for, WebCrawl};

/// The homepage's log as (status, bytes, note), with the web's port as `PORT`.
fn home(web: &SimWeb, r: &Record) -> (Option<u16>, u64, Option<String>) {
    let doc = r
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::Home)
        .unwrap();
    let port = format!(":{}", web.port());
    let note = doc.note.as_deref().map(|n| n.replace(&port, ":PORT"));
    (doc.status, doc.bytes, note)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_homepages_have_their_records() {
    let shaped: Vec<ShapedSite> = [
        (Shape::SlowHome, "slow.test"),
        (Shape::StalledHome, "stalled.test"),
        (Shape::TrickleHome, "trickle.test"),
        (Shape::StalledHome, "short.test"),
    ]
    .into_iter()
    .map(|(shape, host)| shape.build(host, true))
    .collect();
    let web = SimWeb::builder()
        .sites(shaped.iter().flat_map(|s| s.sites.clone()))
        .start()
        .await
        .unwrap();
    let long = ["slow.test", "stalled.test", "trickle.test"].map(|h| web.input(h));
    let short = [web.input("short.test")];
    // Two crawls at once: the default 30 s deadline, and 20 s for the stalled homepage.
    let (full, tight) = (WebCrawl::new(), WebCrawl::new());
    let ((code, _, records), (tight_code, _, tight_records)) = tokio::join!(
        full.run(&web, &long, true, &[]),
        tight.run(&web, &short, true, &["--site-deadline", "20"]),
    );
    assert_eq!((code, tight_code), (ExitCode::SUCCESS, ExitCode::SUCCESS));
    let pass = "tools/list names 1 tool (protocol version 2025-11-25)";
    let timed_out =
        |host: &str, phase: &str| Some(format!("https://{host}:PORT/: timed out ({phase})"));

    // Headers after 4 s: read, and the server measured.
    let slow = record_for(&records, &web.origin("slow.test"));
    assert_eq!(
        (slow.outcome, slow.outcome_reason.as_str()),
        (Outcome::Pass, pass)
    );
    assert_eq!(home(&web, slow), (Some(200), 80, None));

    // Headers after 15 s: the homepage's 10 s pass, the documents and the session still fit.
    let stalled = record_for(&records, &web.origin("stalled.test"));
    assert_eq!(
        (stalled.outcome, stalled.outcome_reason.as_str()),
        (Outcome::Pass, pass)
    );
    assert_eq!(
        home(&web, stalled),
        (None, 0, timed_out("stalled.test", "headers"))
    );

    // A body at 16 bytes a second: cut at the homepage's 10 s, the server still measured.
    let trickle = record_for(&records, &web.origin("trickle.test"));
    assert_eq!(
        (trickle.outcome, trickle.outcome_reason.as_str()),
        (Outcome::Pass, pass)
    );
    assert_eq!(
        home(&web, trickle),
        (None, 0, timed_out("trickle.test", "body"))
    );

    // With 20 s the stalled homepage leaves under 12 s for the session: not measured, saying so.
    let short = record_for(&tight_records, &web.origin("short.test"));
    assert_eq!(
        (short.outcome, short.outcome_reason.as_str()),
        (
            Outcome::NotMeasured,
            "too little time left in the scan to open the 12 s session: not measured"
        )
    );
    assert!(short.endpoint.is_some());
    web.shutdown().await;
}
