//! The resume pass: placeholders dropped, torn tails ignored, a crash mid-rewrite harmless.

use std::fs::OpenOptions;
use std::io::Write;

use super::*;
use crate::record::{Outcome, Record};
use crate::testutil::full_record;

const RUN: &str = "20261201T100000Z-000001";

fn record(i: usize, outcome: Outcome) -> Record {
    let mut r = full_record(RUN, i);
    r.outcome = outcome;
    r
}

#[test]
fn the_resume_pass_drops_placeholders_and_keeps_the_rest_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_with(
        dir.path(),
        WriterOptions {
            max_segment_bytes: 4096,
            ..WriterOptions::default()
        },
    )
    .unwrap();
    let manifest = RunManifest::new(RUN, 1, vec![], serde_json::json!({}), false);
    let mut writer = store.create_run(&manifest).unwrap();
    for i in 0..40 {
        let outcome = if i % 7 == 3 {
            Outcome::NotStarted
        } else {
            Outcome::Pass
        };
        writer.append(&record(i, outcome)).unwrap();
    }
    writer.finish().unwrap();
    // A torn tail, as a kill mid-write leaves it.
    let last = list_segments(&store.run_dir(RUN).unwrap())
        .unwrap()
        .pop()
        .unwrap()
        .1;
    OpenOptions::new()
        .append(true)
        .open(&last)
        .unwrap()
        .write_all(&[200, 0, 0, 0, 1, 2])
        .unwrap();

    let mut seen = Vec::new();
    let (mut writer, pass) = store
        .resume_run_keeping(RUN, |r| {
            seen.push(r.input_line);
            r.outcome != Outcome::NotStarted
        })
        .unwrap();
    assert_eq!(seen.len(), 40);
    assert_eq!(pass.dropped, 6);
    assert_eq!(pass.kept, 34);
    assert!(pass.rewritten_segments >= 1);

    // A second writer is refused while this one lives.
    assert!(matches!(
        store.resume_run(RUN),
        Err(crate::StoreError::RunLocked { .. })
    ));
    // Appending after the pass: the new record follows the kept ones, nothing is lost.
    writer.append(&record(99, Outcome::Pass)).unwrap();
    writer.finish().unwrap();
    let lines: Vec<u64> = store
        .read_run(RUN)
        .unwrap()
        .map(|r| r.unwrap().input_line)
        .collect();
    let mut want: Vec<u64> = (0..40u64).filter(|i| i % 7 != 3).map(|i| i + 1).collect();
    want.push(100);
    assert_eq!(lines, want);

    // A second pass finds nothing to drop.
    let (_, again) = store.resume_run_keeping(RUN, |_| true).unwrap();
    assert_eq!(
        (again.kept, again.dropped, again.rewritten_segments),
        (35, 0, 0)
    );
}

/// A run written by a schema 1 build: its segments carry version 1 and end in a torn tail,
/// which a repair would cut if it took the old segment for damage.
fn schema_1_run(store: &Store) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let manifest = RunManifest::new(RUN, 1, vec![], serde_json::json!({}), false);
    let mut writer = store.create_run(&manifest).unwrap();
    for i in 0..5 {
        writer.append(&record(i, Outcome::NotStarted)).unwrap();
    }
    writer.finish().unwrap();
    let segments = list_segments(&store.run_dir(RUN).unwrap()).unwrap();
    segments
        .into_iter()
        .map(|(_, path)| {
            let mut bytes = std::fs::read(&path).unwrap();
            bytes[8..10].copy_from_slice(&1u16.to_le_bytes());
            bytes.extend_from_slice(&[200, 0, 0, 0, 1, 2]);
            std::fs::write(&path, &bytes).unwrap();
            (path, bytes)
        })
        .collect()
}

#[test]
fn a_schema_1_segment_is_refused_by_name_and_left_byte_for_byte() {
    assert_eq!(
        crate::READABLE_SCHEMA_VERSIONS,
        [2, 3, 4, 5, 6],
        "this test pins the step from schema 1"
    );
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let before = schema_1_run(&store);

    let refused = |result: Result<(), crate::StoreError>, what: &str| match result {
        Err(
            e @ crate::StoreError::SchemaVersion {
                found: 1,
                expected: 6,
                ..
            },
        ) => {
            let text = e.to_string();
            assert!(text.contains("schema version 1"), "{what}: {text}");
            assert!(text.contains("left untouched"), "{what}: {text}");
        }
        other => panic!("{what}: expected a schema version refusal, got {other:?}"),
    };
    refused(
        SegmentReader::open(&before[0].0).map(drop),
        "opening a segment",
    );
    refused(
        store
            .read_run(RUN)
            .and_then(|mut r| r.try_for_each(|item| item.map(drop))),
        "reading the run",
    );
    refused(store.resume_run(RUN).map(drop), "resume (torn tail repair)");
    refused(
        store.resume_run_keeping(RUN, |_| false).map(drop),
        "the resume pass (drops placeholders)",
    );
    // Reopening the store, too, leaves the run as it was.
    drop(Store::open(dir.path()).unwrap());
    for (path, bytes) in &before {
        assert_eq!(
            &std::fs::read(path).unwrap(),
            bytes,
            "{} changed",
            path.display()
        );
    }
}

