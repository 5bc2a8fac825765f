//! The scan future that every site in flight holds stays small: the session's and the deep
//! probe's state are boxed (only a site with an endpoint needs them), and so is the scan's
//! work (moved into the deadline's future, it would otherwise be stored twice). Unboxed, the
//! future was 55 KB in a release build (20 KB in a debug one); boxed, 2 KB (4 KB), plus 8 KB
//! of work on the heap.

use std::num::NonZeroUsize;
use std::sync::Arc;

use tokio::time::Duration;

use super::SITE;
use crate::config::{Probe, Robots};
use crate::input::Exclusions;
use crate::net::Net;
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

#[test]
fn the_scan_future_a_site_in_flight_holds_stays_small() {
    let net = Net::new(net_options(&[SITE], None)).expect("net");
    let settings = ScanSettings {
        site_deadline: Duration::from_secs(30),
        document_cap: 1 << 20,
        tools_cap: NonZeroUsize::new(200).expect("nonzero"),
        probe: Probe::Deep,
        readiness: false,
        robots: Robots::Respect,
    };
    let scanner = SiteScanner::new(net, settings, Arc::new(Exclusions::default()));
    let job = SiteJob::registry(SITE, SITE, 1);
    let opts = ScanOptions {
        seat: Some(Arc::new(NoSeat)),
        ..ScanOptions::default()
    };
    let future = scanner.scan_site(&job, "run", opts);
    let size = std::mem::size_of_val(&future);
    // 8 KB: room for the record to grow, and well below the unboxed 20 KB of a debug build.
    assert!(size <= 8 * 1024, "the scan future is {size} bytes");
}
