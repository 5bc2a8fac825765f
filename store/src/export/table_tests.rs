//! The flat tables of a 10,000-site run (simulated records written straight into a store, as
//! a crawl would write them), read back by pyarrow: the same row counts, outcomes, nulls and
//! list lengths as the records, for Parquet and CSV; ClickHouse (chdb) counts the Parquet
//! rows too. pyarrow and chdb come from scripts/setup.sh;
//! without it the test fails under the suite (MCPCENSUS_TEST_CLICKHOUSE set) and is skipped
//! otherwise.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

use super::{write_tables, TableFormat};
use crate::record::Record;
use crate::store::{Store, WriterOptions};
use crate::testutil::full_record;

const RUN: &str = "20261201T000000Z-abcdef";
const SITES: usize = 10_000;

/// Site `i`: 0-3 tools, 0-2 findings with CSV-hostile evidence, some without origin or
/// endpoint.
fn record(i: usize) -> Record {
    let mut r = full_record(RUN, i);
    r.origin = Some(format!("https://s{i}.example"));
    let tool = r.tools[0].clone();
    r.tools = (0..i % 4).map(|_| tool.clone()).collect();
    r.tool_names = r.tools.iter().map(|t| t.name.clone()).collect();
    let finding = r.findings[0].clone();
    r.findings = (0..i % 3)
        .map(|n| {
            let mut f = finding.clone();
            f.evidence = format!("line one, \"quoted\"\nline {n}");
            f
        })
        .collect();
    if i.is_multiple_of(7) {
        r.endpoint = None;
    }
    if i % 1000 == 3 {
        r.origin = None;
    }
    r
}

const READ_BACK: &str = r#"
import json, sys, pyarrow.parquet as pq, pyarrow.csv as pc, pyarrow.compute as pa_c
d, fmt = sys.argv[1], sys.argv[2]
def read(name):
    p = f"{d}/{name}.{fmt}"
    if fmt == "parquet":
        return pq.read_table(p)
    parse = pc.ParseOptions(newlines_in_values=True)
    convert = pc.ConvertOptions(strings_can_be_null=True, quoted_strings_can_be_null=False)
    return pc.read_csv(p, parse_options=parse, convert_options=convert)
sites, tools, findings = read("sites"), read("tools"), read("findings")
outcomes = {}
for o in sites.column("outcome").to_pylist():
    outcomes[o] = outcomes.get(o, 0) + 1
names = sites.column("tool_names").to_pylist()
if fmt == "csv":
    names = [json.loads(n) for n in names]
meta = pq.read_metadata(f"{d}/sites.parquet").metadata if fmt == "parquet" else {}
# ClickHouse (26.x, via chdb) reads the same Parquet files.
clickhouse = [sites.num_rows, tools.num_rows, findings.num_rows]
if fmt == "parquet":
    import chdb
    clickhouse = [int(str(chdb.query(f"SELECT count() FROM file('{d}/{t}.parquet', Parquet)",
                                     "TabSeparated")).strip())
                  for t in ("sites", "tools", "findings")]
print(json.dumps({
    "sites": sites.num_rows, "tools": tools.num_rows, "findings": findings.num_rows,
    "outcomes": outcomes,
    "no_endpoint": sites.column("endpoint").null_count,
    "no_origin": sites.column("origin").null_count,
    "tool_names": sum(len(n) for n in names),
    "distinct_keys": len(set(sites.column("site_key").to_pylist())),
    "evidence_newlines": sum(e.count("\n") for e in findings.column("evidence").to_pylist()),
    "clickhouse_rows": clickhouse,
    "run_in_metadata": json.loads(meta[b"mcpcensus.run"])["run_id"] if meta else RUN_ID,
}, sort_keys=True))
"#;

fn expected(records: &[Record]) -> Value {
    let mut outcomes = BTreeMap::new();
    for r in records {
        *outcomes.entry(r.outcome.as_str()).or_insert(0u64) += 1;
    }
    json!({
        "sites": records.len(),
        "tools": records.iter().map(|r| r.tools.len()).sum::<usize>(),
        "findings": records.iter().map(|r| r.findings.len()).sum::<usize>(),
        "outcomes": outcomes,
        "no_endpoint": records.iter().filter(|r| r.endpoint.is_none()).count(),
        "no_origin": records.iter().filter(|r| r.origin.is_none()).count(),
        "tool_names": records.iter().map(|r| r.tool_names.len()).sum::<usize>(),
        "distinct_keys": records.len(),
        "evidence_newlines": records.iter().map(|r| r.findings.len()).sum::<usize>(),
        "clickhouse_rows": [
            records.len(),
            records.iter().map(|r| r.tools.len()).sum::<usize>(),
            records.iter().map(|r| r.findings.len()).sum::<usize>(),
        ],
        "run_in_metadata": RUN,
    })
}

