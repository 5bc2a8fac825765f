use std::fs;
use std::path::PathBuf;

use super::frame::{header, FRAME_HEADER_LEN};
use super::manifest::format_run_id;
use super::segment::SEGMENT_HEADER_LEN;
use super::*;
use crate::error::StoreError;
use crate::record::{Outcome, Record, SCHEMA_VERSION};
use crate::testutil::{full_record, full_records};

const RUN: &str = "20261130T220101Z-a1b2c3";

fn manifest(run_id: &str) -> RunManifest {
    RunManifest::new(
        run_id,
        1_795_000_000_123,
        vec!["mcpcensus".into(), "crawl".into(), "list.txt".into()],
        serde_json::json!({"concurrency": 1000, "probe": "survey"}),
        false,
    )
}

fn write_run(store: &Store, run_id: &str, records: &[Record]) {
    let mut writer = store.create_run(&manifest(run_id)).unwrap();
    for r in records {
        writer.append(r).unwrap();
    }
    assert_eq!(writer.records_written(), records.len() as u64);
    writer.finish().unwrap();
}

fn read_all(store: &Store, run_id: &str) -> (Vec<Record>, RunReader) {
    let mut reader = store.read_run(run_id).unwrap();
    let records = reader.by_ref().collect::<Result<Vec<_>, _>>().unwrap();
    (records, reader)
}

fn segments(store: &Store, run_id: &str) -> Vec<PathBuf> {
    let dir = store.run_dir(run_id).unwrap();
    list_segments(&dir)
        .unwrap()
        .into_iter()
        .map(|(_, p)| p)
        .collect()
}

/// Frame start offsets and the file end, found from the length fields alone: the test's own
/// reading of the format, independent of the reader under test.
fn frame_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = SEGMENT_HEADER_LEN;
    while at < bytes.len() {
        starts.push(at);
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        at += FRAME_HEADER_LEN + len;
    }
    assert_eq!(at, bytes.len(), "fixture segment is not whole");
    starts
}

/// xorshift64*: deterministic, good enough to pick offsets.
struct Prng(u64);

impl Prng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

#[test]
fn round_trip_keeps_every_field_and_variant() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("data")).unwrap();
    let records = full_records(RUN);
    for outcome in Outcome::ALL {
        assert!(records.iter().any(|r| r.outcome == *outcome));
    }
    write_run(&store, RUN, &records);

    let (read, reader) = read_all(&store, RUN);
    assert_eq!(read, records);
    assert_eq!(reader.records_read(), records.len() as u64);
    assert_eq!(reader.skipped_bytes(), 0);
    assert!(reader.damage().is_empty());

    // The bare segment reader gives the same.
    let segs = segments(&store, RUN);
    assert_eq!(segs.len(), 1);
    let one = SegmentReader::open(&segs[0]).unwrap();
    assert_eq!(one.collect::<Result<Vec<_>, _>>().unwrap(), records);

    let bytes = fs::read(&segs[0]).unwrap();
    assert_eq!(&bytes[..8], b"MCPCSEG1");
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), SCHEMA_VERSION);
}

#[test]
fn rotates_into_several_segments_and_reads_them_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let options = WriterOptions {
        max_segment_bytes: 4096,
        ..WriterOptions::default()
    };
    let store = Store::open_with(dir.path(), options).unwrap();
    let records: Vec<Record> = (0..60).map(|i| full_record(RUN, i)).collect();
    write_run(&store, RUN, &records);

    let segs = segments(&store, RUN);
    assert!(segs.len() >= 4, "only {} segments", segs.len());
    for (i, seg) in segs.iter().enumerate() {
        assert!(seg.ends_with(segment_file_name(i as u32 + 1)));
        let bytes = fs::read(seg).unwrap();
        let frames = frame_starts(&bytes).len();
        assert!(frames >= 1);
        assert!(bytes.len() as u64 <= options.max_segment_bytes || frames == 1);
    }
    assert_eq!(read_all(&store, RUN).0, records);

    // Resuming continues the last segment and rotates from there.
    let mut writer = store.resume_run(RUN).unwrap();
    assert!(writer.repaired().is_none());
    let more: Vec<Record> = (60..90).map(|i| full_record(RUN, i)).collect();
    for r in &more {
        writer.append(r).unwrap();
    }
    writer.finish().unwrap();
    let (read, reader) = read_all(&store, RUN);
    assert_eq!(read, [records, more].concat());
    assert_eq!(reader.skipped_bytes(), 0);
    assert!(segments(&store, RUN).len() > segs.len());
}

