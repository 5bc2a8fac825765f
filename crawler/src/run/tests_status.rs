//! The progress line: what the run waits for, and an ETA from the sites left.

use std::sync::atomic::Ordering;
use std::time::Duration;

use mcpcensus_store::Outcome;

use super::progress::Counters;
use super::second_look::{Next, SecondLooks};
use super::status::{Sources, Status};
use crate::scan::SiteJob;

/// A list of `bytes`, read whole, whose sites gave `taken` planned lines, `done` of them
/// recorded (none before this process).
fn read_whole(bytes: u64, taken: u64, done: u64) -> Counters {
    let c = Counters::default();
    c.consumed_bytes.store(bytes, Ordering::Relaxed);
    c.taken.store(taken, Ordering::Relaxed);
    c.done.store(done, Ordering::Relaxed);
    c.input_done.store(true, Ordering::Relaxed);
    c
}

fn status(c: &Counters, looks: Option<&SecondLooks>, total: Option<u64>, secs: u64) -> Status {
    Status::read(&Sources {
        counters: c,
        looks,
        total_bytes: total,
        done_at_start: 0,
        elapsed: Duration::from_secs(secs),
        cpu_used: None,
        open_files: None,
    })
}

/// A site whose first look failed in a way that may pass: it waits for its second look.
fn one_waiting(delay: Duration) -> SecondLooks {
    let looks = SecondLooks::new(delay);
    let site = SiteJob::registry("flaky", "registry:flaky", 7);
    let first = site
        .record(
            "run",
            crate::verdict::Verdict::of(Outcome::NotMeasured, "no answer"),
        )
        .with_kind(mcpcensus_store::FailureKind::Timeout);
    assert!(matches!(looks.after_scan(&site, first, true), Next::Waits));
    looks
}

/// The demo's minute: every site but one done, the input read, no site in flight; the one
/// left waits for its second look. The line names it and when it is due, and the ETA is that
/// wait, not "0s".
#[tokio::test(start_paused = true)]
async fn a_site_waiting_for_its_second_look_is_named_with_when_it_is_due() {
    let looks = one_waiting(Duration::from_secs(60));
    tokio::time::advance(Duration::from_secs(22)).await;
    let c = read_whole(2_000, 107, 106);
    let s = status(&c, Some(&looks), Some(2_000), 50);
    let line = s.line();
    assert!(
        line.contains("1 waiting for a second look (next in 38s)"),
        "{line}"
    );
    assert!(line.contains("1 site left, ETA 38s"), "{line}");
    assert!(!line.contains("ETA 0s"), "{line}");
    let json = s.json_fields();
    assert_eq!(json["second_looks_waiting"], 1);
    assert_eq!(json["next_second_look_secs"], 38);
    assert_eq!(json["sites_left"], 1);
    assert_eq!(json["eta_secs"], 38);

    tokio::time::advance(Duration::from_secs(40)).await;
    let line = status(&c, Some(&looks), Some(2_000), 90).line();
    assert!(line.contains("(next due now)"), "{line}");
    assert!(line.contains("1 site left, ETA 1s"), "{line}");
}

/// While input is still to be read, second looks wait for its end (or for their bound).
#[tokio::test(start_paused = true)]
async fn second_looks_that_wait_for_the_end_of_the_input_say_so() {
    let looks = one_waiting(Duration::from_secs(60));
    let c = read_whole(500, 40, 30);
    c.input_done.store(false, Ordering::Relaxed);
    let line = status(&c, Some(&looks), Some(2_000), 10).line();
    assert!(
        line.contains("1 waiting for a second look (next once the input is read)"),
        "{line}"
    );
}

/// A dead resolver: the whole list read, 300 sites in flight and none finishing. The ETA
/// comes from those 300 at the rate so far, never "0s" because the input is all read.
#[test]
fn the_eta_counts_the_sites_left_once_the_input_is_all_read() {
    let c = read_whole(10_000, 1_315, 1_015);
    c.in_flight.store(300, Ordering::Relaxed);
    let line = status(&c, None, Some(10_000), 100).line();
    assert!(line.contains("input 100.0%"), "{line}");
    assert!(line.contains("300 sites left, ETA 30s"), "{line}");
}

