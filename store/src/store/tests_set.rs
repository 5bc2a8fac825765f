//! Stores read together: a run written by shard processes into their own stores is one run,
//! read whole; the same shard's part found twice is refused, not counted twice.

use super::*;
use crate::error::StoreError;
use crate::record::{Outcome, Record};

fn part(store: &Store, run_id: &str, shard: &str, started_at: u64, sites: &[&str]) {
    let mut m = RunManifest::new(run_id, started_at, vec![], serde_json::json!({}), false);
    m.selection = Some(serde_json::json!({ "shard": shard }));
    let mut writer = store.create_run(&m).unwrap();
    for (n, site) in sites.iter().enumerate() {
        writer
            .append(&Record::new(
                run_id,
                started_at,
                site,
                n as u64 + 1,
                Outcome::OutOfScope,
                "no endpoint",
            ))
            .unwrap();
    }
    writer.finish().unwrap();
}

fn inputs(set: &StoreSet, run_id: &str) -> Vec<String> {
    let mut got: Vec<String> = set
        .read_run(run_id)
        .unwrap()
        .map(|r| r.unwrap().input)
        .collect();
    got.sort();
    got
}

#[test]
fn a_sharded_run_in_separate_stores_is_one_run() {
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let stores: Vec<Store> = dirs
        .iter()
        .map(|d| Store::open(d.path()).unwrap())
        .collect();
    part(&stores[0], "night-1", "0/2", 10, &["a.test", "b.test"]);
    part(&stores[1], "night-1", "1/2", 12, &["c.test"]);
    part(&stores[0], "night-2", "0/2", 20, &["a.test"]);
    part(&stores[1], "night-2", "1/2", 21, &["c.test", "d.test"]);
    // A third store holding an unsharded run of its own.
    part(&stores[2], "other", "0/1", 15, &["z.test"]);
    // The same folder twice is read once.
    let again = Store::open(dirs[0].path()).unwrap();
    let mut all = stores.clone();
    all.push(again);
    let set = StoreSet::new(all);
    assert_eq!(set.stores().len(), 3);
    let runs = set.runs().unwrap();
    let ids: Vec<(&str, usize)> = runs
        .iter()
        .map(|parts| (parts[0].run_id.as_str(), parts.len()))
        .collect();
    assert_eq!(ids, [("night-1", 2), ("other", 1), ("night-2", 2)]);
    assert_eq!(set.latest_run().unwrap().unwrap()[0].run_id, "night-2");
    assert_eq!(inputs(&set, "night-1"), ["a.test", "b.test", "c.test"]);
    assert_eq!(inputs(&set, "night-2"), ["a.test", "c.test", "d.test"]);
    assert!(matches!(
        set.read_run("never"),
        Err(StoreError::RunNotFound { .. })
    ));
}

#[test]
fn one_shard_found_in_two_stores_is_refused() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let (sa, sb) = (
        Store::open(a.path()).unwrap(),
        Store::open(b.path()).unwrap(),
    );
    part(&sa, "night-1", "1/4", 10, &["a.test"]);
    part(&sb, "night-1", "1/4", 11, &["a.test"]);
    let set = StoreSet::new(vec![sa, sb]);
    let err = set.runs().unwrap_err();
    assert!(
        matches!(&err, StoreError::SamePartTwice { run_id, shard, .. } if run_id == "night-1" && shard == "1/4"),
        "{err}"
    );
    assert!(
        err.to_string().contains("give each shard's store once"),
        "{err}"
    );
}
