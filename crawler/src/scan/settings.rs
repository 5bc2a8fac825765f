//! What a scan is asked to do: the crawl's settings for every scan, and one scan's options.

use std::sync::Arc;
use std::time::Duration;

use url::Url;

use super::job::Seat;
use crate::config::{Probe, Robots};
use crate::net::ServerDeadline;

/// What a scan needs besides the network.
#[derive(Debug, Clone)]
pub struct ScanSettings {
    pub site_deadline: Duration,
    pub document_cap: usize,
    pub tools_cap: std::num::NonZeroUsize,
    pub probe: Probe,
    /// The readiness level's phase runs after the survey's.
    pub readiness: bool,
    pub robots: Robots,
}

/// How one scan runs.
#[derive(Clone, Default)]
pub struct ScanOptions {
    /// Keep every request and answer in full, in the order sent (`mcpcensus check
    /// --explain`); the crawl keeps only the record's compact request log.
    pub transcript: bool,
    /// Scan this endpoint as given (a registry entry's remote): no discovery, the survey's
    /// session and, when deep, the probe.
    pub endpoint: Option<Url>,
    /// The crawl's place among the sites scanned at once: given up while the scan waits its
    /// turn on a shared address.
    pub seat: Option<Arc<dyn Seat>>,
    /// A crawl's probes by endpoint URL: a registry remote another entry named is probed
    /// once (`shared_probe.rs`); `None` probes every remote (`check`).
    pub shared: Option<Arc<super::SharedProbes>>,
    /// The site deadline when it started before the scan (`check NAME --registry`: the
    /// lookup ran inside it); `None` starts one of the settings' length with the scan.
    pub deadline: Option<ServerDeadline>,
}
