//! `crawl --metrics ADDR`: Prometheus metrics at `/metrics` while the crawl runs. Records are
//! counted as the writer hands them to the sink (so the outcome counters add up to the
//! records written); the run's live counters, the throttle's waits and the ClickHouse sink's
//! stats are read at each scrape. No label names a host or URL: outcomes, error classes,
//! stages and limiters are fixed sets. Every metric: docs/metrics.md.

mod classify;
mod server;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use mcpcensus_store::clickhouse::LiveSinkStats;
use mcpcensus_store::{Record, StoreError};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

pub use classify::{error_class, stage, ALL_CLASSES};
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
struct LimiterLabel {
    limiter: &'static str,
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
    sampled: Sampled,
    sources: Sources,
    /// One scrape at a time samples and encodes.
    scrape: Mutex<()>,
}

/// The metrics a scrape copies from the sources.
#[derive(Default)]
struct Sampled {
    in_flight: Gauge,
    admit_limit: Gauge,
    peak_in_flight: Gauge,
    lag_seconds: Gauge<f64, AtomicU64>,
    lag_peak_seconds: Gauge<f64, AtomicU64>,
    held_back_seconds: Counter<f64, AtomicU64>,
    local_retries: Counter,
    intake_queued: Gauge,
    writer_queued: Gauge,
    limiter_waits: Family<LimiterLabel, Counter>,
    limiter_wait_seconds: Counter<f64, AtomicU64>,
    ch_batches: Counter,
    ch_failed_attempts: Counter,
    ch_spooled: Counter,
    ch_outages: Counter,
    spool_bytes: Gauge,
    finished: Gauge,
}

