//! Tagging a typical tools list: the capability table over the 117 tools of GitHub's server as
//! the labelled corpus holds them (names, descriptions, schemas, annotations), parsed once
//! outside the timing. Reports the time per list and per tool, against the ~1 ms of CPU a site
//! costs the crawl (BENCHMARKS.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcpcensus::capability::tag_tool;
use serde_json::Value;

fn github_tools() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crawler/tests/tool-corpus/tools.json"
    );
    let text = std::fs::read_to_string(path).expect("the corpus");
    let all: Vec<Value> = serde_json::from_str(&text).expect("JSON");
    all.into_iter()
        .filter(|t| {
            t["source"]
                .as_str()
                .unwrap_or_default()
                .contains("github-mcp-server")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let tools = github_tools();
    let mut group = c.benchmark_group("capabilities");
    group.throughput(Throughput::Elements(tools.len() as u64));
    group.bench_function("tag_github_tools_list", |b| {
        b.iter(|| {
            tools
                .iter()
                .map(|t| {
                    tag_tool(
                        t["name"].as_str().unwrap_or_default(),
                        t["description"].as_str(),
                        Some(&t["annotations"]).filter(|a| a.is_object()),
                        Some(&t["input_schema"]),
                    )
                    .0
                })
                .fold(0u8, |a, b| a ^ b)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
