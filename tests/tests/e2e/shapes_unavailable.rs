//! A site whose every `/.well-known/*` answers 503: each 503 is that document's answer, and the
//! site goes on to `/mcp` and the session without waiting out a host pause per document.

use std::process::ExitCode;

use mcpcensus_simweb::shapes::Shape;
use mcpcensus_simweb::SimWeb;
use mcpcensus_store::{DiscoveredVia, DocumentKind as K, Outcome};

use crate::util::{record_for, WebCrawl};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn well_known_503s_do_not_stall_the_site() {
    let shaped = Shape::WellKnownUnavailable.build("busy.test", true);
    let web = SimWeb::builder()
        .sites(shaped.sites.clone())
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl.run(&web, &[web.input("busy.test")], true, &[]).await;
    assert_eq!(code, ExitCode::SUCCESS);
    let r = record_for(&records, &web.origin("busy.test"));
    assert_eq!(
        (r.outcome, r.outcome_reason.as_str(), r.discovered_via),
        (
            Outcome::Pass,
            "tools/list names 1 tool (protocol version 2025-11-25)",
            Some(DiscoveredVia::McpPath)
        )
    );
    let docs: Vec<(K, Option<u16>, Option<&str>)> = r
        .documents
        .iter()
        .map(|d| (d.kind, d.status, d.note.as_deref()))
        .collect();
    let busy = (Some(503), Some("HTTP 503"));
    assert_eq!(
        docs,
        [
            (K::Home, Some(200), None),
            (K::ServerCard, busy.0, busy.1),
            (K::LegacyCard, busy.0, busy.1),
            (K::LegacyCard, busy.0, busy.1),
            (K::LegacyCard, busy.0, busy.1),
            (K::AiCatalog, busy.0, busy.1),
            (K::McpPath, Some(405), Some("allow_post")),
            (K::ApiCatalog, busy.0, busy.1),
            (K::AgentCard, busy.0, busy.1),
            (K::ProtectedResource, busy.0, busy.1),
            (K::AuthServer, busy.0, busy.1),
            // A document's bare 503 is no pause: the endpoint card is still asked for.
            (K::EndpointServerCard, Some(404), Some("HTTP 404")),
        ]
    );
    // Five 503s (nine now) each used to pause the host for the default 5 s before the next request
    // (discovery took 25 s, leaving too little of the 30 s deadline for the session); now
    // only politeness spaces them (about 2 s here; ample room for a busy machine).
    let discovery = r.timings.discovery_ms.unwrap();
    assert!(discovery < 12_000, "discovery took {discovery} ms");
    web.shutdown().await;
}
