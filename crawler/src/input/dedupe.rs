//! A compact set of origins already seen: 8 bytes of hash per origin (plus the table's slack).
//!
//! Two distinct origins share a 64-bit hash with probability about n²/2⁶⁵: for 100 million
//! origins that is under 0.03% that even one origin is wrongly counted as a duplicate.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use xxhash_rust::xxh3::xxh3_64;

/// The keys are already xxh3 hashes; hashing them again would only cost time.
#[derive(Debug, Default, Clone, Copy)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[derive(Debug, Default)]
pub struct Dedupe {
    seen: HashSet<u64, BuildHasherDefault<PassThrough>>,
}

impl Dedupe {
    pub fn new() -> Dedupe {
        Dedupe::default()
    }

    /// True the first time an origin is offered.
    pub fn first_time(&mut self, origin: &str) -> bool {
        self.seen.insert(xxh3_64(origin.as_bytes()))
    }

    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}
