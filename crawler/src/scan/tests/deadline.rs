//! A site deadline past what `Instant` holds is as good as none: the scan runs, never panics.

use std::sync::Arc;

use mcpcensus_store::Outcome;
use tokio::time::Duration;

use super::{survey_settings, SITE};
use crate::input::{Exclusions, Target};
use crate::net::Net;
use crate::scan::{ScanOptions, SiteJob, SiteScanner};
use crate::testkit::net_options;

#[tokio::test]
async fn a_site_deadline_past_what_instant_holds_does_not_panic() {
    let net = Net::new(net_options(&[SITE], None)).expect("net");
    let settings = survey_settings(Duration::MAX);
    let scanner = SiteScanner::new(net, settings, Arc::new(Exclusions::default()));
    // Port 1 on loopback: refused at once.
    let job = SiteJob {
        target: Target {
            origin: format!("https://{SITE}:1"),
            host: SITE.to_owned(),
            port: 1,
            registrable_domain: SITE.to_owned(),
            rank: None,
        },
        input: SITE.to_owned(),
        input_line: 1,
        registry: None,
        listed: None,
        second_look: false,
    };
    let crate::scan::Scanned::Recorded(scanned) =
        scanner.scan_site(&job, "run", ScanOptions::default()).await
    else {
        panic!("held without a seat");
    };
    let record = scanned.record;
    assert_eq!(
        record.outcome,
        Outcome::Unreachable,
        "{}",
        record.outcome_reason
    );
}
