//! The ledger of a site's waits on our own queues, on a paused clock.

use std::time::Duration;

use tokio::time::Instant;

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

#[tokio::test(start_paused = true)]
async fn a_deadline_moves_by_the_waits_made_before_it_passes() {
    let waits = OwnWaits::default();
    let start = Instant::now();
    // 2 s of the server's time, then 5 s in our queue, then 2 s more: 4 s of server time
    // within a 3 s deadline is too much, whatever the queue took.
    let work = async {
        tokio::time::sleep(S(2)).await;
        waits.during(tokio::time::sleep(S(5))).await;
        tokio::time::sleep(S(2)).await;
    };
    assert!(waits.deadline(start + S(3), work).await.is_none());
    assert_eq!(start.elapsed(), S(8));

    // The same with 0.5 s of server time after the queue fits.
    let waits = OwnWaits::default();
    let start = Instant::now();
    let work = async {
        tokio::time::sleep(S(2)).await;
        waits.during(tokio::time::sleep(S(5))).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        "done"
    };
    assert_eq!(waits.deadline(start + S(3), work).await, Some("done"));
    assert_eq!(start.elapsed(), Duration::from_millis(7500));
}
