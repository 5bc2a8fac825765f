//! HTTP/2 faults (`hostile::h2_faults`): GOAWAY and RST_STREAM on the MCP POST, a send window
//! that never opens, SETTINGS and CONTINUATION floods, GOAWAY before any answer. Each site
//! gets its explicit record, the crawl goes on (the control site passes), the crawler opens no
//! more connections than it made requests (no retry storm), and its costs stay bounded.

use mcpcensus_simweb::hostile;
use mcpcensus_store::{Outcome, Record};

use super::{assert_bounded, crawl_hostile_with, why, CPU_BOUND, RSS_BOUND};

fn assert_not_measured(r: &Record, reason: &str) {
    assert_eq!(r.outcome, Outcome::NotMeasured, "{}", why(r));
    assert!(r.outcome_reason.contains(reason), "{}", why(r));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_http2_faults() {
    let sites = hostile::h2_faults();
    let hosts: Vec<_> = sites
        .iter()
        .map(|s| (s.name().to_owned(), s.ipv4()))
        .collect();
    let names: Vec<&str> = hosts.iter().map(|(n, _)| n.as_str()).collect();
    // HTTP/2 is offered only when asked for; these faults are what an operator who asks for it
    // meets.
    let c = crawl_hostile_with(sites, vec![], &names, None, &["--http", "http2"]).await;
    assert_bounded(&c.usage, RSS_BOUND, CPU_BOUND);
    for (name, ip) in &hosts {
        let r = c.record(name);
        let conns = c.web.connections(*ip);
        eprintln!("{name}: {} | {conns:?}", why(r));
        // At most one connection per request the record lists: a fault never makes the
        // client retry in a loop.
        assert!(conns.accepted >= 1, "{name}: {conns:?}");
        assert!(
            conns.accepted <= r.requests.len() as u64,
            "{name}: {} connections for {} requests",
            conns.accepted,
            r.requests.len()
        );
        let label = name.split('.').next().unwrap_or_default();
        let home = c.web.url(name, "/");
        let home_answered = r
            .requests
            .iter()
            .any(|q| q.url == home && q.status == Some(200));
        match label {
            // The fault meets the survey's session: the homepage named /mcp and was read.
            "goaway" => {
                assert!(home_answered, "{name}");
                assert_not_measured(r, "initialize got no answer (connection reset)");
            }
            "reset" => {
                assert!(home_answered, "{name}");
                assert_not_measured(r, "initialize got no answer");
                assert!(r.outcome_reason.contains("refused stream"), "{}", why(r));
            }
            "zero-window" => {
                assert!(home_answered, "{name}");
                assert_not_measured(r, "initialize");
            }
            // No answer at all: every request failed on the connection.
            _ => {
                assert!(r.requests.iter().all(|q| q.status.is_none()), "{name}");
                assert_not_measured(r, "got no answer");
            }
        }
    }
}
