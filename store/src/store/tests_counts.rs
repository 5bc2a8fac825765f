//! The manifest's counts: typed in code, the previous builds' flat object on disk.

use std::collections::BTreeMap;

use super::counts::WRITTEN_WHEN_NOT_ZERO;
use super::*;
use crate::record::Outcome;

/// A manifest as the build before the typed counts wrote it, after a finished run.
const PREVIOUS_BUILD: &str = r#"{
  "run_id": "20261201T100000Z-000001",
  "started_at": "2026-12-01T10:00:00.000Z",
  "ended_at": "2026-12-01T10:01:00.000Z",
  "status": "interrupted",
  "argv": ["mcpcensus", "crawl", "list.txt"],
  "config": {},
  "dry_run": false,
  "counts": {
    "already_recorded": 0,
    "blank_or_comment": 2,
    "defects": 1,
    "duplicates_skipped": 3,
    "endpoints": 4,
    "excluded": 5,
    "invalid_input": 6,
    "lines_read": 40,
    "local_resource_retries": 7,
    "other_shard": 8,
    "outcome.not_started": 9,
    "outcome.pass": 10,
    "records_written": 24,
    "targets": 11
  },
  "schema_version": 1
}"#;

#[test]
fn a_previous_builds_counts_read_typed_and_write_back_the_same() {
    let manifest: RunManifest = serde_json::from_str(PREVIOUS_BUILD).unwrap();
    let counts = manifest.counts.clone().expect("counted");
    assert_eq!(counts.lines_read, 40);
    assert_eq!(counts.records_written, 24);
    assert_eq!(counts.local_resource_retries, 7);
    assert_eq!(counts.outcome(Outcome::NotStarted), 9);
    assert_eq!(counts.outcome(Outcome::Pass), 10);
    assert_eq!(counts.outcome(Outcome::Fail), 0);
    assert!(counts.other.is_empty());

    let old: serde_json::Value = serde_json::from_str(PREVIOUS_BUILD).unwrap();
    let again = serde_json::to_value(&manifest).unwrap();
    assert_eq!(again["counts"], old["counts"]);
    assert_eq!(
        serde_json::to_string(&again["counts"]).unwrap(),
        serde_json::to_string(&old["counts"]).unwrap(),
        "same keys in the same order"
    );
}

#[test]
fn a_run_not_counted_yet_stays_apart_from_one_counted_zero() {
    let mut old: serde_json::Value = serde_json::from_str(PREVIOUS_BUILD).unwrap();
    old["counts"] = serde_json::json!({});
    let manifest: RunManifest = serde_json::from_value(old).unwrap();
    assert_eq!(manifest.counts, None);
    assert_eq!(
        serde_json::to_value(&manifest).unwrap()["counts"],
        serde_json::json!({})
    );

    let zero = RunManifest {
        counts: Some(RunCounts::default()),
        ..manifest
    };
    let json = serde_json::to_value(&zero).unwrap();
    assert_eq!(json["counts"]["records_written"], 0);
    let back: RunManifest = serde_json::from_value(json).unwrap();
    assert_eq!(back.counts, Some(RunCounts::default()));
}

#[test]
fn counters_this_build_does_not_know_are_kept_not_dropped() {
    let mut old: serde_json::Value = serde_json::from_str(PREVIOUS_BUILD).unwrap();
    old["counts"]["rescans"] = 3.into();
    old["counts"]["outcome.someday"] = 2.into();
    let manifest: RunManifest = serde_json::from_value(old).unwrap();
    let counts = manifest.counts.as_ref().unwrap();
    assert_eq!(counts.other.get("rescans"), Some(&3));
    assert_eq!(counts.other.get("outcome.someday"), Some(&2));
    let json = serde_json::to_value(&manifest).unwrap();
    assert_eq!(json["counts"]["rescans"], 3);
    assert_eq!(json["counts"]["outcome.someday"], 2);
}

#[test]
fn a_count_that_is_not_a_number_is_a_clear_error() {
    let mut old: serde_json::Value = serde_json::from_str(PREVIOUS_BUILD).unwrap();
    old["counts"]["lines_read"] = "forty".into();
    let err = serde_json::from_value::<RunManifest>(old).unwrap_err();
    assert!(err.to_string().contains("invalid type"), "{err}");
}

#[test]
fn every_key_carries_the_counters_a_manifest_leaves_out_at_zero() {
    let mut counts = RunCounts {
        lines_read: 3,
        ..RunCounts::default()
    };
    counts.other.insert("rescans".to_owned(), 1);
    let manifest = BTreeMap::from(counts.clone());
    let every = counts.every_key();
    for key in WRITTEN_WHEN_NOT_ZERO {
        assert!(!manifest.contains_key(key), "{key} in the manifest's form");
        assert_eq!(every.get(key), Some(&0), "{key}");
    }
    assert_eq!(every["lines_read"], 3);
    assert_eq!(every["rescans"], 1);
    // Read back, both forms are the same counts.
    assert_eq!(RunCounts::from(every), counts);
}