/// A run written by a schema 2 build (before the typed failure kinds), as its segments hold
/// it: the header says 2 and each frame is schema 2's layout.
fn schema_2_run(store: &Store, records: &[Record]) -> std::path::PathBuf {
    old_run(store, records, 2, schema2::encode)
}

/// A run written by an older build: the header says `version` and each frame is `encode`'s.
fn old_run(
    store: &Store,
    records: &[Record],
    version: u16,
    encode: fn(&Record) -> rkyv::util::AlignedVec,
) -> std::path::PathBuf {
    let manifest = RunManifest::new(RUN, 1, vec![], serde_json::json!({}), false);
    let writer = store.create_run(&manifest).unwrap();
    writer.finish().unwrap();
    let dir = store.run_dir(RUN).unwrap();
    let (_, path) = list_segments(&dir).unwrap().pop().unwrap();
    let mut bytes = segment::segment_header_of(version).to_vec();
    for r in records {
        let payload = encode(r);
        bytes.extend_from_slice(&frame::header(&payload));
        bytes.extend_from_slice(&payload);
    }
    std::fs::write(&path, &bytes).unwrap();
    path
}

/// What a schema 2 record reads back as: the same, its kinds absent.
fn without_kinds(r: &Record) -> Record {
    let mut r = without_capabilities(r.clone());
    r.schema_version = 2;
    r.readiness = None;
    r.first_look = None;
    r.rank = None;
    r.probe_note = None;
    r.surface_signals = Vec::new();
    r.reason_kind = None;
    for q in &mut r.requests {
        q.error_kind = None;
    }
    r
}

#[test]
fn a_schema_2_run_reads_resumes_and_takes_schema_3_records_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let old: Vec<Record> = (0..6)
        .map(|i| {
            let outcome = if i == 4 {
                Outcome::NotStarted
            } else {
                Outcome::Pass
            };
            record(i, outcome)
        })
        .collect();
    let first = schema_2_run(&store, &old);
    let read: Vec<Record> = store.read_run(RUN).unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(read, old.iter().map(without_kinds).collect::<Vec<_>>());

    // --resume: the placeholder is dropped from the old segment, which keeps its schema.
    let (mut writer, pass) = store
        .resume_run_keeping(RUN, |r| r.outcome != Outcome::NotStarted)
        .unwrap();
    assert_eq!((pass.kept, pass.dropped, pass.undecodable), (5, 1, 0));
    let new = record(4, Outcome::Fail);
    writer.append(&new).unwrap();
    writer.finish().unwrap();
    let segments = list_segments(&store.run_dir(RUN).unwrap()).unwrap();
    assert_eq!(
        segments.len(),
        2,
        "this build's records start a segment of their own"
    );
    assert_eq!(SegmentReader::open(&first).unwrap().schema_version(), 2);
    assert_eq!(
        SegmentReader::open(&segments[1].1)
            .unwrap()
            .schema_version(),
        crate::SCHEMA_VERSION
    );
    let read: Vec<Record> = store.read_run(RUN).unwrap().map(|r| r.unwrap()).collect();
    let mut want: Vec<Record> = old
        .iter()
        .filter(|r| r.outcome != Outcome::NotStarted)
        .map(without_kinds)
        .collect();
    want.push(new);
    assert_eq!(read, want);
}

