use crate::store::{Store, WriterOptions};
use crate::testutil::{full_record, full_records};

use serde_json::Value;

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

#[test]
fn csv_tables_guard_formula_cells_a_server_named() {
    let mut r = full_record(RUN, 0);
    let formula = "=HYPERLINK(\"https://evil.example/\",\"click\")";
    r.server_name = Some("@SUM(1+1)".into());
    r.server_version = Some("-1".into());
    r.tools[0].name = formula.into();
    r.tool_names = vec![formula.into()];
    let dir = tempfile::tempdir().unwrap();
    let format = super::TableFormat::Csv;
    super::write_tables([Ok(r)].into_iter(), dir.path(), format, &Value::Null).unwrap();
    let tools = std::fs::read_to_string(dir.path().join("tools.csv")).unwrap();
    let sites = std::fs::read_to_string(dir.path().join("sites.csv")).unwrap();
    assert!(
        tools.contains(",\"'=HYPERLINK(\"\"https://evil.example/\"\",\"\"click\"\")\","),
        "{tools}"
    );
    assert!(sites.contains(",\"'@SUM(1+1)\",\"'-1\","), "{sites}");
    // No cell of any row starts a formula once read.
    for cell in csv_cells(&tools).chain(csv_cells(&sites)) {
        assert!(!cell.starts_with(crate::inert::FORMULA_STARTS), "{cell}");
    }
}

/// Every cell of a CSV text as a reader sees it (RFC 4180: quotes removed, doubled ones kept).
fn csv_cells(text: &str) -> impl Iterator<Item = String> {
    let mut cells = Vec::new();
    let (mut cell, mut quoted, mut chars) = (String::new(), false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',' | '\n', false) => cells.push(std::mem::take(&mut cell)),
            (c, _) => cell.push(c),
        }
    }
    cells.into_iter()
}
