//! The probe's time is the server's: a wait for the host's turn does not use it up.

use std::num::NonZeroU32;
use std::time::Duration;

use serde_json::json;
use tokio::time::Instant;
use url::Url;

use crate::net::{Net, NetOptions, ServerDeadline};
use crate::probe::run_probe;
use crate::testkit::{net_options, Canned, Mode, Seen, TestPki, TestServer};

const HOST: &str = "mcp.test";

/// A modern server: `server/discover` names 2026-07-28, `tools/list` one tool.
fn modern(seen: &Seen) -> Canned {
    let (id, result) = match seen.rpc_method().as_deref() {
        Some("server/discover") => (
            1,
            json!({"supportedVersions": ["2026-07-28"], "capabilities": {}}),
        ),
        Some("tools/list") => (2, json!({"tools": [{"name": "echo", "inputSchema": {}}]})),
        _ => return Canned::new(400),
    };
    Canned::json(
        200,
        json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
    )
}

#[tokio::test]
async fn waits_for_the_hosts_rate_do_not_count_against_the_probes_time() {
    // One request a second to the host: `tools/list` waits 1 s for its turn, longer than the
    // probe's 0.6 s; the server answers at once, so the probe still lists the tools.
    let pki = TestPki::for_names(&[HOST]);
    let server = TestServer::start_tls(&pki, Mode::TlsH1, modern).await;
    let net = Net::new(NetOptions {
        per_host_rps: 1.0,
        per_host_burst: NonZeroU32::MIN,
        ..net_options(&[HOST], Some(&pki))
    })
    .expect("net");
    let site = net.site_client();
    let endpoint = Url::parse(&format!("https://{HOST}:{}/mcp", server.addr.port())).expect("url");
    let started = Instant::now();
    let budget = Duration::from_millis(600);
    let deadline = ServerDeadline::new(started + budget, site.waits().clone());
    let report = run_probe(&site, &endpoint, &deadline, false).await;
    assert!(report.facts.tools.answered, "{:?}", report.facts);
    assert_eq!(report.facts.note, None);
    let methods: Vec<_> = server.seen().iter().filter_map(Seen::rpc_method).collect();
    assert_eq!(methods, ["server/discover", "tools/list"]);
    // The wait alone outlasted the budget: a fixed instant would have ended the probe.
    assert!(site.waits().total() > budget, "{:?}", site.waits().total());
    assert!(started.elapsed() > budget);
}
