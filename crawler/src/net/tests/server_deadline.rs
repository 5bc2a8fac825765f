//! The server's time: a deadline moved by our own waits, on a paused clock.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::net::{OwnWaits, ServerDeadline};

const S: fn(u64) -> Duration = Duration::from_secs;
const MS: fn(u64) -> Duration = Duration::from_millis;

/// 2 s of the server's time, then 5 s in our queue, then `then` more of the server's.
async fn queued_between(waits: &OwnWaits, then: Duration) -> &'static str {
    tokio::time::sleep(S(2)).await;
    waits.during(tokio::time::sleep(S(5))).await;
    tokio::time::sleep(then).await;
    "done"
}

#[tokio::test(start_paused = true)]
async fn a_deadline_moves_by_the_waits_made_before_it_passes() {
    // 4 s of server time within a 3 s deadline is too much, whatever the queue took.
    let waits = Arc::new(OwnWaits::default());
    let deadline = ServerDeadline::after(S(3), waits.clone());
    let start = Instant::now();
    assert!(deadline.run(queued_between(&waits, S(2))).await.is_none());
    assert_eq!(start.elapsed(), S(8));

    // The same with 0.5 s of server time after the queue fits.
    let waits = Arc::new(OwnWaits::default());
    let deadline = ServerDeadline::after(S(3), waits.clone());
    let start = Instant::now();
    let done = deadline.run(queued_between(&waits, MS(500))).await;
    assert_eq!(done, Some("done"));
    assert_eq!(start.elapsed(), MS(7500));
    assert_eq!(deadline.server_time_since(start), MS(2500));
    assert_eq!(deadline.remaining(), MS(500));
}

#[tokio::test(start_paused = true)]
async fn only_waits_after_it_was_set_move_it_and_overlapping_ones_count_once() {
    let waits = Arc::new(OwnWaits::default());
    // A wait before the deadline is set is not its business.
    waits.during(tokio::time::sleep(S(4))).await;
    let start = Instant::now();
    let deadline = ServerDeadline::new(start + S(10), waits.clone());
    assert_eq!(deadline.at(), start + S(10));
    assert_eq!(deadline.waited(), Duration::ZERO);
    // Two waits at once (a DNS slot and a politeness token) count as the wall time of both.
    let one = waits.during(tokio::time::sleep(S(3)));
    let other = waits.during(tokio::time::sleep(S(2)));
    tokio::join!(one, other);
    assert_eq!(deadline.waited(), S(3));
    assert_eq!(deadline.at(), start + S(13));
    assert_eq!(deadline.remaining(), S(10));
    // A wait going on now moves it as it goes.
    let guard = waits.begin();
    tokio::time::sleep(S(1)).await;
    assert_eq!(deadline.at(), start + S(14));
    drop(guard);
    tokio::time::sleep(S(1)).await;
    assert_eq!(deadline.at(), start + S(14));
    assert_eq!(deadline.remaining(), S(9));
}

#[tokio::test(start_paused = true)]
async fn narrowing_keeps_the_earlier_end_and_moves_by_the_same_waits() {
    let waits = Arc::new(OwnWaits::default());
    let start = Instant::now();
    let site = ServerDeadline::new(start + S(30), waits.clone());
    tokio::time::sleep(S(5)).await;
    // The session's 12 s inside the site's 25 s left.
    let session = site.within(S(12));
    assert_eq!(session.at(), start + S(17));
    // Within a site deadline with less left, the site's end holds.
    let late = site.within(S(40));
    assert_eq!(late.at(), start + S(30));
    // Our waits after the narrowing move both by the same amount.
    waits.during(tokio::time::sleep(S(2))).await;
    assert_eq!(session.at(), start + S(19));
    assert_eq!(site.at(), start + S(32));
    assert_eq!(late.at(), start + S(32));
    // A margin before the end, and a pause the host asked for after it.
    assert_eq!(site.earlier_by(MS(500)).at(), start + MS(31_500));
    assert_eq!(site.later_by(S(3)).at(), start + S(35));
}

#[tokio::test(start_paused = true)]
async fn a_budget_past_what_instant_holds_is_as_good_as_none() {
    let deadline = ServerDeadline::after(Duration::MAX, Arc::default());
    assert!(deadline.remaining() > S(365 * 86_400));
    assert_eq!(deadline.run(async { 7 }).await, Some(7));
}