/// Sites left and no record written yet in this process (a resumed run's first seconds): no
/// rate, so the ETA is unknown, not zero.
#[test]
fn sites_left_at_no_rate_give_an_unknown_eta_never_zero() {
    let c = read_whole(1_000, 10, 50);
    let s = Status::read(&Sources {
        counters: &c,
        looks: None,
        total_bytes: Some(1_000),
        done_at_start: 50,
        elapsed: Duration::from_secs(30),
        cpu_used: Some(Duration::from_millis(90)),
        open_files: Some(1_234),
    });
    assert_eq!(s.rate, None);
    assert_eq!(s.sites_left, Some(10));
    let line = s.line();
    assert!(line.contains("0/s"), "{line}");
    assert!(line.contains("10 sites left, ETA ?"), "{line}");
    assert_eq!(s.json_fields()["eta_secs"], serde_json::Value::Null);
}

/// Half the input read: the sites left are those owed plus as many again for the unread half.
#[test]
fn while_reading_the_sites_left_are_estimated_from_the_input_read() {
    let c = read_whole(1_000, 90, 50);
    c.input_done.store(false, Ordering::Relaxed);
    c.intake_queued.store(10, Ordering::Relaxed);
    let s = status(&c, None, Some(2_000), 10);
    // Owed: 90 taken + 10 queued - 50 written; unread: the 100 read again.
    assert_eq!(s.sites_left, Some(150));
    assert!(s.line().contains("150 sites left, ETA 30s"), "{}", s.line());
}

/// Standard input, not at its end: how much is left is unknown.
#[test]
fn an_input_of_unknown_size_gives_an_unknown_eta() {
    let c = read_whole(0, 90, 50);
    c.input_done.store(false, Ordering::Relaxed);
    let line = status(&c, None, None, 10).line();
    assert!(line.ends_with(", ETA ?"), "{line}");
    // At its end, the sites left are known again.
    c.input_done.store(true, Ordering::Relaxed);
    let line = status(&c, None, None, 10).line();
    assert!(line.contains("40 sites left, ETA 8s"), "{line}");
}

/// The waiting room, the held sites and the writer's backlog each say what they hold; a run
/// with nothing left prints no ETA.
#[test]
fn the_waiting_room_held_sites_and_the_writers_backlog_are_shown() {
    let c = read_whole(1_000, 500, 100);
    c.waiting_turn.store(12, Ordering::Relaxed);
    c.held_for_address.store(3, Ordering::Relaxed);
    c.writer_queued.store(900, Ordering::Relaxed);
    let s = status(&c, None, Some(1_000), 10);
    let line = s.line();
    for part in [
        "12 in the waiting room",
        "3 held for their address's turn",
        "900 records waiting for the writer",
    ] {
        assert!(line.contains(part), "{part}: {line}");
    }
    let json = s.json_fields();
    assert_eq!(json["waiting_room"], 12);
    assert_eq!(json["held_for_address"], 3);
    assert_eq!(json["writer_queued"], 900);

    let c = read_whole(1_000, 100, 100);
    let line = status(&c, None, Some(1_000), 10).line();
    assert!(!line.contains("ETA"), "{line}");
}

/// The line says what a site costs as the run goes (CPU a record written by this process)
/// and how many descriptors the process holds, beside the sites in flight and the rate.
#[test]
fn the_line_shows_cpu_a_site_and_open_files() {
    let c = read_whole(10_000, 1_315, 1_015);
    c.in_flight.store(300, Ordering::Relaxed);
    let s = Status::read(&Sources {
        counters: &c,
        looks: None,
        total_bytes: Some(10_000),
        done_at_start: 15,
        elapsed: Duration::from_secs(10),
        cpu_used: Some(Duration::from_millis(1_250)),
        open_files: Some(412),
    });
    // 1,000 records in this process for 1.25 s of CPU.
    assert_eq!(s.cpu_ms_per_site, Some(1.25));
    let line = s.line();
    assert!(line.contains("100/s, 300 in flight"), "{line}");
    assert!(
        line.contains("1.25 ms CPU a site, 412 open files"),
        "{line}"
    );
    let json = s.json_fields();
    assert_eq!(json["cpu_ms_per_site"], 1.25);
    assert_eq!(json["open_files"], 412);
}
