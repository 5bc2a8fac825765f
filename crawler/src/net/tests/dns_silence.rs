//! The resolver's silence: said once when lookups stop being answered, once when one is.

use std::net::{IpAddr, Ipv4Addr};

use crate::net::dns_silence::{Change, DnsSilence, SILENT_AFTER};
use crate::net::{LocalResource, ResolveError};

const ANSWER: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));

#[test]
fn lookups_unanswered_in_a_row_make_the_resolver_silent_once_and_an_answer_brings_it_back() {
    let s = DnsSilence::default();
    for _ in 1..SILENT_AFTER {
        assert_eq!(s.observe(&Err(ResolveError::Timeout)), None);
    }
    assert_eq!(
        s.observe(&Err(ResolveError::Timeout)),
        Some(Change::Stopped)
    );
    // Said once, however long it lasts; this machine's shortage changes nothing.
    assert_eq!(s.observe(&Err(ResolveError::Timeout)), None);
    let local = ResolveError::Local(LocalResource::DnsSockets);
    assert_eq!(s.observe(&Err(local)), None);
    // Any answer is an answer: a name that does not exist too.
    assert_eq!(s.observe(&Err(ResolveError::NxDomain)), Some(Change::Back));
    assert_eq!(s.observe(&Ok(vec![ANSWER])), None);
}

#[test]
fn an_answer_between_timeouts_starts_the_count_again() {
    let s = DnsSilence::default();
    for _ in 0..SILENT_AFTER * 3 {
        for _ in 1..SILENT_AFTER {
            assert_eq!(s.observe(&Err(ResolveError::Timeout)), None);
        }
        assert_eq!(s.observe(&Ok(vec![ANSWER])), None);
    }
}
