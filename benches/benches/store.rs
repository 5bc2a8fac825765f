#![allow(clippy::unwrap_used)]
//! Embedded store throughput: appending and reading records.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use mcpcensus_store::{Outcome, Record, RunManifest, Store};

const RECORDS: usize = 10_000;

fn record(i: usize) -> Record {
    let mut r = Record::new(
        "bench",
        0,
        &format!("site{i}.example.com"),
        i as u64,
        Outcome::Pass,
        "tools/list names 3 tools",
    );
    r.origin = Some(format!("https://site{i}.example.com"));
    r.tool_names = vec!["search".into(), "get_page".into(), "list".into()];
    r
}

fn bench(c: &mut Criterion) {
    let records: Vec<Record> = (0..RECORDS).map(record).collect();
    let mut group = c.benchmark_group("store");
    group.throughput(Throughput::Elements(RECORDS as u64));
    group.sample_size(20);
    group.bench_function("append", |b| {
        b.iter_batched(
            || tempfile::tempdir().unwrap(),
            |dir| {
                let store = Store::open(dir.path()).unwrap();
                let manifest =
                    RunManifest::new("bench", 0, Vec::new(), serde_json::Value::Null, false);
                let mut w = store.create_run(&manifest).unwrap();
                for r in &records {
                    w.append(r).unwrap();
                }
                w.finish().unwrap();
                dir
            },
            BatchSize::PerIteration,
        )
    });
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let manifest = RunManifest::new("bench", 0, Vec::new(), serde_json::Value::Null, false);
    let mut w = store.create_run(&manifest).unwrap();
    for r in &records {
        w.append(r).unwrap();
    }
    w.finish().unwrap();
    group.bench_function("read", |b| {
        b.iter(|| store.read_run("bench").unwrap().map(Result::unwrap).count())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