#[test]
fn torn_tail_reads_the_whole_prefix_and_resume_cuts_it() {
    let src = tempfile::tempdir().unwrap();
    let store = Store::open(src.path()).unwrap();
    let records: Vec<Record> = (0..30).map(|i| full_record(RUN, i)).collect();
    write_run(&store, RUN, &records);
    let original = fs::read(&segments(&store, RUN)[0]).unwrap();
    let starts = frame_starts(&original);
    // Frame ends, i.e. the cuts that leave no torn tail.
    let ends: Vec<usize> = starts[1..]
        .iter()
        .copied()
        .chain([original.len()])
        .collect();

    let mut cuts: Vec<usize> = (0..=SEGMENT_HEADER_LEN + 4).collect();
    for &end in &ends {
        cuts.extend(
            [end - 1, end, end + 1]
                .into_iter()
                .filter(|c| *c < original.len()),
        );
    }
    let mut prng = Prng(0x9E37_79B9_7F4A_7C15);
    cuts.extend((0..200).map(|_| prng.below(original.len() as u64) as usize));
    let new: Vec<Record> = (100..103).map(|i| full_record(RUN, i)).collect();

    for cut in cuts {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        store.create_run(&manifest(RUN)).unwrap().finish().unwrap();
        let seg = &segments(&store, RUN)[0];
        fs::write(seg, &original[..cut]).unwrap();

        let whole = ends.iter().filter(|end| **end <= cut).count();
        let valid_end = if cut < SEGMENT_HEADER_LEN {
            0
        } else {
            ends.get(whole.wrapping_sub(1))
                .copied()
                .unwrap_or(SEGMENT_HEADER_LEN)
        };
        let (read, reader) = read_all(&store, RUN);
        assert_eq!(read, records[..whole], "cut at {cut}");
        assert_eq!(
            reader.skipped_bytes(),
            (cut - valid_end) as u64,
            "cut at {cut}"
        );
        let clean = cut == valid_end && cut >= SEGMENT_HEADER_LEN;
        assert_eq!(reader.damage().is_empty(), clean, "cut at {cut}");

        let mut writer = store.resume_run(RUN).unwrap();
        assert_eq!(writer.repaired().is_none(), clean, "cut at {cut}");
        for r in &new {
            writer.append(r).unwrap();
        }
        writer.finish().unwrap();
        let (read, reader) = read_all(&store, RUN);
        assert_eq!(read, [&records[..whole], &new[..]].concat(), "cut at {cut}");
        assert_eq!(reader.skipped_bytes(), 0, "cut at {cut}");
        assert!(reader.damage().is_empty(), "cut at {cut}");
    }
}

#[test]
fn flipped_payload_byte_stops_reading_at_that_frame() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let records: Vec<Record> = (0..10).map(|i| full_record(RUN, i)).collect();
    write_run(&store, RUN, &records);
    let seg = segments(&store, RUN).remove(0);
    let mut bytes = fs::read(&seg).unwrap();
    let starts = frame_starts(&bytes);
    let bad = starts[5];
    bytes[bad + FRAME_HEADER_LEN + 20] ^= 0x40;
    fs::write(&seg, &bytes).unwrap();

    let (read, reader) = read_all(&store, RUN);
    assert_eq!(read, records[..5]);
    let expected = Damage {
        segment: seg.clone(),
        offset: bad as u64,
        skipped_bytes: (bytes.len() - bad) as u64,
        kind: DamageKind::Checksum,
    };
    assert_eq!(reader.damage(), [expected]);
    assert_eq!(reader.skipped_bytes(), (bytes.len() - bad) as u64);
}

#[test]
fn damage_in_one_segment_does_not_hide_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let options = WriterOptions {
        max_segment_bytes: 4096,
        ..WriterOptions::default()
    };
    let store = Store::open_with(dir.path(), options).unwrap();
    let records: Vec<Record> = (0..40).map(|i| full_record(RUN, i)).collect();
    write_run(&store, RUN, &records);
    let segs = segments(&store, RUN);
    let mut first = fs::read(&segs[0]).unwrap();
    let starts = frame_starts(&first);
    assert!(starts.len() >= 2);
    first[starts[1] + FRAME_HEADER_LEN + 3] ^= 0x01;
    fs::write(&segs[0], &first).unwrap();

    let (read, reader) = read_all(&store, RUN);
    let lost = starts.len() - 1;
    assert_eq!(read, [&records[..1], &records[1 + lost..]].concat());
    assert_eq!(reader.damage().len(), 1);
    assert_eq!(reader.skipped_bytes(), (first.len() - starts[1]) as u64);
}

#[test]
fn impossible_lengths_are_damage() {
    for bad_len in [0u32, MAX_FRAME_LEN + 1, u32::MAX] {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let records: Vec<Record> = (0..4).map(|i| full_record(RUN, i)).collect();
        write_run(&store, RUN, &records);
        let seg = segments(&store, RUN).remove(0);
        let mut bytes = fs::read(&seg).unwrap();
        let at = frame_starts(&bytes)[2];
        bytes[at..at + 4].copy_from_slice(&bad_len.to_le_bytes());
        fs::write(&seg, &bytes).unwrap();

        let (read, reader) = read_all(&store, RUN);
        assert_eq!(read, records[..2]);
        assert_eq!(reader.damage()[0].kind, DamageKind::BadLength(bad_len));
        assert_eq!(reader.skipped_bytes(), (bytes.len() - at) as u64);
    }
}

