//! A real EMFILE in a crawl: the OS refuses a socket while every descriptor under a low limit
//! is taken, the net layer types it from the error number, and the run scans the site again
//! instead of recording it; the site's record is its own verdict. In a child process (this
//! test binary run again), so the low limit starves no other test.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mcpcensus_store::{FailureKind, Outcome};

use super::tests::{job, list};
use super::*;
use crate::config::{Probe, Robots};
use crate::input::Exclusions;
use crate::net::{Net, NetOptions};
use crate::scan::{ScanSettings, Scanned, SiteScanner};

const CHILD: &str = "MCPCENSUS_TEST_RUN_EMFILE_CHILD";
const NAME: &str = "run::tests_emfile::a_real_emfile_is_retried_and_never_a_verdict";
/// The open-files limit in the child.
const LIMIT: u64 = 256;

#[test]
fn a_real_emfile_is_retried_and_never_a_verdict() {
    if std::env::var_os(CHILD).is_some() {
        return in_child();
    }
    crate::testkit::pass_in_child(NAME, CHILD);
}

/// The real scanner, but its first scan runs with every free descriptor held.
struct Starved {
    inner: SiteScanner,
    first: AtomicBool,
}

impl Scanner for Starved {
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        seat: Arc<dyn Seat>,
    ) -> ScanFuture<'a> {
        Box::pin(async move {
            let held = if self.first.swap(false, Ordering::SeqCst) {
                take_every_descriptor()
            } else {
                Vec::new()
            };
            let scanned: Scanned = self.inner.scan(job, run_id, seat).await;
            drop(held);
            scanned
        })
    }

    fn dns_stalls(&self) -> u64 {
        0
    }
}

fn take_every_descriptor() -> Vec<std::fs::File> {
    let mut held = Vec::new();
    while let Ok(file) = std::fs::File::open("/dev/null") {
        held.push(file);
        assert!(held.len() as u64 <= LIMIT, "the limit did not hold");
    }
    held
}

fn in_child() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    // A port nothing listens on: once descriptors are free again, the site refuses.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let localhost = std::net::IpAddr::from([127, 0, 0, 1]);
    let net = Net::new(NetOptions {
        static_hosts: std::collections::HashMap::from([("site.test".to_owned(), vec![localhost])]),
        allow_nets: vec!["127.0.0.0/8".parse().expect("net")],
        nameservers: vec!["127.0.0.1:9".parse().expect("addr")],
        ..NetOptions::default()
    })
    .expect("net");
    let settings = ScanSettings {
        site_deadline: Duration::from_secs(60),
        document_cap: 64 * 1024,
        tools_cap: std::num::NonZeroUsize::new(100).expect("non-zero"),
        probe: Probe::Survey,
        readiness: false,
        robots: Robots::Respect,
    };
    let scanner = Arc::new(Starved {
        inner: SiteScanner::new(net, settings, Arc::new(Exclusions::default())),
        first: AtomicBool::new(true),
    });
    let dir = tempfile::tempdir().expect("dir");
    let sources = list(dir.path(), &[&format!("site.test:{port}")]);
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = Rlimit {
        current: Some(LIMIT),
        maximum: getrlimit(Resource::Nofile).maximum,
    };
    setrlimit(Resource::Nofile, limit).expect("setrlimit");
    let sink = MemorySink::default();
    let out = sink.records.clone();
    let summary = runtime
        .block_on(crawl(
            job(sources, Some(scanner), sink),
            Shutdown::default(),
        ))
        .expect("crawl");
    assert_eq!(summary.ending, Ending::Complete);
    assert_eq!(
        summary.local_retries, 1,
        "the starved scan was retried once"
    );
    let records = out.lock().expect("records").clone();
    assert_eq!(records.len(), 1);
    let site = &records[0];
    assert_eq!(
        site.outcome,
        Outcome::Unreachable,
        "{}",
        site.outcome_reason
    );
    assert_eq!(
        site.reason_kind,
        Some(FailureKind::Connect),
        "{}",
        site.outcome_reason
    );
    assert!(site
        .requests
        .iter()
        .all(|q| q.error_kind != Some(FailureKind::LocalResource)));
}
