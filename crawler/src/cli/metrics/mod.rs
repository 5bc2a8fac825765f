//! `crawl --metrics ADDR`: Prometheus metrics at `/metrics` while the crawl runs. Records are
//! counted as the writer hands them to the sink (so the outcome counters add up to the
//! records written); the run's live counters, the throttle's waits and the ClickHouse sink's
//! stats are read at each scrape, as the table `sampled.toml` lists them. No label names a
//! host or URL: outcomes, error classes, stages and limiters are fixed sets. Every metric:
//! docs/metrics.md.

mod classify;
mod sampled;
mod server;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use mcpcensus_store::clickhouse::LiveSinkStats;
use mcpcensus_store::{Record, StoreError};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

pub use classify::{error_class, stage, OTHER_CLASS};
pub use sampled::TableError;
use sampled::{Live, SampledMetrics};
pub use server::MetricsServer;

use crate::net::Net;
use crate::run::{Counters, RecordSink};

/// Site duration buckets, in seconds: a site's work ends within its deadline (30 s default).
const SITE_SECONDS_BUCKETS: [f64; 12] = [
    0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0, 120.0,
];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabel {
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    class: &'static str,
    stage: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResultLabel {
    result: &'static str,
}

/// What a scrape reads besides the records: the run's counters, and when there are, the
/// throttle and the ClickHouse sink with its spool.
#[derive(Default)]
pub struct Sources {
    pub counters: Arc<Counters>,
    pub net: Option<Net>,
    pub sink: Option<Arc<LiveSinkStats>>,
    pub spool_dir: Option<PathBuf>,
}

/// The crawl's metrics.
pub struct Metrics {
    registry: Registry,
    sites: Family<OutcomeLabel, Counter>,
    errors: Family<ErrorLabels, Counter>,
    site_seconds: Histogram,
    sink_ops: Family<ResultLabel, Counter>,
    live: Arc<Live>,
}

impl Metrics {
    /// The metrics of a run reading `sources`.
    pub fn new(sources: Sources) -> Result<Arc<Metrics>, TableError> {
        let mut registry = Registry::with_prefix("mcpcensus");
        let sites = Family::<OutcomeLabel, Counter>::default();
        let errors = Family::<ErrorLabels, Counter>::default();
        let site_seconds = Histogram::new(SITE_SECONDS_BUCKETS);
        let sink_ops = Family::<ResultLabel, Counter>::default();
        let r = &mut registry;
        r.register("sites", "Records written, by outcome", sites.clone());
        r.register(
            "request_errors",
            "Failed requests in the records written, by error class and stage",
            errors.clone(),
        );
        r.register_with_unit(
            "site_duration",
            "Each written site's total scan time",
            Unit::Seconds,
            site_seconds.clone(),
        );
        r.register(
            "sink_operations",
            "Record writes and flushes handed to the sink, by result (write_ok, write_failed, flush_ok, flush_failed)",
            sink_ops.clone(),
        );
        let live = Arc::new(Live {
            sources,
            finished: AtomicBool::new(false),
        });
        r.register_collector(Box::new(SampledMetrics {
            table: sampled::table()?,
            live: live.clone(),
        }));
        Ok(Arc::new(Metrics {
            registry,
            sites,
            errors,
            site_seconds,
            sink_ops,
            live,
        }))
    }

    /// A record the sink took.
    fn written(&self, r: &Record) {
        self.sites
            .get_or_create(&OutcomeLabel {
                outcome: r.outcome.as_str(),
            })
            .inc();
        self.site_seconds
            .observe(f64::from(r.timings.total_ms) / 1000.0);
        for req in &r.requests {
            if req.error_kind.is_some() {
                let labels = ErrorLabels {
                    class: error_class(req),
                    stage: stage(&req.purpose),
                };
                self.errors.get_or_create(&labels).inc();
            }
        }
    }

    fn sink_op(&self, result: &'static str) {
        self.sink_ops.get_or_create(&ResultLabel { result }).inc();
    }

    /// Marks the values final (the run has ended).
    pub fn finish(&self) {
        self.live.finished.store(true, Ordering::Relaxed);
    }

    /// The run has ended (a scrape from now on shows the final values).
    pub fn finished(&self) -> bool {
        self.live.finished.load(Ordering::Relaxed)
    }

    /// The OpenMetrics text of every metric, the live values read now.
    pub fn encode(&self) -> String {
        let mut text = String::new();
        if prometheus_client::encoding::text::encode(&mut text, &self.registry).is_err() {
            text = "# the metrics could not be encoded\n# EOF\n".to_owned();
        }
        text
    }
}

/// The run's sink with every record and flush counted.
pub struct MetricsSink {
    pub inner: Box<dyn RecordSink>,
    pub metrics: Arc<Metrics>,
}

impl RecordSink for MetricsSink {
    fn write(&mut self, record: &Record) -> Result<(), StoreError> {
        let written = self.inner.write(record);
        match &written {
            Ok(()) => {
                self.metrics.written(record);
                self.metrics.sink_op("write_ok");
            }
            Err(_) => self.metrics.sink_op("write_failed"),
        }
        written
    }

    fn flush(&mut self) -> Result<(), StoreError> {
        let flushed = self.inner.flush();
        self.metrics.sink_op(if flushed.is_ok() {
            "flush_ok"
        } else {
            "flush_failed"
        });
        flushed
    }

    fn finish(self: Box<Self>) -> Result<(), StoreError> {
        self.inner.finish()
    }
}
