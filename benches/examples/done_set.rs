#![allow(clippy::unwrap_used, clippy::print_stdout)]
//! What a resume's done set costs: resident bytes per input line for the bitset (one input
//! file), the hashed multiset (several files) and the `HashMap<u64, u32>` it replaced, or the
//! time of one resume pass over a store of N records. One layout a process, so freed memory
//! of one is not counted for the next:
//!   cargo run --release -p mcpcensus-benches --example done_set -- hashmap|keys|bits|pass N

use std::collections::HashMap;
use std::time::Instant;

use mcpcensus::run::DoneSet;
use mcpcensus_store::{Outcome, Record, RunManifest, Store};

/// Resident set size now, from /proc (Linux).
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

fn input(i: u64) -> String {
    format!("site{i}.example.com")
}

/// Builds a structure of `lines` entries and reports its resident cost per line.
fn measure<T>(name: &str, lines: u64, build: impl FnOnce() -> T) -> T {
    let before = rss_bytes();
    let started = Instant::now();
    let built = build();
    let secs = started.elapsed().as_secs_f64();
    let bytes = rss_bytes().saturating_sub(before);
    println!(
        "{name:<28} {lines} lines: {:>7.1} MB resident, {:>5.2} B/line, built in {secs:.2} s",
        bytes as f64 / 1e6,
        bytes as f64 / lines as f64
    );
    built
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "bits".to_owned());
    let n: u64 = args.next().map_or(10_000_000, |a| a.parse().unwrap());
    match mode.as_str() {
        "hashmap" => {
            let key = |i: u64| xxhash_rust::xxh3::xxh3_64_with_seed(input(i).as_bytes(), i);
            let mut map = measure("HashMap<u64,u32> (before)", n, || {
                let mut m: HashMap<u64, u32> = HashMap::new();
                for i in 1..=n {
                    *m.entry(key(i)).or_default() += 1;
                }
                m
            });
            let started = Instant::now();
            let hits = (1..=n).filter(|i| map.remove(&key(*i)).is_some()).count();
            println!("  {hits} takes in {:.2} s", started.elapsed().as_secs_f64());
        }
        "keys" => {
            let mut keys = measure("hashed multiset (files > 1)", n, || {
                let mut d = DoneSet::default();
                for i in 1..=n {
                    d.insert(i, &input(i));
                }
                d.take(1, &input(1)); // sorts
                d
            });
            let started = Instant::now();
            let hits = (2..=n).filter(|i| keys.take(*i, &input(*i))).count();
            println!("  {hits} takes in {:.2} s", started.elapsed().as_secs_f64());
        }
        "bits" => drop(measure("bitset (one input file)", n, || {
            let mut d = DoneSet::lines(n);
            for i in 1..=n {
                d.insert(i, "");
            }
            d
        })),
        "pass" => resume_pass(n),
        other => panic!("unknown mode {other}: hashmap, keys, bits or pass"),
    }
}

/// One resume pass over a store of `records` records (writing it is not timed).
fn resume_pass(records: u64) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let manifest = RunManifest::new("bench", 0, Vec::new(), serde_json::Value::Null, false);
    let mut w = store.create_run(&manifest).unwrap();
    for i in 1..=records {
        let mut r = Record::new("bench", 0, &input(i), i, Outcome::OutOfScope, "no MCP");
        r.origin = Some(format!("https://{}", input(i)));
        w.append(&r).unwrap();
    }
    w.finish().unwrap();
    let started = Instant::now();
    let mut done = DoneSet::lines(records);
    let (writer, pass) = store
        .resume_run_keeping("bench", |r| done.insert(r.input_line, &r.input))
        .unwrap();
    drop(writer);
    println!(
        "resume pass over {records} records: {:.2} s ({} kept, {} B of done set)",
        started.elapsed().as_secs_f64(),
        pass.kept,
        done.heap_bytes()
    );
}
