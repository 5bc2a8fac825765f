use crate::store::{Store, WriterOptions};
use crate::testutil::{full_record, full_records};

use super::write_jsonl;

const RUN: &str = "20261130T220101Z-a1b2c3";

#[test]
fn jsonl_uses_the_contract_field_names() {
    let records = full_records(RUN);
    let mut out = Vec::new();
    let n = write_jsonl(records.iter().cloned().map(Ok), &mut out).unwrap();
    assert_eq!(n, records.len() as u64);

    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), records.len());
    assert!(text.ends_with('\n'));
    assert!(lines[0].contains(r#""outcome":"pass""#), "{}", lines[0]);

    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["run_id"], RUN);
    assert_eq!(first["scanned_at"], "2026-11-18T11:06:40.000Z");
    assert_eq!(first["discovered_via"], "server_card");
    assert_eq!(first["capabilities"]["tools"]["listChanged"], true);
    assert!(first["capabilities"].is_object());
    assert!(first["tools"][0]["annotations"].is_object());
    assert_eq!(first["auth"]["kind"], "none");
    assert_eq!(first["documents"][0]["kind"], "home");
    for field in [
        "origin",
        "host",
        "registrable_domain",
        "addresses",
        "outcome_reason",
        "defect",
    ] {
        assert!(first.get(field).is_some(), "missing {field}");
    }

    // Each line parses back to the record it came from.
    for (line, record) in lines.iter().zip(&records) {
        let back: crate::Record = serde_json::from_str(line).unwrap();
        assert_eq!(&back, record);
    }
}

#[test]
fn jsonl_export_reads_from_the_store_and_stops_at_errors() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_with(dir.path(), WriterOptions::default()).unwrap();
    let mut writer = store
        .create_run(&crate::RunManifest::new(
            RUN,
            0,
            vec![],
            serde_json::Value::Null,
            true,
        ))
        .unwrap();
    for i in 0..5 {
        writer.append(&full_record(RUN, i)).unwrap();
    }
    writer.finish().unwrap();
    let mut out = Vec::new();
    assert_eq!(
        write_jsonl(store.read_run(RUN).unwrap(), &mut out).unwrap(),
        5
    );
    assert_eq!(out.iter().filter(|b| **b == b'\n').count(), 5);

    let failing = (0..3).map(|i| {
        if i < 2 {
            Ok(full_record(RUN, i))
        } else {
            Err(crate::StoreError::RunNotFound {
                run_id: RUN.into(),
                path: dir.path().into(),
            })
        }
    });
    let mut out = Vec::new();
    assert!(write_jsonl(failing, &mut out).is_err());
    // The lines before the error were written.
    assert_eq!(out.iter().filter(|b| **b == b'\n').count(), 2);
}
