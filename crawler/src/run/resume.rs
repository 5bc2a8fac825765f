//! The sites a resumed run already has records for, keyed by input line: one pass over the
//! store (or ClickHouse) fills it, intake consults it for every planned line.
//!
//! Two layouts, both a few bytes or less per line so a 100 M-line input stays cheap:
//! - one input file: a bitset by line number (1 bit a line). The resume has checked the file
//!   is unchanged, so the line number alone names the line; a second record for the same line
//!   is reported so the caller can drop it.
//! - several files (their line numbers overlap): a sorted list of 8-byte hashes of
//!   `(line, text)` with a consumed bit each (~8.1 bytes a record), a multiset because two
//!   files can hold the same text on the same line.

use xxhash_rust::xxh3::xxh3_64_with_seed;

use crate::input::registry_name;

#[derive(Debug, Clone)]
pub struct DoneSet {
    layout: Layout,
    /// Registry names' records (`registry:NAME`), keyed by line and text in either layout:
    /// one `registry:*` line gives a record per name the registry lists.
    registry: Keys,
    len: u64,
}

#[derive(Debug, Clone)]
enum Layout {
    Lines(Bits),
    Keys(Keys),
}

/// The multiset layout (also the default, for callers that do not know their inputs).
impl Default for DoneSet {
    fn default() -> DoneSet {
        DoneSet {
            layout: Layout::Keys(Keys::default()),
            registry: Keys::default(),
            len: 0,
        }
    }
}

impl DoneSet {
    /// The bitset layout for a single input file of at most `max_line` lines (its size in
    /// bytes + 1 bounds it: a line takes at least its newline).
    pub fn lines(max_line: u64) -> DoneSet {
        DoneSet {
            layout: Layout::Lines(Bits::new(max_line)),
            registry: Keys::default(),
            len: 0,
        }
    }

    /// Adds a record's line. False when it is not kept: the bitset already has that line (a
    /// doubled record) or the line is past the input's end.
    pub fn insert(&mut self, input_line: u64, input: &str) -> bool {
        let kept = match &mut self.layout {
            _ if registry_name(input).is_some() => {
                self.registry.push(key(input_line, input));
                true
            }
            Layout::Lines(bits) => bits.set(input_line),
            Layout::Keys(keys) => {
                keys.push(key(input_line, input));
                true
            }
        };
        self.len += u64::from(kept);
        kept
    }

    /// True (and the line consumed) if this line already has a record.
    pub fn take(&mut self, input_line: u64, input: &str) -> bool {
        if registry_name(input).is_some() {
            return !self.registry.keys.is_empty() && self.registry.take(key(input_line, input));
        }
        match &mut self.layout {
            Layout::Lines(bits) => bits.clear(input_line),
            Layout::Keys(keys) => keys.take(key(input_line, input)),
        }
    }

    /// Records the set was built from.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the set holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        self.registry.heap_bytes()
            + match &self.layout {
                Layout::Lines(bits) => bits.words.capacity() * 8,
                Layout::Keys(keys) => keys.heap_bytes(),
            }
    }
}

fn key(input_line: u64, input: &str) -> u64 {
    xxh3_64_with_seed(input.as_bytes(), input_line)
}

/// One bit per line number, grown as lines arrive (never past `max_line`).
#[derive(Debug, Clone)]
struct Bits {
    words: Vec<u64>,
    max_line: u64,
}

impl Bits {
    fn new(max_line: u64) -> Bits {
        Bits {
            words: Vec::new(),
            max_line,
        }
    }

    /// Sets `line`'s bit; false if it was set already or the line is out of range.
    fn set(&mut self, line: u64) -> bool {
        if line == 0 || line > self.max_line {
            return false;
        }
        let (word, bit) = ((line / 64) as usize, line % 64);
        if word >= self.words.len() {
            // Doubling, but never past the input's end: a full set is exactly a bit a line.
            let cap = (self.max_line / 64) as usize + 1;
            let want = (word + 1).max(self.words.len() * 2).min(cap);
            self.words.reserve_exact(want - self.words.len());
            self.words.resize(word + 1, 0);
        }
        let was = self.words[word] & (1 << bit) != 0;
        self.words[word] |= 1 << bit;
        !was
    }

    /// Clears `line`'s bit; true if it was set.
    fn clear(&mut self, line: u64) -> bool {
        let (word, bit) = ((line / 64) as usize, line % 64);
        match self.words.get_mut(word) {
            Some(w) if *w & (1 << bit) != 0 => {
                *w &= !(1 << bit);
                true
            }
            _ => false,
        }
    }
}

/// Hashed keys, sorted on the first `take` after an insert, each with a consumed bit, and
/// where each value of the top [`BUCKET_BITS`] bits starts: the hashes are uniform, so a take
/// searches a bucket of a few cache lines instead of the whole list (a plain binary search
/// over 10 M keys costs ~7 µs a take in cache misses; the index costs 512 KB).
#[derive(Debug, Clone, Default)]
struct Keys {
    keys: Vec<u64>,
    consumed: Vec<u64>,
    /// `starts[b]`: the first key whose top bits are `b` or more; `starts[BUCKETS]` = len.
    starts: Vec<usize>,
    sorted: bool,
}

const BUCKET_BITS: u32 = 16;
const BUCKETS: usize = 1 << BUCKET_BITS;

fn bucket(key: u64) -> usize {
    (key >> (64 - BUCKET_BITS)) as usize
}

impl Keys {
    fn heap_bytes(&self) -> usize {
        (self.keys.capacity() + self.consumed.capacity() + self.starts.capacity()) * 8
    }

    fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.sorted = false;
    }

    fn take(&mut self, key: u64) -> bool {
        if !self.sorted {
            self.sort();
        }
        let b = bucket(key);
        let (from, to) = (self.starts[b], self.starts[b + 1]);
        let start = from + self.keys[from..to].partition_point(|k| *k < key);
        for i in start..to {
            if self.keys[i] != key {
                break;
            }
            let (word, bit) = (i / 64, i % 64);
            if self.consumed[word] & (1 << bit) == 0 {
                self.consumed[word] |= 1 << bit;
                return true;
            }
        }
        false
    }

    /// Sorts the keys, dropping those already consumed (their bits would not follow them).
    fn sort(&mut self) {
        if self.consumed.iter().any(|w| *w != 0) {
            let consumed = std::mem::take(&mut self.consumed);
            let mut i = 0;
            self.keys.retain(|_| {
                let keep = consumed
                    .get(i / 64)
                    .is_none_or(|w| w & (1 << (i % 64)) == 0);
                i += 1;
                keep
            });
        }
        self.keys.sort_unstable();
        self.keys.shrink_to_fit();
        self.consumed = vec![0; self.keys.len().div_ceil(64)];
        self.starts = (0..=BUCKETS)
            .map(|b| self.keys.partition_point(|k| bucket(*k) < b))
            .collect();
        self.sorted = true;
    }
}