#[test]
fn intact_frame_that_does_not_decode_is_an_error_item_and_reading_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let records: Vec<Record> = (0..2).map(|i| full_record(RUN, i)).collect();
    write_run(&store, RUN, &records[..1]);
    let seg = segments(&store, RUN).remove(0);

    // A correctly framed payload that is not an archived record, then a good record.
    let garbage = vec![0xA5u8; 64];
    let mut bytes = fs::read(&seg).unwrap();
    let garbage_at = bytes.len() as u64;
    bytes.extend_from_slice(&header(&garbage));
    bytes.extend_from_slice(&garbage);
    fs::write(&seg, &bytes).unwrap();
    let mut writer = store.resume_run(RUN).unwrap();
    assert!(writer.repaired().is_none());
    writer.append(&records[1]).unwrap();
    writer.finish().unwrap();

    let items: Vec<_> = store.read_run(RUN).unwrap().collect();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0].as_ref().unwrap(), &records[0]);
    match &items[1] {
        Err(StoreError::Decode { offset, .. }) => assert_eq!(*offset, garbage_at),
        other => panic!("expected a decode error, got {other:?}"),
    }
    assert_eq!(items[2].as_ref().unwrap(), &records[1]);
}

#[test]
fn other_schema_version_is_an_error_not_damage() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    write_run(&store, RUN, &[full_record(RUN, 0)]);
    let seg = segments(&store, RUN).remove(0);
    let mut bytes = fs::read(&seg).unwrap();
    bytes[8..10].copy_from_slice(&(SCHEMA_VERSION + 1).to_le_bytes());
    fs::write(&seg, &bytes).unwrap();

    assert!(matches!(
        SegmentReader::open(&seg),
        Err(StoreError::SchemaVersion { found, .. }) if found == SCHEMA_VERSION + 1
    ));
    assert!(matches!(
        store.resume_run(RUN),
        Err(StoreError::SchemaVersion { .. })
    ));
    // The file was not touched.
    assert_eq!(fs::read(&seg).unwrap(), bytes);
}

#[test]
fn dropping_a_writer_flushes_what_it_buffered() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let records: Vec<Record> = (0..3).map(|i| full_record(RUN, i)).collect();
    {
        let mut writer = store.create_run(&manifest(RUN)).unwrap();
        for r in &records {
            writer.append(r).unwrap();
        }
    }
    assert_eq!(read_all(&store, RUN).0, records);
}

#[test]
fn manifest_round_trips_and_is_replaced_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let mut m = manifest(RUN);
    store.create_run(&m).unwrap().finish().unwrap();
    assert_eq!(store.manifest(RUN).unwrap(), m);

    let path = store.run_dir(RUN).unwrap().join(MANIFEST_FILE);
    let json: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(json["status"], "running");
    assert_eq!(json["started_at"], "2026-11-18T11:06:40.123Z");
    assert_eq!(json["ended_at"], serde_json::Value::Null);
    assert_eq!(json["schema_version"], SCHEMA_VERSION);

    m.status = RunStatus::Complete;
    m.ended_at = Some(m.started_at + 61_000);
    m.counts = Some(RunCounts {
        records_written: 7,
        per_outcome: [(Outcome::Pass, 7)].into(),
        ..RunCounts::default()
    });
    store.write_manifest(&m).unwrap();
    assert_eq!(store.manifest(RUN).unwrap(), m);
    let json: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert_eq!(json["status"], "complete");
    assert_eq!(json["ended_at"], "2026-11-18T11:07:41.123Z");
    assert_eq!(json["counts"]["outcome.pass"], 7);
    assert_eq!(json["counts"]["records_written"], 7);

    let left: Vec<_> = fs::read_dir(store.run_dir(RUN).unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

#[test]
fn runs_started_within_one_second_are_listed_in_start_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let second = 1_795_000_000_000;
    // The later run's random suffix sorts first.
    let (first, later) = (
        format_run_id(second + 100, [0xff, 0, 0]),
        format_run_id(second + 900, [0, 0, 1]),
    );
    for (id, at) in [(&first, second + 100), (&later, second + 900)] {
        let mut m = manifest(id);
        m.started_at = at;
        store.create_run(&m).unwrap().finish().unwrap();
    }
    let listed: Vec<String> = store
        .runs()
        .unwrap()
        .into_iter()
        .map(|m| m.run_id)
        .collect();
    assert_eq!(listed, [first, later.clone()]);
    assert_eq!(store.latest_run().unwrap().unwrap().run_id, later);
}

