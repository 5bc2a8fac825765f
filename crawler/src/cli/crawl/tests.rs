use super::limits::{fds_needed, plan, FDS_PER_SITE, FDS_RESERVED};

#[test]
fn the_soft_limit_is_raised_to_what_the_concurrency_needs() {
    let p = plan(Some(1024), Some(524_288), None, 1000).unwrap();
    assert_eq!(p.soft, 524_288);
    assert!(p.soft >= fds_needed(1000));
    assert_eq!(p.concurrency, 1000);
}

#[test]
fn root_raises_the_hard_limit_up_to_the_kernel_ceiling() {
    let p = plan(Some(256), Some(256), Some(1_048_576), 1000).unwrap();
    assert_eq!(
        (p.soft, p.hard, p.concurrency),
        (1_048_576, 1_048_576, 1000)
    );
}

#[test]
fn a_hard_limit_too_low_lowers_the_concurrency() {
    let p = plan(Some(256), Some(256), None, 1000).unwrap();
    assert_eq!(p.soft, 256);
    assert_eq!(p.concurrency as u64, (256 - FDS_RESERVED) / FDS_PER_SITE);
}

#[test]
fn a_limit_without_room_for_one_site_is_refused() {
    let e = plan(Some(64), Some(64), None, 10).unwrap_err().to_string();
    assert!(e.contains("ulimit -n"), "{e}");
}

#[test]
fn unlimited_stays_unlimited() {
    let p = plan(None, None, None, 100_000).unwrap();
    assert_eq!(p.concurrency, 100_000);
}

fn selection(sinks: Option<&str>) -> super::selection::Selection {
    super::selection::Selection {
        inputs: vec![super::selection::FileId {
            path: "/lists/top.txt".into(),
            bytes: 1000,
            modified_ms: 1,
        }],
        shard: "1/1".into(),
        exclusions: Vec::new(),
        rescan: None,
        sinks: sinks.map(str::to_owned),
    }
}

#[test]
fn a_run_resumes_only_into_the_sinks_it_was_started_with() {
    let recorded = serde_json::to_value(selection(Some("clickhouse"))).unwrap();
    selection(Some("clickhouse"))
        .check_same_as(Some(&recorded))
        .unwrap();
    let e = selection(Some("both"))
        .check_same_as(Some(&recorded))
        .unwrap_err()
        .to_string();
    assert!(e.contains("ClickHouse alone"), "{e}");
    // A manifest from before the sinks were recorded is not refused for it.
    let old = serde_json::to_value(selection(None)).unwrap();
    assert!(old.get("sinks").is_none());
    selection(Some("both")).check_same_as(Some(&old)).unwrap();
}

#[test]
fn one_input_file_gets_the_bitset_and_several_the_hashed_keys() {
    let mut one = selection(None).done_set();
    let mut two = selection(None);
    two.inputs.push(two.inputs[0].clone());
    for line in 1..=1000 {
        one.insert(line, "a.test");
    }
    let mut several = two.done_set();
    for line in 1..=1000 {
        several.insert(line, "a.test");
    }
    assert!(one.heap_bytes() < 200, "{}", one.heap_bytes());
    assert!(several.heap_bytes() >= 8000, "{}", several.heap_bytes());
}
