use std::convert::Infallible;

use mcpcensus_store::inert::FORMULA_STARTS;
use mcpcensus_store::{DiscoveredVia, FailureKind, Outcome, Record};

use super::csv::{sheets, Sheet, INDEX_FILE, METHODS_FILE, SUMMARY_FILE};
use super::sections::{laid_out, sections, Layout};
use crate::{run_report, Comparison, Report, ReportSettings};

/// The rows of a CSV text as a reader sees them (RFC 4180: quoted fields may hold commas,
/// quotes doubled, line breaks).
fn rows(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut cell) = (Vec::new(), Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => row.push(std::mem::take(&mut cell)),
            ('\n', false) => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (c, _) => cell.push(c),
        }
    }
    rows
}

fn record(i: usize, outcome: Outcome, tools: &[&str]) -> Record {
    let mut r = Record::new("r1", 0, &format!("s{i}.test"), i as u64, outcome, "");
    r.origin = Some(format!("https://s{i}.test"));
    if !tools.is_empty() {
        r.endpoint = Some(format!("https://s{i}.test/mcp"));
        r.discovered_via = Some(DiscoveredVia::McpPath);
        r.tool_names = tools.iter().map(|t| t.to_string()).collect();
        r.tool_count = Some(tools.len() as u32);
    }
    r
}

const FORMULA: &str = "=HYPERLINK(\"https://evil.example/\",\"click\")";

fn report() -> Report {
    let mut cap = record(3, Outcome::Fail, &[]);
    cap.reason_kind = Some(FailureKind::BodyCap);
    let records = vec![
        record(0, Outcome::Pass, &[FORMULA, "search, then fetch"]),
        record(1, Outcome::Pass, &["-1+1", "search, then fetch"]),
        record(2, Outcome::OutOfScope, &[]),
        cap,
    ];
    let ok = records.into_iter().map(Ok::<_, Infallible>);
    let mut report = Report {
        run: run_report("r1", ok, ReportSettings::default()).unwrap_or_default(),
        comparison: Some(Comparison {
            base_run: "r0".into(),
            run: "r1".into(),
            endpoints_delta: -1,
            ..Comparison::default()
        }),
        ..Report::default()
    };
    crate::attach_methods(&mut report, &[]);
    report
}

fn sheet(all: &[Sheet], file: &str) -> Vec<Vec<String>> {
    let s = all
        .iter()
        .find(|s| s.file == file)
        .unwrap_or_else(|| panic!("no {file}"));
    rows(&s.text)
}

#[test]
fn every_table_is_a_sheet_listed_in_the_index_with_its_header() {
    let report = report();
    let all = sheets(&report);
    let index = sheet(&all, INDEX_FILE);
    assert_eq!(index[0], ["File", "Section", "Title", "Note"]);
    let listed: Vec<&str> = index[1..].iter().map(|r| r[0].as_str()).collect();
    let written: Vec<&str> = all[1..].iter().map(|s| s.file.as_str()).collect();
    assert_eq!(listed, written);
    for section in laid_out(&report, Layout::Sheets) {
        for t in &section.tables {
            let rows = sheet(&all, &format!("{}.csv", t.id));
            assert_eq!(rows[0], t.columns, "{}", t.id);
            assert_eq!(rows.len(), t.rows.len() + 1, "{}", t.id);
        }
    }
    // Every table the page shows is a sheet; tables the deep probe fills are sheets even
    // when empty, so their files are always there.
    for t in sections(&report).iter().flat_map(|s| &s.tables) {
        assert!(
            all.iter().any(|s| s.file == format!("{}.csv", t.id)),
            "{}",
            t.id
        );
    }
    for always in ["transports.csv", "grades.csv", "trend-adoption.csv"] {
        assert!(all.iter().any(|s| s.file == always), "{always}");
    }
    assert_eq!(sheet(&all, "transports.csv"), [["Transport", "Sites"]]);
    let methods = sheet(&all, METHODS_FILE);
    assert_eq!(methods[0], ["Key", "Value"]);
    assert_eq!(methods[3][0], "never done");
}

#[test]
fn numbers_are_plain_and_equal_the_report() {
    let report = report();
    let all = sheets(&report);
    let summary = sheet(&all, SUMMARY_FILE);
    let value = |key: &str| {
        summary
            .iter()
            .find(|r| r[0] == key)
            .map(|r| r[1].clone())
            .unwrap_or_else(|| panic!("no {key}"))
    };
    assert_eq!(value("sites_scanned"), "4");
    assert_eq!(value("endpoints"), "2");
    assert_eq!(value("sites_body_cap"), "1");
    assert_eq!(value("sites_newer_revision_only"), "0");
    assert_eq!(value("compared_with"), "r0");
    let measured = sheet(&all, "measured-outcomes.csv");
    assert_eq!(measured[1], ["pass", "2", "50"]);
    let kinds = sheet(&all, "outcomes-by-reason-kind.csv");
    assert_eq!(kinds[1..], [["fail", "body_cap", "1"]]);
    // A negative change starts with `-`: guarded like any cell that could start a formula.
    let change = sheet(&all, "compare-summary.csv");
    assert!(change.contains(&vec!["endpoints, change".into(), "'-1".into()]));
}

#[test]
fn server_text_never_starts_a_formula_and_keeps_its_commas() {
    let all = sheets(&report());
    for s in &all {
        for cell in rows(&s.text).iter().flatten() {
            assert!(!cell.starts_with(FORMULA_STARTS), "{}: {cell:?}", s.file);
        }
    }
    let names = sheet(&all, "tool-names.csv");
    assert_eq!(names[1], ["search, then fetch", "2"]);
    assert!(names.contains(&vec![format!("'{FORMULA}"), "1".into()]));
    assert!(names.contains(&vec!["'-1+1".into(), "1".into()]));
    let text = &all
        .iter()
        .find(|s| s.file == "tool-names.csv")
        .map(|s| &s.text);
    assert!(
        text.is_some_and(|t| t.contains("\"'=HYPERLINK(\"\"https://evil.example/\"\",")),
        "{text:?}"
    );
}