impl Metrics {
    pub fn new(sources: Sources) -> Arc<Metrics> {
        let mut registry = Registry::with_prefix("mcpcensus");
        let sites = Family::<OutcomeLabel, Counter>::default();
        let errors = Family::<ErrorLabels, Counter>::default();
        let site_seconds = Histogram::new(SITE_SECONDS_BUCKETS);
        let sink_ops = Family::<ResultLabel, Counter>::default();
        let s = Sampled::default();
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
        r.register(
            "sites_in_flight",
            "Sites being scanned now",
            s.in_flight.clone(),
        );
        r.register(
            "admission_limit",
            "Sites admitted at once now (admission control, at most --concurrency)",
            s.admit_limit.clone(),
        );
        r.register(
            "admission_peak_in_flight",
            "The most sites in flight at once so far",
            s.peak_in_flight.clone(),
        );
        r.register_with_unit(
            "scheduler_lag",
            "The crawler runtime's timer lag now (smoothed)",
            Unit::Seconds,
            s.lag_seconds.clone(),
        );
        r.register_with_unit(
            "scheduler_lag_peak",
            "The highest runtime lag seen",
            Unit::Seconds,
            s.lag_peak_seconds.clone(),
        );
        r.register_with_unit(
            "admission_held_back",
            "Time new sites were held back while the crawler lagged",
            Unit::Seconds,
            s.held_back_seconds.clone(),
        );
        r.register(
            "local_resource_retries",
            "Scans retried because this machine ran out of file descriptors, ports or DNS sockets",
            s.local_retries.clone(),
        );
        r.register(
            "intake_queue_depth",
            "Planned sites waiting for a scan slot",
            s.intake_queued.clone(),
        );
        r.register(
            "writer_queue_depth",
            "Records waiting for the writer",
            s.writer_queued.clone(),
        );
        r.register(
            "limiter_waits",
            "Requests that waited for a politeness limiter (host, ip, paused)",
            s.limiter_waits.clone(),
        );
        r.register_with_unit(
            "limiter_wait",
            "Time requests waited for the limiters",
            Unit::Seconds,
            s.limiter_wait_seconds.clone(),
        );
        r.register(
            "clickhouse_batches",
            "Batches inserted into ClickHouse (spool drains included)",
            s.ch_batches.clone(),
        );
        r.register(
            "clickhouse_failed_attempts",
            "ClickHouse insert attempts that failed",
            s.ch_failed_attempts.clone(),
        );
        r.register(
            "clickhouse_spooled_records",
            "Records written to the outage spool",
            s.ch_spooled.clone(),
        );
        r.register(
            "clickhouse_outages",
            "Times ClickHouse stopped answering and records were spooled",
            s.ch_outages.clone(),
        );
        r.register_with_unit(
            "spool_size",
            "Bytes in the run's ClickHouse outage spool",
            Unit::Bytes,
            s.spool_bytes.clone(),
        );
        r.register(
            "run_finished",
            "1 once the run has ended and the values are final",
            s.finished.clone(),
        );
        Arc::new(Metrics {
            registry,
            sites,
            errors,
            site_seconds,
            sink_ops,
            sampled: s,
            sources,
            scrape: Mutex::new(()),
        })
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
            if let Some(error) = &req.error {
                let labels = ErrorLabels {
                    class: error_class(error),
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
        self.sampled.finished.set(1);
    }

    /// The OpenMetrics text of every metric, the sources sampled first.
    pub fn encode(&self) -> String {
        let _one = self.scrape.lock().unwrap_or_else(|e| e.into_inner());
        self.sample();
        let mut text = String::new();
        if prometheus_client::encoding::text::encode(&mut text, &self.registry).is_err() {
            text = "# the metrics could not be encoded\n# EOF\n".to_owned();
        }
        text
    }

    fn sample(&self) {
        let (c, s) = (&self.sources.counters, &self.sampled);
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        s.in_flight.set(load(&c.in_flight) as i64);
        s.admit_limit.set(load(&c.admit_limit) as i64);
        s.peak_in_flight.set(load(&c.peak_in_flight) as i64);
        s.lag_seconds.set(load(&c.lag_us) as f64 / 1e6);
        s.lag_peak_seconds.set(load(&c.lag_peak_us) as f64 / 1e6);
        catch_up_f64(&s.held_back_seconds, load(&c.held_back_ms) as f64 / 1000.0);
        catch_up(&s.local_retries, load(&c.local_retries));
        s.intake_queued.set(load(&c.intake_queued) as i64);
        s.writer_queued.set(load(&c.writer_queued) as i64);
        if let Some(net) = &self.sources.net {
            let w = net.throttle().waits();
            for (limiter, n) in [("host", &w.host), ("ip", &w.ip), ("paused", &w.paused)] {
                catch_up(
                    &s.limiter_waits.get_or_create(&LimiterLabel { limiter }),
                    load(n),
                );
            }
            catch_up_f64(&s.limiter_wait_seconds, load(&w.waited_ms) as f64 / 1000.0);
        }
        if let Some(ch) = &self.sources.sink {
            catch_up(&s.ch_batches, load(&ch.batches));
            catch_up(&s.ch_failed_attempts, load(&ch.failed_attempts));
            catch_up(&s.ch_spooled, load(&ch.spooled));
            catch_up(&s.ch_outages, load(&ch.outages));
        }
        if let Some(dir) = &self.sources.spool_dir {
            s.spool_bytes.set(dir_bytes(dir) as i64);
        }
    }
}

/// Raises a counter to a total read elsewhere (totals only grow).
fn catch_up(counter: &Counter, total: u64) {
    counter.inc_by(total.saturating_sub(counter.get()));
}

fn catch_up_f64(counter: &Counter<f64, AtomicU64>, total: f64) {
    let delta = total - counter.get();
    if delta > 0.0 {
        counter.inc_by(delta);
    }
}

/// Bytes of the files under `dir` (the spool: a few generation folders of segments).
fn dir_bytes(dir: &std::path::Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => dir_bytes(&e.path()),
            Ok(_) => e.metadata().map_or(0, |m| m.len()),
            Err(_) => 0,
        })
        .sum()
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
