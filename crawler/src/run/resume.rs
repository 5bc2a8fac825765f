//! The sites a resumed run already has records for, keyed by input line: one pass over the
//! store fills it, intake consults it for every planned line.

use std::collections::HashMap;

use xxhash_rust::xxh3::xxh3_64_with_seed;

/// A multiset of `(input line number, input text)` keys, hashed to 8 bytes so a run of 100 M
/// lines costs about 1.6 GB at most, and a few bytes per site when only the tail is missing.
/// A count per key, because two input files can hold the same text on the same line.
#[derive(Debug, Default, Clone)]
pub struct DoneSet {
    counts: HashMap<u64, u32>,
    len: u64,
}

impl DoneSet {
    fn key(input_line: u64, input: &str) -> u64 {
        xxh3_64_with_seed(input.as_bytes(), input_line)
    }

    pub fn insert(&mut self, input_line: u64, input: &str) {
        *self.counts.entry(Self::key(input_line, input)).or_default() += 1;
        self.len += 1;
    }

    /// True (and one use of the key consumed) if this line already has a record.
    pub fn take(&mut self, input_line: u64, input: &str) -> bool {
        let key = Self::key(input_line, input);
        match self.counts.get_mut(&key) {
            Some(n) => {
                *n -= 1;
                if *n == 0 {
                    self.counts.remove(&key);
                }
                true
            }
            None => false,
        }
    }

    /// Records the set was built from.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
