//! The metrics a scrape reads from the run's live values, as `sampled.toml` lists them: one
//! collector reads the sources and encodes the table at each scrape.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use mcpcensus_store::clickhouse::LiveSinkStats;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, MetricEncoder};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::MetricType;
use prometheus_client::registry::Unit;
use serde::Deserialize;

use super::Sources;
use crate::net::ThrottleWaits;
use crate::run::Counters;

/// The table, built in.
const TABLE: &str = include_str!("sampled.toml");

#[derive(Debug, thiserror::Error)]
#[error("the built-in metrics table (sampled.toml): {0}")]
pub struct TableError(String);

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    metric: Vec<Sampled>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Gauge,
    Counter,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum UnitName {
    Seconds,
    Bytes,
}

/// One row of the table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Sampled {
    pub(super) name: String,
    #[serde(rename = "type")]
    kind: Kind,
    unit: Option<UnitName>,
    source: Option<String>,
    label: Option<String>,
    #[serde(default)]
    by: BTreeMap<String, String>,
    scale: Option<f64>,
    help: String,
}

/// The table's rows, checked: each reads one source or one labelled family of them.
pub(super) fn table() -> Result<Vec<Sampled>, TableError> {
    let table: Table = toml::from_str(TABLE).map_err(|e| TableError(e.to_string()))?;
    for m in &table.metric {
        let one_way = match (&m.source, &m.label) {
            (Some(_), None) => m.by.is_empty(),
            (None, Some(_)) => !m.by.is_empty(),
            _ => false,
        };
        if !one_way {
            return Err(TableError(format!(
                "{}: give either a source or a label and its sources",
                m.name
            )));
        }
    }
    Ok(table.metric)
}

impl Sampled {
    /// The sources this row reads.
    #[cfg(test)]
    pub(super) fn sources(&self) -> impl Iterator<Item = &str> {
        self.source
            .iter()
            .chain(self.by.values())
            .map(String::as_str)
    }

    fn encode(&self, values: &BTreeMap<String, u64>, d: &mut DescriptorEncoder) -> Fmt {
        let unit = self.unit.map(|u| match u {
            UnitName::Seconds => Unit::Seconds,
            UnitName::Bytes => Unit::Bytes,
        });
        let kind = match self.kind {
            Kind::Gauge => MetricType::Gauge,
            Kind::Counter => MetricType::Counter,
        };
        // The registry's own metrics end their help with a full stop; these match them.
        let help = format!("{}.", self.help);
        let mut metric = d.encode_descriptor(&self.name, &help, unit.as_ref(), kind)?;
        let value = |source: &String| values.get(source).copied().unwrap_or(0);
        match (&self.source, &self.label) {
            (Some(source), _) => self.encode_value(value(source), metric),
            (None, Some(label)) => {
                for (label_value, source) in &self.by {
                    let labels = [(label.as_str(), label_value.as_str())];
                    self.encode_value(value(source), metric.encode_family(&labels)?)?;
                }
                Ok(())
            }
            (None, None) => Ok(()),
        }
    }

    fn encode_value(&self, raw: u64, e: MetricEncoder) -> Fmt {
        match (self.kind, self.scale) {
            (Kind::Gauge, None) => {
                ConstGauge::new(i64::try_from(raw).unwrap_or(i64::MAX)).encode(e)
            }
            (Kind::Gauge, Some(scale)) => ConstGauge::new(raw as f64 * scale).encode(e),
            (Kind::Counter, None) => ConstCounter::new(raw).encode(e),
            (Kind::Counter, Some(scale)) => ConstCounter::new(raw as f64 * scale).encode(e),
        }
    }
}

type Fmt = Result<(), std::fmt::Error>;

/// What the collector reads: the sources and whether the run has ended.
pub(super) struct Live {
    pub(super) sources: Sources,
    pub(super) finished: AtomicBool,
}

/// The table's collector.
pub(super) struct SampledMetrics {
    pub(super) table: Vec<Sampled>,
    pub(super) live: Arc<Live>,
}

impl std::fmt::Debug for SampledMetrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SampledMetrics")
            .field("metrics", &self.table.len())
            .finish_non_exhaustive()
    }
}

impl Collector for SampledMetrics {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Fmt {
        let s = &self.live.sources;
        let values = readings(&Readings {
            counters: &s.counters,
            waits: s.net.as_ref().map(|net| net.throttle().waits()),
            sink: s.sink.as_deref(),
            spool_bytes: s.spool_dir.as_deref().map(dir_bytes),
            finished: self.live.finished.load(Ordering::Relaxed),
        });
        for m in &self.table {
            m.encode(&values, &mut encoder)?;
        }
        Ok(())
    }
}

/// One scrape's sources; the ones a run lacks are `None`.
pub(super) struct Readings<'a> {
    pub(super) counters: &'a Counters,
    pub(super) waits: Option<&'a ThrottleWaits>,
    pub(super) sink: Option<&'a LiveSinkStats>,
    pub(super) spool_bytes: Option<u64>,
    pub(super) finished: bool,
}

/// Every source's value by its name (`run.in_flight`, `throttle.host`, …): the structs'
/// fields as they serialize.
pub(super) fn readings(r: &Readings) -> BTreeMap<String, u64> {
    let mut values = BTreeMap::new();
    put(&mut values, "run", r.counters);
    if let Some(waits) = r.waits {
        put(&mut values, "throttle", waits);
    }
    if let Some(sink) = r.sink {
        put(&mut values, "clickhouse", sink);
    }
    if let Some(bytes) = r.spool_bytes {
        values.insert("spool.bytes".to_owned(), bytes);
    }
    values.insert("run.finished".to_owned(), u64::from(r.finished));
    values
}

fn put(values: &mut BTreeMap<String, u64>, group: &str, fields: &impl serde::Serialize) {
    if let Ok(serde_json::Value::Object(map)) = serde_json::to_value(fields) {
        for (field, value) in map {
            if let Some(n) = value.as_u64() {
                values.insert(format!("{group}.{field}"), n);
            }
        }
    }
}

/// Bytes of the files under `dir` (the spool: a few generation folders of segments).
fn dir_bytes(dir: &Path) -> u64 {
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
