//! A large store for `scripts/bench-report.sh`: every run of SRC copied into DST with its
//! records repeated until the run holds N, each copy with distinct origins (`/cK` appended to
//! the origin, distinct input lines), so ClickHouse keeps one sites row per record. The
//! manifests' counts are recomputed from the records written.
//! usage: cargo run --release -p mcpcensus-benches --example report_fixture -- SRC DST N

use mcpcensus_store::{RunCounts, RunStatus, Store};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, src, dst, n] = args.as_slice() else {
        return Err("usage: report_fixture SRC DST N".into());
    };
    let n: u64 = n.parse()?;
    let src = Store::open(src)?;
    let dst = Store::open(dst)?;
    for manifest in src.runs()? {
        let records = src
            .read_run(&manifest.run_id)?
            .collect::<Result<Vec<_>, _>>()?;
        if records.is_empty() {
            continue;
        }
        let mut out = manifest.clone();
        out.counts = None;
        out.status = RunStatus::Complete;
        let mut writer = dst.create_run(&out)?;
        let mut counts = RunCounts::default();
        for i in 0..n {
            let copy = i / records.len() as u64;
            let mut r = records[(i % records.len() as u64) as usize].clone();
            if copy > 0 {
                r.origin = r.origin.map(|o| format!("{o}/c{copy}"));
            }
            r.input_line = i + 1;
            counts.records_written += 1;
            *counts.per_outcome.entry(r.outcome).or_default() += 1;
            counts.endpoints += u64::from(r.endpoint.is_some());
            writer.append(&r)?;
        }
        writer.finish()?;
        out.counts = Some(counts);
        dst.write_manifest(&out)?;
        println!("run {}: {n} records", out.run_id);
    }
    Ok(())
}
