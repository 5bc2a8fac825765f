//! Input throughput: normalizing and planning lines (the dry run's hot path).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcpcensus::input::{normalize, Planner, RawLine, Shard};

fn lines(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| match i % 10 {
            0 => format!("WWW.Site{i}.example.com."),
            1 => format!("https://site{i}.example.co.uk/path"),
            2 => format!("bücher{i}.de"),
            3 => format!("site{i}.example.org:8443"),
            4 => "not a domain".to_owned(),
            _ => format!("site{i}.example.com"),
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let input = lines(10_000);
    let mut group = c.benchmark_group("input");
    group.throughput(Throughput::Elements(input.len() as u64));
    group.bench_function("normalize", |b| {
        b.iter(|| {
            for line in &input {
                black_box(normalize(line));
            }
        })
    });
    group.bench_function("plan", |b| {
        b.iter(|| {
            let mut planner = Planner::new(Shard::ALL, Default::default());
            for line in &input {
                black_box(planner.plan(RawLine::Text(line)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
