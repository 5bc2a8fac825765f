//! The scan future that every site in flight holds stays small: the session's and the deep
//! probe's state are boxed (only a site with an endpoint needs them), and so is the scan's
//! work (moved into the deadline's future, it would otherwise be stored twice). Unboxed, the
//! future was 55 KB in a release build (20 KB in a debug one); boxed, 2 KB (4 KB), plus 8 KB
//! of work on the heap. The phases' results box their larger parts (2.1 KB inline, 0.4 KB),
//! and the work is as large as one GET's future plus the documents' state: a deadline that
//! held its work twice, or another origin's robots.txt read inline, made it 7.3 KB (5.2 KB
//! without them, 3.8 KB with each GET's fetch boxed, in a release build).

use std::num::NonZeroUsize;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use mcpcensus_store::Outcome;
use tokio::time::Duration;
use url::Url;

use super::SITE;
use crate::config::{Probe, Robots};
use crate::input::Exclusions;
use crate::net::{Net, ServerDeadline};
use crate::scan::phases::{Context, Phases};
use crate::scan::site::SiteScan;
use crate::scan::{ScanOptions, ScanSettings, Seat, SiteJob, SiteScanner};
use crate::testkit::net_options;

struct NoSeat;

impl Seat for NoSeat {
    fn leave(&self, _ip: std::net::IpAddr) -> bool {
        true
    }
    fn back(&self) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        Box::pin(async {})
    }
}

fn settings() -> ScanSettings {
    ScanSettings {
        site_deadline: Duration::from_secs(30),
        document_cap: 1 << 20,
        tools_cap: NonZeroUsize::new(200).expect("nonzero"),
        probe: Probe::Deep,
        readiness: true,
        robots: Robots::Respect,
    }
}

#[test]
fn the_scan_future_a_site_in_flight_holds_stays_small() {
    let net = Net::new(net_options(&[SITE], None)).expect("net");
    let scanner = SiteScanner::new(net, settings(), Arc::new(Exclusions::default()));
    let job = SiteJob::registry(SITE, SITE, 1);
    let opts = ScanOptions {
        seat: Some(Arc::new(NoSeat)),
        ..ScanOptions::default()
    };
    let future = scanner.scan_site(&job, "run", opts);
    let size = std::mem::size_of_val(&future);
    // 3 KB: the record (1.2 KB) and the phases' results (0.4 KB) with room to grow; the
    // phases' results inline made it 4.4 KB.
    assert!(size <= 3 * 1024, "the scan future is {size} bytes");
}

#[test]
fn the_work_a_site_in_flight_holds_stays_small() {
    let net = Net::new(net_options(&[SITE], None)).expect("net");
    let settings = settings();
    let exclusions = Exclusions::default();
    let warned = AtomicBool::new(false);
    let ctx = Context {
        net: &net,
        settings: &settings,
        exclusions: &exclusions,
        warned_contact: &warned,
    };
    let job = SiteJob::registry(SITE, SITE, 1);
    let origin = Url::parse(&format!("https://{SITE}/")).expect("url");
    let client = net.site_client();
    let deadline = ServerDeadline::after(Duration::from_secs(30), client.waits().clone());
    let mut site = SiteScan::new(
        job.record("run", crate::verdict::Verdict::of(Outcome::Pass, "")),
        client,
        deadline,
        origin,
    );
    let opts = ScanOptions::default();
    let mut phases = Phases::default();
    let work = ctx.phases(&mut site, &opts, &mut phases);
    let size = std::mem::size_of_val(&work);
    // 4.5 KB: the documents' state around a GET whose fetch is boxed. A deadline future that
    // held its work twice and another origin's robots.txt read inline made it 7.3 KB; each
    // GET's fetch inline, 5.0 KB (and that many bytes copied as each GET was awaited).
    assert!(size <= 4608, "the phases' future is {size} bytes");
}
