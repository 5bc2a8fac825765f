//! The sink's counts as it goes, readable from other threads (the crawl's metrics).

/// [`SinkStats`] as the sink goes, readable from other threads (metrics).
#[derive(Debug, Default, serde::Serialize)]
pub struct LiveSinkStats {
    pub batches: std::sync::atomic::AtomicU64,
    pub failed_attempts: std::sync::atomic::AtomicU64,
    pub spooled: std::sync::atomic::AtomicU64,
    pub drained: std::sync::atomic::AtomicU64,
    pub outages: std::sync::atomic::AtomicU64,
}

impl LiveSinkStats {
    pub(crate) fn publish(&self, s: &super::SinkStats) {
        use std::sync::atomic::Ordering::Relaxed;
        self.batches.store(s.batches, Relaxed);
        self.failed_attempts.store(s.failed_attempts, Relaxed);
        self.spooled.store(s.spooled, Relaxed);
        self.drained.store(s.drained, Relaxed);
        self.outages.store(s.outages, Relaxed);
    }
}