#[test]
fn a_schema_3_run_reads_without_rank_or_probe_note_and_resumes_into_schema_4() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let old: Vec<Record> = (0..6)
        .map(|i| {
            let outcome = if i == 2 {
                Outcome::NotStarted
            } else {
                Outcome::Partial
            };
            record(i, outcome)
        })
        .collect();
    assert!(old
        .iter()
        .any(|r| r.rank.is_some() && r.probe_note.is_some()));
    let first = old_run(&store, &old, 3, schema3::encode);
    let as_written = |r: &Record| {
        let mut r = without_capabilities(r.clone());
        r.schema_version = 3;
        r.readiness = None;
        r.first_look = None;
        r.rank = None;
        r.probe_note = None;
        r.surface_signals = Vec::new();
        r
    };
    let read: Vec<Record> = store.read_run(RUN).unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(read, old.iter().map(as_written).collect::<Vec<_>>());

    let (mut writer, pass) = store
        .resume_run_keeping(RUN, |r| r.outcome != Outcome::NotStarted)
        .unwrap();
    assert_eq!((pass.kept, pass.dropped, pass.undecodable), (5, 1, 0));
    let new = record(2, Outcome::Pass);
    assert!(new.rank.is_some() && new.probe_note.is_some());
    writer.append(&new).unwrap();
    writer.finish().unwrap();
    assert_eq!(SegmentReader::open(&first).unwrap().schema_version(), 3);
    let read: Vec<Record> = store.read_run(RUN).unwrap().map(|r| r.unwrap()).collect();
    let mut want: Vec<Record> = old
        .iter()
        .filter(|r| r.outcome != Outcome::NotStarted)
        .map(as_written)
        .collect();
    want.push(new);
    assert_eq!(read, want);
}

#[test]
fn a_schema_4_run_reads_without_readiness_or_first_look_and_resumes_into_schema_5() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let old: Vec<Record> = (0..6)
        .map(|i| {
            let outcome = if i == 3 {
                Outcome::NotStarted
            } else {
                Outcome::Fail
            };
            record(i, outcome)
        })
        .collect();
    assert!(old.iter().any(|r| r.readiness.is_some()));
    assert!(old.iter().any(|r| r.first_look.is_some()));
    let first = old_run(&store, &old, 4, schema4::encode);
    let as_written = |r: &Record| {
        let mut r = without_capabilities(r.clone());
        r.schema_version = 4;
        r.readiness = None;
        r.first_look = None;
        r
    };
    let read: Vec<Record> = store.read_run(RUN).unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(read, old.iter().map(as_written).collect::<Vec<_>>());

    let (mut writer, pass) = store
        .resume_run_keeping(RUN, |r| r.outcome != Outcome::NotStarted)
        .unwrap();
    assert_eq!((pass.kept, pass.dropped, pass.undecodable), (5, 1, 0));
    let new = record(5, Outcome::Pass);
    assert!(new.readiness.is_some() && new.first_look.is_some());
    writer.append(&new).unwrap();
    writer.finish().unwrap();
    assert_eq!(SegmentReader::open(&first).unwrap().schema_version(), 4);
    let read: Vec<Record> = store.read_run(RUN).unwrap().map(|r| r.unwrap()).collect();
    let mut want: Vec<Record> = old
        .iter()
        .filter(|r| r.outcome != Outcome::NotStarted)
        .map(as_written)
        .collect();
    want.push(new);
    assert_eq!(read, want);
}

/// A record as schemas 5 and earlier hold it: no capability tags or counts.
fn without_capabilities(mut r: Record) -> Record {
    for tool in &mut r.tools {
        tool.capabilities.clear();
    }
    r.capabilities_version = None;
    r.tool_capabilities = None;
    r
}

#[test]
fn a_schema_5_run_reads_without_capability_tags_and_resumes_into_schema_6() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let old: Vec<Record> = (0..4).map(|i| record(i, Outcome::Pass)).collect();
    assert!(old.iter().all(|r| r.tool_capabilities.is_some()));
    let first = old_run(&store, &old, 5, schema5::encode);
    let as_written = |r: &Record| {
        let mut r = without_capabilities(r.clone());
        r.schema_version = 5;
        r
    };
    let read: Vec<Record> = store.read_run(RUN).unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(read, old.iter().map(as_written).collect::<Vec<_>>());

    let (mut writer, pass) = store.resume_run_keeping(RUN, |_| true).unwrap();
    assert_eq!((pass.kept, pass.dropped, pass.undecodable), (4, 0, 0));
    let new = record(4, Outcome::Pass);
    writer.append(&new).unwrap();
    writer.finish().unwrap();
    assert_eq!(SegmentReader::open(&first).unwrap().schema_version(), 5);
    let read: Vec<Record> = store.read_run(RUN).unwrap().map(|r| r.unwrap()).collect();
    let mut want: Vec<Record> = old.iter().map(as_written).collect();
    want.push(new);
    assert_eq!(read, want);
}