fn pyarrow_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import pyarrow, chdb"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        let suite = std::env::var("MCPCENSUS_TEST_CLICKHOUSE").is_ok_and(|v| !v.is_empty());
        assert!(
            !suite,
            "pyarrow or chdb is missing: scripts/setup.sh installs them"
        );
        eprintln!("SKIPPED: python3 with pyarrow and chdb not found (scripts/setup.sh)");
    }
    ok
}

fn read_back(dir: &Path, format: &str) -> Value {
    let script = READ_BACK.replace("RUN_ID", &format!("{RUN:?}"));
    let out = Command::new("python3")
        .args(["-c", &script])
        .arg(dir)
        .arg(format)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_10k_site_run_reads_back_in_pyarrow_with_identical_counts() {
    if !pyarrow_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_with(dir.path().join("store"), WriterOptions::default()).unwrap();
    let manifest = crate::RunManifest::new(RUN, 0, vec![], Value::Null, false);
    let mut writer = store.create_run(&manifest).unwrap();
    let records: Vec<Record> = (0..SITES).map(record).collect();
    for r in &records {
        writer.append(r).unwrap();
    }
    writer.finish().unwrap();
    let provenance = serde_json::to_value(&manifest).unwrap();
    let want = expected(&records);
    for (format, name) in [(TableFormat::Parquet, "parquet"), (TableFormat::Csv, "csv")] {
        let out = dir.path().join(name);
        let counts = write_tables(store.read_run(RUN).unwrap(), &out, format, &provenance).unwrap();
        assert_eq!(counts[0], SITES as u64);
        assert_eq!(read_back(&out, name), want, "{name}");
        let meta: Value =
            serde_json::from_slice(&std::fs::read(out.join("export.json")).unwrap()).unwrap();
        assert_eq!(meta["run"]["run_id"], RUN);
        assert_eq!(meta["rows"][format!("sites.{name}")], SITES);
    }
}

const TYPES: &str = r#"
import json, sys, pyarrow.parquet as pq
d = sys.argv[1]
out = {}
for t in ("sites", "tools", "findings"):
    f = pq.ParquetFile(f"{d}/{t}.parquet")
    md = f.metadata
    codecs = {md.row_group(g).column(c).compression
              for g in range(md.num_row_groups) for c in range(md.num_columns)}
    schema = f.schema_arrow
    out[t] = {"codecs": sorted(codecs),
              "types": {n: str(schema.field(n).type) for n in schema.names}}
sites = pq.read_table(f"{d}/sites.parquet").to_pylist()[0]
out["values"] = {k: sites[k].isoformat() if hasattr(sites[k], "isoformat") else sites[k]
                 for k in ("scanned_at", "scanned_at_ms", "defect", "session_id_issued", "surface")}
print(json.dumps(out))
"#;

/// pyarrow (not optional here: scripts/setup.sh installs it) reads the codec and the types.
#[test]
fn parquet_is_zstd_with_timestamps_and_booleans_typed_as_pyarrow_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = record(1);
    r.scanned_at = 1_764_547_200_123; // 2025-12-01T00:00:00.123Z
    r.defect = true;
    r.session_id_issued = false;
    r.surface = true;
    let out = dir.path().join("parquet");
    write_tables(
        std::iter::once(Ok(r)),
        &out,
        TableFormat::Parquet,
        &Value::Null,
    )
    .unwrap();
    let py = Command::new("python3")
        .args(["-c", TYPES])
        .arg(&out)
        .output()
        .expect("python3 with pyarrow (scripts/setup.sh installs it)");
    assert!(
        py.status.success(),
        "pyarrow could not read the export (scripts/setup.sh installs pyarrow): {}",
        String::from_utf8_lossy(&py.stderr)
    );
    let got: Value = serde_json::from_slice(&py.stdout).unwrap();
    let ts = "timestamp[ms, tz=UTC]";
    for table in ["sites", "tools", "findings"] {
        assert_eq!(got[table]["codecs"], json!(["ZSTD"]), "{table}");
        assert_eq!(got[table]["types"]["scanned_at"], ts, "{table}");
        assert_eq!(got[table]["types"]["run_id"], "string", "{table}");
    }
    let sites = &got["sites"]["types"];
    assert_eq!(sites["scanned_at_ms"], ts);
    for flag in ["defect", "session_id_issued", "surface"] {
        assert_eq!(sites[flag], "bool", "{flag}");
    }
    assert_eq!(sites["tool_count"], "uint64");
    assert_eq!(
        got["values"],
        json!({
            "scanned_at": "2025-12-01T00:00:00+00:00",
            "scanned_at_ms": "2025-12-01T00:00:00.123000+00:00",
            "defect": true,
            "session_id_issued": false,
            "surface": true,
        })
    );
}
