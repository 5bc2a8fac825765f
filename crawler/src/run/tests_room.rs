//! The waiting room's accounting: one address's share, the whole room's bound, held jobs given
//! back in turn with their space kept.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

use super::progress::Counters;
use super::room::Room;
use crate::scan::SiteJob;

fn ip(n: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(10, 0, 0, n))
}

fn site(n: u64) -> SiteJob {
    SiteJob::registry("x", &format!("s{n}.test"), n)
}

/// 8 waiting at most, 2 of them on one address, 3 jobs held before input stops.
fn room() -> Room {
    Room::new(8, 4, 3, Arc::new(Counters::default()))
}

#[test]
fn one_address_gets_its_share_and_the_room_its_bound() {
    let room = room();
    assert!(room.enter(ip(1), None));
    assert!(room.enter(ip(1), None));
    assert!(!room.enter(ip(1), None), "over its share");
    for n in 2..8 {
        assert!(room.enter(ip(n), None));
    }
    assert!(!room.enter(ip(9), None), "the room is full");
    room.leave(ip(2));
    assert!(room.enter(ip(9), None));
}

#[test]
fn held_jobs_come_back_when_their_address_has_room_addresses_in_turn() {
    let room = room();
    room.enter(ip(1), None);
    room.enter(ip(1), None);
    room.hold(ip(1), site(1));
    room.hold(ip(1), site(2));
    room.hold(ip(2), site(3));
    assert!(room.held_full());
    // The first address has no room: the second's job goes first.
    let (at, job) = room.take_held().unwrap();
    assert_eq!((at, job.input_line), (ip(2), 3));
    assert!(room.take_held().is_none());
    room.leave(ip(1));
    let (at, job) = room.take_held().unwrap();
    assert_eq!((at, job.input_line), (ip(1), 1));
    // Its space was kept: given back, it enters without taking another...
    assert!(!room.enter(ip(1), None));
    assert!(room.enter(ip(1), Some(ip(1))));
    // ...and one given back that turns out to be on another address frees it.
    room.leave(ip(1));
    let (_, job) = room.take_held().unwrap();
    assert_eq!(job.input_line, 2);
    assert!(room.enter(ip(3), Some(ip(1))));
    assert!(room.enter(ip(1), None));
    assert_eq!(room.held(), 0);
}

#[test]
fn a_held_job_is_small() {
    // The documented bound (~300 bytes a held site) is this plus its four strings.
    assert!(std::mem::size_of::<SiteJob>() <= 160);
}

#[test]
fn a_stopped_run_takes_every_held_job_once() {
    let room = room();
    room.enter(ip(1), None);
    room.enter(ip(1), None);
    for n in 1..=4 {
        room.hold(ip(1 + (n % 2) as u8), site(n));
    }
    let mut lines: Vec<u64> = room.drain_held().iter().map(|j| j.input_line).collect();
    lines.sort_unstable();
    assert_eq!(lines, [1, 2, 3, 4]);
    assert_eq!(room.held(), 0);
    assert!(room.take_held().is_none());
}
