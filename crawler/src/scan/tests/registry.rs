//! `check NAME --registry`: the lookup runs inside the site's one deadline, so its time is
//! the scan's, not a second deadline's.

use std::sync::Arc;

use tokio::time::{Duration, Instant};

use super::{on, origin, server, survey_settings, OTHER, SITE, WWW};
use crate::input::Exclusions;
use crate::net::Net;
use crate::scan::{SiteJob, SiteScanner};
use crate::testkit::{net_options, Canned};

const NAME: &str = "com.example/slow";

// On the real clock: a paused one jumps to the next timer while the loopback handshake is
// under way, as no task is ready then.
#[tokio::test]
async fn a_slow_lookup_spends_the_sites_deadline_not_a_second_one() {
    // The registry (on `other.test`) answers after 1 s; its entry's remote is on `site.test`.
    let (server, pki) = server(|seen| {
        if seen.path.starts_with("/v0.1/servers") {
            let remote = on(seen, SITE, "/mcp");
            let entry = serde_json::json!({"servers": [{"server": {
                "name": NAME,
                "remotes": [{"type": "streamable-http", "url": remote}],
            }}]});
            Canned::json(200, entry.to_string()).head_delay(Duration::from_secs(1))
        } else {
            Canned::json(500, "{}")
        }
    })
    .await;
    let net = Net::new(net_options(&[SITE, WWW, OTHER], Some(&pki))).expect("net");
    // 12.5 s: the session's 12 s fit a fresh site deadline, but not what the lookup leaves.
    let site_deadline = Duration::from_millis(12_500);
    let settings = survey_settings(site_deadline);
    let scanner = SiteScanner::new(net, settings, Arc::new(Exclusions::default()));
    let job = SiteJob::registry(NAME, NAME, 1);
    let started = Instant::now();
    let registry = origin(&server, OTHER);
    let scan = scanner
        .scan_registry(&job, NAME, &registry, "run", false)
        .await;
    let record = scan.result.expect("a record").record;
    assert!(
        record
            .outcome_reason
            .contains("too little time left in the scan to open the 12 s session"),
        "{}",
        record.outcome_reason
    );
    let posts = server.seen().iter().filter(|s| s.method == "POST").count();
    assert_eq!(posts, 0, "the session opened on a second deadline");
    assert!(started.elapsed() < site_deadline);
}

// Intake looks names up from its own thread, off the runtime: the lookup's deadline must be
// made inside the runtime it blocks on (a timer made outside one panics, and the run with it).
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn intakes_thread_looks_a_name_up_under_the_server_deadline() {
    let (server, pki) = server(|seen| {
        let remote = on(seen, SITE, "/mcp");
        let entry = serde_json::json!({"servers": [{"server": {
            "name": NAME,
            "remotes": [{"type": "streamable-http", "url": remote}],
        }}]});
        Canned::json(200, entry.to_string())
    })
    .await;
    let net = Net::new(net_options(&[SITE, WWW, OTHER], Some(&pki))).expect("net");
    let source =
        crate::scan::RegistrySource::new(&net, &origin(&server, OTHER), Duration::from_secs(30));
    let looked_up = tokio::task::spawn_blocking(move || {
        std::thread::spawn(move || source.lookup(NAME))
            .join()
            .map_err(|_| "the lookup panicked on intake's thread")
    })
    .await
    .expect("joined");
    let resolved = looked_up.expect("no panic").expect("the name resolves");
    let crate::probe::Resolved::Remotes(remotes) = resolved else {
        panic!("{resolved:?}: expected the entry's remote");
    };
    assert_eq!(remotes.len(), 1);
    assert!(remotes[0].url.ends_with("/mcp"), "{:?}", remotes[0]);
}
