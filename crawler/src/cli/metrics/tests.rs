//! The metrics table: every source it names exists, docs/metrics.md lists every metric, and a
//! scrape shows the live values.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use mcpcensus_store::clickhouse::LiveSinkStats;

use super::sampled::{readings, table, Readings};
use super::{Metrics, Sources};
use crate::net::ThrottleWaits;
use crate::run::Counters;

const METRICS_DOC: &str = include_str!("../../../../docs/metrics.md");

#[test]
fn every_source_the_table_names_is_read() {
    let (counters, waits, sink) = (
        Counters::default(),
        ThrottleWaits::default(),
        LiveSinkStats::default(),
    );
    let values = readings(&Readings {
        counters: &counters,
        waits: Some(&waits),
        sink: Some(&sink),
        spool_bytes: Some(0),
        finished: false,
    });
    let rows = table().unwrap();
    assert!(rows.len() >= 17, "{} rows", rows.len());
    for row in &rows {
        for source in row.sources() {
            assert!(
                values.contains_key(source),
                "{}: no source {source}",
                row.name
            );
        }
    }
}

#[test]
fn docs_metrics_md_lists_every_metric() {
    let text = Metrics::new(Sources::default()).unwrap().encode();
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert!(names.len() >= 18, "{names:?}");
    for name in names {
        let counter = text.contains(&format!("# TYPE {name} counter"));
        let shown = if counter {
            format!("{name}_total")
        } else {
            name.to_owned()
        };
        assert!(
            METRICS_DOC.contains(&format!("`{shown}`")),
            "docs/metrics.md has no row for {shown}"
        );
    }
}

#[test]
fn a_scrape_shows_the_live_values_scaled_and_labelled() {
    let counters = Arc::new(Counters::default());
    counters.in_flight.store(3, Ordering::Relaxed);
    counters.lag_us.store(1_500, Ordering::Relaxed);
    counters.held_back_ms.store(2_500, Ordering::Relaxed);
    let sink = Arc::new(LiveSinkStats::default());
    sink.spooled.store(7, Ordering::Relaxed);
    let metrics = Metrics::new(Sources {
        counters: counters.clone(),
        net: None,
        sink: Some(sink),
        spool_dir: None,
    })
    .unwrap();
    let text = metrics.encode();
    for line in [
        "mcpcensus_sites_in_flight 3",
        "mcpcensus_scheduler_lag_seconds 0.0015",
        "mcpcensus_admission_held_back_seconds_total 2.5",
        "mcpcensus_clickhouse_spooled_records_total 7",
        "mcpcensus_limiter_waits_total{limiter=\"paused\"} 0",
        "mcpcensus_spool_size_bytes 0",
        "mcpcensus_run_finished 0",
        "# HELP mcpcensus_sites_in_flight Sites being scanned now.",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "no line {line:?} in\n{text}"
        );
    }
    counters.in_flight.store(0, Ordering::Relaxed);
    metrics.finish();
    let text = metrics.encode();
    assert!(
        text.lines().any(|l| l == "mcpcensus_sites_in_flight 0"),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l == "mcpcensus_run_finished 1"),
        "{text}"
    );
    assert!(text.ends_with("# EOF\n"), "{text}");
}
