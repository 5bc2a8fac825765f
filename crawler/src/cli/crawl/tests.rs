use super::limits::{fds_needed, plan, DNS_SOCKETS_PER_LOOKUP, FDS_RESERVED};

/// The resolver's default lookups at once.
const LOOKUPS: usize = crate::config::defaults::RESOLVER_CONCURRENCY;

#[test]
fn the_soft_limit_is_raised_to_what_the_concurrency_needs() {
    let p = plan(Some(1024), Some(524_288), None, 1000, LOOKUPS).unwrap();
    assert_eq!(p.soft, 524_288);
    assert!(p.soft >= fds_needed(1000, LOOKUPS));
    assert_eq!(p.concurrency, 1000);
}

#[test]
fn root_raises_the_hard_limit_up_to_the_kernel_ceiling() {
    let p = plan(Some(256), Some(256), Some(1_048_576), 1000, LOOKUPS).unwrap();
    assert_eq!(
        (p.soft, p.hard, p.concurrency),
        (1_048_576, 1_048_576, 1000)
    );
}

#[test]
fn a_hard_limit_too_low_lowers_the_concurrency() {
    let p = plan(Some(2048), Some(2048), None, 5000, LOOKUPS).unwrap();
    assert_eq!(p.soft, 2048);
    // The sites covered are the most whose need fits the limit.
    assert!(fds_needed(p.concurrency, p.lookups) <= 2048, "{p:?}");
    assert!(fds_needed(p.concurrency + 1, p.lookups) > 2048, "{p:?}");
}

// The DNS sockets are one bound for the run, not a cost a site: 20,000 open files (a usual
// container's hard limit) cover more than 16,000 sites in flight, 9 descriptors per 8 sites.
#[test]
fn twenty_thousand_open_files_cover_sixteen_thousand_sites() {
    let p = plan(Some(20_000), Some(20_000), None, 100_000, LOOKUPS).unwrap();
    let dns = DNS_SOCKETS_PER_LOOKUP * LOOKUPS as u64;
    assert_eq!(dns, 1024);
    assert!(p.concurrency >= 16_000, "{p:?}");
    assert_eq!(p.lookups, LOOKUPS, "20,000 covers the lookups asked for");
    assert!(fds_needed(p.concurrency, LOOKUPS) <= 20_000);
    let per_site = (20_000 - FDS_RESERVED - dns) as f64 / p.concurrency as f64;
    assert!(per_site <= 1.5, "{per_site} descriptors a site");
    // Exact fits at every size: the covered count is the largest that fits beside the
    // lookups used.
    for limit in
        (FDS_RESERVED + DNS_SOCKETS_PER_LOOKUP + 2..FDS_RESERVED + 60).chain([1_200, 4_096, 65_536])
    {
        let p = plan(Some(limit), Some(limit), None, 1_000_000, LOOKUPS).unwrap();
        assert!(p.lookups >= 1 && p.lookups <= LOOKUPS, "{limit}: {p:?}");
        assert!(
            fds_needed(p.concurrency, p.lookups) <= limit,
            "{limit}: {p:?}"
        );
        assert!(
            fds_needed(p.concurrency + 1, p.lookups) > limit,
            "{limit}: {p:?}"
        );
    }
}

#[test]
fn a_limit_without_room_for_one_site_is_refused() {
    let e = plan(Some(64), Some(64), None, 10, 1)
        .unwrap_err()
        .to_string();
    assert!(e.contains("ulimit -n"), "{e}");
}

// A low limit (a child given 256, a small container) still runs: the DNS lookups at once are
// lowered so their sockets take at most a quarter of what the reserve leaves, then the sites.
#[test]
fn a_low_limit_lowers_the_dns_lookups_at_once_before_refusing() {
    let p = plan(Some(256), Some(256), None, 1000, LOOKUPS).unwrap();
    assert_eq!(p.lookups, 8, "{p:?}");
    assert!(p.concurrency >= 80, "{p:?}");
    assert!(fds_needed(p.concurrency, p.lookups) <= 256, "{p:?}");
    // A limit that covers everything keeps the lookups asked for.
    let p = plan(Some(65_536), Some(65_536), None, 1000, LOOKUPS).unwrap();
    assert_eq!(p.lookups, LOOKUPS);
    // Never more sites than asked for.
    let p = plan(Some(2_000), Some(2_000), None, 10, LOOKUPS).unwrap();
    assert_eq!(p.concurrency, 10, "{p:?}");
}

#[test]
fn unlimited_stays_unlimited() {
    let p = plan(None, None, None, 100_000, LOOKUPS).unwrap();
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
