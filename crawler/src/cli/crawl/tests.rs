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
