use std::collections::BTreeSet;

use mcpcensus_store::{Outcome, Record, RunManifest};

use super::rescan::{cutoff, write_targets, LastScans, Rescan};
use crate::input::{LineReader, Planned, Planner, Shard, Source};

const DAY: u64 = 24 * 3600 * 1000;

#[test]
fn the_target_list_holds_the_stale_sites_then_the_new_ones_once() {
    let dir = tempfile::tempdir().unwrap();
    let now = 100 * DAY;
    let mut last = LastScans::default();
    last.see("https://b.test".into(), now - 30 * DAY, None);
    last.see("https://a.test".into(), now - 9 * DAY, None);
    // The newest record counts: fresh.
    last.see("https://fresh.test".into(), now - 40 * DAY, None);
    last.see("https://fresh.test".into(), now - DAY, None);
    let list = dir.path().join("list.txt");
    std::fs::write(
        &list,
        "# sites\nFRESH.test\nb.test\nnew.test\nnew.test\nhttp://plain.test\nnew2.test:8443\n",
    )
    .unwrap();
    let path = dir.path().join("targets.txt");
    let mut r = Rescan {
        cutoff_ms: cutoff("7d", now).unwrap(),
        ..Rescan::default()
    };
    write_targets(
        &path,
        &last,
        &[Source::File(list)],
        &Default::default(),
        &mut r,
    )
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        lines,
        [
            // The lists' sites first, in list order: stale b.test, then the new ones.
            "https://b.test",
            "https://new.test",
            // Not a site: copied, so the crawl records why.
            "http://plain.test",
            "https://new2.test:8443",
            // Then the stale sites no list names.
            "https://a.test",
        ]
    );
    assert_eq!((r.stale, r.new, r.fresh_skipped), (2, 2, 1));
    assert_eq!(r.ranks_from_lists, 1);
}

#[test]
fn a_bad_duration_is_an_error_naming_the_flag() {
    let e = cutoff("7 parsecs", 0).unwrap_err();
    assert!(format!("{e:#}").contains("--rescan-older-than"), "{e:#}");
}

#[test]
fn todays_list_gives_the_rank_and_an_unlisted_site_keeps_its_last_one() {
    let dir = tempfile::tempdir().unwrap();
    let now = 100 * DAY;
    let mut last = LastScans::default();
    last.see("https://old.test".into(), now - 40 * DAY, Some(9));
    // The newest record's rank counts; a record without one keeps the older rank.
    last.see("https://old.test".into(), now - 30 * DAY, Some(7));
    last.see("https://kept.test".into(), now - 30 * DAY, Some(3));
    last.see("https://kept.test".into(), now - 20 * DAY, None);
    let list = dir.path().join("crux.csv");
    std::fs::write(
        &list,
        "origin,rank\nhttps://old.test,1000\nhttps://new.test,5000\nhttps://www.new.test,10000\n",
    )
    .unwrap();
    let path = dir.path().join("targets.txt");
    let mut r = Rescan {
        cutoff_ms: cutoff("7d", now).unwrap(),
        ..Rescan::default()
    };
    write_targets(
        &path,
        &last,
        &[Source::File(list)],
        &Default::default(),
        &mut r,
    )
    .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        lines,
        [
            // Listed again today at 1000: today's rank, not its last record's 7.
            "1000,https://old.test",
            "5000,https://new.test",
            "10000,https://www.new.test",
            // Not listed today: its last rank.
            "3,https://kept.test",
        ]
    );
    assert_eq!((r.stale, r.new, r.fresh_skipped), (2, 2, 0));
    assert_eq!(r.ranks_from_lists, 1);
}

/// The target list a shard's re-scan writes (stale and new sites), then what its crawl plans
/// from it: origins, and the sites the planner left to another shard.
fn shard_rescan(
    store: &mcpcensus_store::Store,
    list: &std::path::Path,
    shard: Shard,
    dir: &std::path::Path,
) -> (LastScans, BTreeSet<String>, u64) {
    let last = LastScans::from_store(store, shard).unwrap();
    let path = dir.join(format!("targets-{}-{}.txt", shard.index, shard.count));
    let mut r = Rescan {
        cutoff_ms: cutoff("7d", 100 * DAY).unwrap(),
        ..Rescan::default()
    };
    let source = Source::File(list.to_owned());
    write_targets(&path, &last, &[source], &Default::default(), &mut r).unwrap();
    assert_eq!(r.stale + r.new, {
        let text = std::fs::read_to_string(&path).unwrap();
        text.lines().filter(|l| !l.starts_with('#')).count() as u64
    });
    // The crawl reads the pinned list through its own planner and shard.
    let mut planner = Planner::new(shard, Default::default());
    let mut reader = LineReader::new(vec![Source::File(path)]);
    let mut planned = BTreeSet::new();
    while let Some((line_no, raw)) = reader.next_line_at().unwrap() {
        if let Planned::Scan(t) = planner.plan_at(line_no, raw) {
            assert!(planned.insert(t.origin), "once");
        }
    }
    (last, planned, planner.counts().other_shard)
}

#[test]
fn a_sharded_rescan_reads_and_scans_only_its_own_shard_and_the_shards_cover_all_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = mcpcensus_store::Store::open(dir.path().join("store")).unwrap();
    let now = 100 * DAY;
    let manifest = RunManifest::new(
        "20000101T000000Z-old",
        0,
        vec![],
        serde_json::json!({}),
        false,
    );
    let mut w = store.create_run(&manifest).unwrap();
    let mut list = String::new();
    for i in 0..400u64 {
        // Sites and their subdomains (one registrable domain, so one shard), some fresh.
        for origin in [
            format!("https://site{i}.test"),
            format!("https://www.site{i}.co.uk"),
        ] {
            let at = if i % 5 == 0 {
                now - DAY
            } else {
                now - 30 * DAY
            };
            let mut r = Record::new(&manifest.run_id, at, &origin, i, Outcome::Fail, "old");
            r.origin = Some(origin);
            w.append(&r).unwrap();
        }
        list.push_str(&format!("site{i}.test\napi.site{i}.co.uk\nnew{i}.test\n"));
    }
    w.finish().unwrap();
    let list_path = dir.path().join("list.txt");
    std::fs::write(&list_path, list).unwrap();

    let (all_last, all, _) = shard_rescan(&store, &list_path, Shard::ALL, dir.path());
    assert_eq!(all_last.len(), 800);
    let mut union = BTreeSet::new();
    for index in 0..4 {
        let shard = Shard { index, count: 4 };
        let (last, planned, other_shard) = shard_rescan(&store, &list_path, shard, dir.path());
        // Only the shard's sites were kept while reading the history...
        assert!(last.len() < 800 / 2, "shard {index} kept {}", last.len());
        // ...its pinned list names only sites its crawl scans...
        assert_eq!(other_shard, 0, "shard {index}");
        // ...and exactly the shard's part of the whole re-scan.
        let expected: BTreeSet<String> = all
            .iter()
            .filter(|origin| match crate::input::normalize(origin) {
                crate::input::Line::Target(t) => shard.owns(&t.registrable_domain),
                _ => panic!("{origin} is a site"),
            })
            .cloned()
            .collect();
        assert_eq!(planned, expected, "shard {index}");
        for origin in planned {
            assert!(union.insert(origin), "in one shard only");
        }
    }
    assert_eq!(union, all);
    // 320 stale sites of each of the two kinds; new: `api.` of every `.co.uk` and `new{i}`.
    assert_eq!(all.len(), 2 * 320 + 2 * 400);
}