#[test]
fn runs_are_listed_by_id_and_missing_ones_reported() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    assert!(store.latest_run().unwrap().is_none());
    let ids = [
        format_run_id(1_795_000_000_000, [0, 0, 9]),
        format_run_id(1_700_000_000_000, [0xff, 0, 0]),
        format_run_id(1_795_000_001_000, [0, 0, 1]),
    ];
    for id in &ids {
        store.create_run(&manifest(id)).unwrap().finish().unwrap();
    }
    // A run directory without a manifest (crash inside create_run) is skipped.
    fs::create_dir(store.run_dir("20200101T000000Z-000000").unwrap()).unwrap();

    let listed: Vec<String> = store
        .runs()
        .unwrap()
        .into_iter()
        .map(|m| m.run_id)
        .collect();
    assert_eq!(listed, [ids[1].clone(), ids[0].clone(), ids[2].clone()]);
    assert_eq!(store.latest_run().unwrap().unwrap().run_id, ids[2]);

    assert!(matches!(
        store.create_run(&manifest(&ids[0])),
        Err(StoreError::RunExists { .. })
    ));
    assert!(matches!(
        store.read_run("20990101T000000Z-000000"),
        Err(StoreError::RunNotFound { .. })
    ));
    assert!(matches!(
        store.resume_run("20990101T000000Z-000000"),
        Err(StoreError::RunNotFound { .. })
    ));
    for bad in ["", "..", "../x", "a/b", ".hidden", "a b"] {
        assert!(
            matches!(store.manifest(bad), Err(StoreError::InvalidRunId { .. })),
            "{bad:?} accepted"
        );
    }
}

#[test]
fn run_ids_are_utc_time_then_six_hex_digits() {
    assert_eq!(
        format_run_id(1_795_212_061_999, [0xa1, 0xb2, 0xc3]),
        "20261120T220101Z-a1b2c3"
    );
    let id = new_run_id();
    assert_eq!(id.len(), 23, "{id}");
    let (time, suffix) = id.split_once('-').unwrap();
    assert!(time.ends_with('Z') && time.as_bytes()[8] == b'T', "{id}");
    assert!(suffix.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    assert!(super::manifest::validate_run_id(&id).is_ok());
    assert!(format_run_id(1_000, [0xff; 3]) < format_run_id(2_000, [0; 3]));
}

/// `cargo test -p mcpcensus-store --release -- --ignored --nocapture`
#[test]
#[ignore = "throughput check; run in release mode"]
fn writes_ten_million_small_records_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let mut writer = store.create_run(&manifest(RUN)).unwrap();
    let mut record = Record::new(RUN, 1_795_000_000_000, "", 0, Outcome::Unreachable, "dns");
    let started = std::time::Instant::now();
    for i in 0..10_000_000u64 {
        record.input_line = i + 1;
        record.input.clear();
        record.input.push_str("site");
        record.input.push_str(&i.to_string());
        record.input.push_str(".example");
        writer.append(&record).unwrap();
    }
    writer.finish().unwrap();
    let elapsed = started.elapsed();
    let bytes: u64 = segments(&store, RUN)
        .iter()
        .map(|p| fs::metadata(p).unwrap().len())
        .sum();
    println!(
        "10M records, {} MiB, in {elapsed:?} ({:.0} ns/record)",
        bytes >> 20,
        elapsed.as_nanos() as f64 / 1e7
    );
    assert!(elapsed.as_secs() < 60);

    let started = std::time::Instant::now();
    let mut reader = store.read_run(RUN).unwrap();
    let n = reader.by_ref().filter(|r| r.is_ok()).count();
    println!("read back in {:?}", started.elapsed());
    assert_eq!(n, 10_000_000);
}

#[test]
fn remove_run_deletes_a_finished_run_but_never_one_being_written() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    write_run(&store, RUN, &full_records(RUN));
    let open = "20261201T000000Z-d4e5f6";
    let writer = store.create_run(&manifest(open)).unwrap();
    assert!(
        !store.remove_run(open).unwrap(),
        "its writer holds the lock"
    );
    assert!(store.manifest(open).is_ok());
    assert!(store.remove_run(RUN).unwrap());
    let left: Vec<String> = store
        .runs()
        .unwrap()
        .into_iter()
        .map(|m| m.run_id)
        .collect();
    assert_eq!(left, [open]);
    assert!(!store.run_dir(RUN).unwrap().exists());
    // Nothing of it is left behind, hidden or not.
    let entries = fs::read_dir(store.run_dir(open).unwrap().parent().unwrap()).unwrap();
    assert_eq!(entries.count(), 1);
    writer.finish().unwrap();
    assert!(matches!(
        store.remove_run(RUN),
        Err(StoreError::RunNotFound { .. })
    ));
}
