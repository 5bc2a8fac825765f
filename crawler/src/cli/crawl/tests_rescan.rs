use super::rescan::{cutoff, write_targets, LastScans, Rescan};
use crate::input::Source;

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
            "https://a.test",
            "https://b.test",
            "https://new.test",
            // Not a site: copied, so the crawl records why.
            "http://plain.test",
            "https://new2.test:8443",
        ]
    );
    assert_eq!((r.stale, r.new, r.fresh_skipped), (2, 2, 1));
}

#[test]
fn a_bad_duration_is_an_error_naming_the_flag() {
    let e = cutoff("7 parsecs", 0).unwrap_err();
    assert!(format!("{e:#}").contains("--rescan-older-than"), "{e:#}");
}

#[test]
fn a_rescan_keeps_each_sites_rank_and_reads_the_lists_headers() {
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
            "3,https://kept.test",
            "7,https://old.test",
            "5000,https://new.test",
            "10000,https://www.new.test",
        ]
    );
    assert_eq!((r.stale, r.new, r.fresh_skipped), (2, 2, 0));
}
