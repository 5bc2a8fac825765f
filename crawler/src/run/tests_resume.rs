//! The done set's two layouts.

use super::resume::DoneSet;

#[test]
fn the_bitset_takes_each_line_once_and_reports_doubles_and_strays() {
    let mut done = DoneSet::lines(1000);
    assert!(done.insert(1, "a.test"));
    assert!(done.insert(640, "b.test"));
    assert!(!done.insert(640, "b.test"), "a doubled record is not kept");
    assert!(!done.insert(1001, "c.test"), "past the input's end");
    assert!(!done.insert(0, "d.test"), "lines count from 1");
    assert_eq!(done.len(), 2);
    assert!(done.take(640, "b.test"));
    assert!(!done.take(640, "b.test"), "taken once");
    assert!(done.take(1, "a.test"));
    assert!(!done.take(2, "x.test"));
    assert!(!done.take(1_000_000, "x.test"));
}

#[test]
fn the_bitset_costs_a_bit_a_line() {
    let mut done = DoneSet::lines(1_000_000);
    for line in 1..=1_000_000 {
        done.insert(line, "");
    }
    assert!(
        done.heap_bytes() <= 1_000_000 / 8 + 64,
        "{}",
        done.heap_bytes()
    );
}

#[test]
fn the_key_multiset_counts_the_same_line_of_two_files() {
    let mut done = DoneSet::default();
    for (line, text) in [(3, "a.test"), (3, "a.test"), (3, "b.test"), (9, "a.test")] {
        assert!(done.insert(line, text));
    }
    assert_eq!(done.len(), 4);
    assert!(done.take(3, "a.test"));
    assert!(done.take(3, "a.test"));
    assert!(!done.take(3, "a.test"), "two records, two takes");
    assert!(
        !done.take(4, "b.test"),
        "the line number is part of the key"
    );
    // An insert after a take re-sorts without reviving what was taken.
    assert!(done.insert(4, "b.test"));
    assert!(done.take(4, "b.test"));
    assert!(done.take(3, "b.test"));
    assert!(done.take(9, "a.test"));
    assert!(!done.take(3, "a.test"));
    assert!(!done.take(9, "a.test"));
}
