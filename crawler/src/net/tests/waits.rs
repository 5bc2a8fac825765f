//! The ledger of a site's waits on our own queues, on a paused clock.

use std::time::Duration;

use crate::net::OwnWaits;

const S: fn(u64) -> Duration = Duration::from_secs;

#[tokio::test(start_paused = true)]
async fn overlapping_waits_count_once_and_a_cancelled_wait_still_counts() {
    let waits = OwnWaits::default();
    let one = waits.during(tokio::time::sleep(S(3)));
    let other = waits.during(tokio::time::sleep(S(2)));
    tokio::join!(one, other);
    assert_eq!(waits.total(), S(3));
    // A wait cut off by a timeout counts up to the cut.
    let cut = tokio::time::timeout(S(1), waits.during(tokio::time::sleep(S(10)))).await;
    assert!(cut.is_err());
    assert_eq!(waits.total(), S(4));
}
