//! A census history for `scripts/bench-rescan-shards.sh`: one complete run in DST with N
//! sites (`https://www.siteK.test`, K < N, each its own registrable domain), every one last
//! scanned 30 days ago, so `crawl --rescan-older-than 7d` re-scans all of them.
//! usage: cargo run --release -p mcpcensus-benches --example rescan_history -- DST N

use mcpcensus_store::{now_ms, Outcome, Record, RunCounts, RunManifest, RunStatus, Store};

const DAY_MS: u64 = 24 * 3600 * 1000;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, dst, n] = args.as_slice() else {
        return Err("usage: rescan_history DST N".into());
    };
    let n: u64 = n.parse()?;
    let store = Store::open(dst)?;
    let at = now_ms() - 30 * DAY_MS;
    let mut manifest = RunManifest::new(
        "20000101T000000Z-history",
        at,
        vec![],
        serde_json::json!({}),
        false,
    );
    manifest.status = RunStatus::Complete;
    let mut writer = store.create_run(&manifest)?;
    let mut counts = RunCounts::default();
    for k in 0..n {
        let host = format!("www.site{k}.test");
        let mut r = Record::new(&manifest.run_id, at, &host, k + 1, Outcome::Fail, "old");
        r.origin = Some(format!("https://{host}"));
        r.host = Some(host);
        r.registrable_domain = Some(format!("site{k}.test"));
        counts.records_written += 1;
        *counts.per_outcome.entry(r.outcome).or_default() += 1;
        writer.append(&r)?;
    }
    writer.finish()?;
    manifest.counts = Some(counts);
    store.write_manifest(&manifest)?;
    println!("history {}: {n} sites", manifest.run_id);
    Ok(())
}
