//! The resolver's silence: said once when lookups stop being answered, once when one is.

use crate::net::dns_silence::{Change, DnsSilence, Heard, SILENT_AFTER};

#[test]
fn lookups_unanswered_in_a_row_make_the_resolver_silent_once_and_an_answer_brings_it_back() {
    let s = DnsSilence::default();
    for _ in 1..SILENT_AFTER {
        assert_eq!(s.observe(Heard::Nothing), None);
    }
    assert_eq!(s.observe(Heard::Nothing), Some(Change::Stopped));
    // Said once, however long it lasts; this machine's shortage changes nothing.
    assert_eq!(s.observe(Heard::Nothing), None);
    assert_eq!(s.observe(Heard::Unknown), None);
    assert_eq!(s.observe(Heard::Answer), Some(Change::Back));
    assert_eq!(s.observe(Heard::Answer), None);
    // And again, should it stop again.
    for _ in 1..SILENT_AFTER {
        assert_eq!(s.observe(Heard::Nothing), None);
    }
    assert_eq!(s.observe(Heard::Nothing), Some(Change::Stopped));
}

#[test]
fn an_answer_between_timeouts_starts_the_count_again() {
    let s = DnsSilence::default();
    for _ in 0..3 {
        for _ in 1..SILENT_AFTER {
            assert_eq!(s.observe(Heard::Nothing), None);
        }
        assert_eq!(s.observe(Heard::Answer), None);
    }
}
