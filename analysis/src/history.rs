//! One run's point on the trend, counted from its records (the same counts the ClickHouse
//! history queries make): outcomes, scanned sites, endpoints and passing sites, with each
//! platform counted once too, and the earliest scan as the time axis.

use std::collections::HashMap;

use mcpcensus_store::{format_timestamp, Outcome, Record};

use crate::aggregate::{is_platform_candidate, scanned, server_fingerprint};
use crate::model::{Adoption, HistoryPoint};

#[derive(Debug, Default)]
pub struct HistoryAcc {
    point: HistoryPoint,
    /// Sites and passing sites per server fingerprint.
    fingerprints: HashMap<String, (u64, u64)>,
}

impl HistoryAcc {
    pub fn add(&mut self, r: &Record) {
        let p = &mut self.point;
        p.sites_read += 1;
        *p.outcomes.entry(r.outcome.as_str().to_owned()).or_default() += 1;
        if !scanned(r.outcome) {
            return;
        }
        p.sites_scanned += 1;
        p.first_scan_ms = Some(
            p.first_scan_ms
                .map_or(r.scanned_at, |t| t.min(r.scanned_at)),
        );
        if r.endpoint.is_none() {
            return;
        }
        let pass = u64::from(r.outcome == Outcome::Pass);
        p.endpoints += 1;
        p.passing += pass;
        if is_platform_candidate(r) {
            let e = self.fingerprints.entry(server_fingerprint(r)).or_default();
            e.0 += 1;
            e.1 += pass;
        }
    }

    pub fn finish(self, run_id: &str, platform_min_sites: u64) -> HistoryPoint {
        let mut p = self.point;
        p.run_id = run_id.to_owned();
        p.first_scan_at = p.first_scan_ms.map(format_timestamp);
        let platforms = self
            .fingerprints
            .into_values()
            .filter(|(sites, _)| *sites >= platform_min_sites);
        let a = Adoption::counted(p.endpoints, p.passing, platforms);
        p.endpoints_platforms_once = a.endpoints_platforms_once;
        p.passing_platforms_once = a.passing_platforms_once;
        p
    }
}

/// The point of one run from its records.
pub fn history_point<E>(
    run_id: &str,
    records: impl Iterator<Item = Result<Record, E>>,
    platform_min_sites: u64,
) -> Result<HistoryPoint, E> {
    let mut acc = HistoryAcc::default();
    for r in records {
        acc.add(&r?);
    }
    Ok(acc.finish(run_id, platform_min_sites))
}
