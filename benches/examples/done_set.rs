#![allow(clippy::unwrap_used, clippy::print_stdout)]
//! What a resume's done set costs: resident bytes per input line for the bitset (one input
//! file), the hashed multiset (several files) and the `HashMap<u64, u32>` it replaced, then
//! the time of one resume pass over a store of `RECORDS` records.
//!   cargo run --release -p mcpcensus-benches --example done_set [LINES] [RECORDS]

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
    let lines: u64 = args.next().map_or(10_000_000, |a| a.parse().unwrap());
    let records: u64 = args.next().map_or(1_000_000, |a| a.parse().unwrap());

    let map = measure("HashMap<u64,u32> (before)", lines, || {
        let mut m: HashMap<u64, u32> = HashMap::new();
        for i in 1..=lines {
            *m.entry(xxhash_rust::xxh3::xxh3_64_with_seed(input(i).as_bytes(), i))
                .or_default() += 1;
        }
        m
    });
    drop(map);
    let mut keys = measure("hashed multiset (files > 1)", lines, || {
        let mut d = DoneSet::default();
        for i in 1..=lines {
            d.insert(i, &input(i));
        }
        d.take(1, &input(1)); // sorts
        d
    });
    let started = Instant::now();
    let hits = (2..=lines).filter(|i| keys.take(*i, &input(*i))).count();
    println!("  {hits} takes in {:.2} s", started.elapsed().as_secs_f64());
    drop(keys);
    let bits = measure("bitset (one input file)", lines, || {
        let mut d = DoneSet::lines(lines);
        for i in 1..=lines {
            d.insert(i, "");
        }
        d
    });
    drop(bits);

    // One resume pass over a store of `records` records (writing it is not timed).
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
