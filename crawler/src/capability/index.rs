//! The table's word entries indexed by their first word, so a tool's words are each looked up
//! once instead of every entry of every row being searched for in them: tagging costs a few
//! lookups a word, not a scan of the table's ~900 entries (measured in benches/capabilities).

use std::collections::HashMap;
use std::sync::LazyLock;

use super::table::{Place, SIGNALS};

/// Which of a row's lists an entry is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum List {
    Words,
    With,
    Unless,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    row: usize,
    list: List,
    /// The whole entry: one word, or a phrase of words separated by single spaces.
    phrase: &'static str,
}

/// Every word entry of the table by its first word. Built once from the static table (pure
/// data, so a process-wide value like the table itself).
static BY_FIRST_WORD: LazyLock<HashMap<&'static str, Vec<Entry>>> = LazyLock::new(|| {
    let mut map: HashMap<&'static str, Vec<Entry>> = HashMap::new();
    for (row, signal) in SIGNALS.iter().enumerate() {
        let lists = [
            (List::Words, signal.words),
            (List::With, signal.with),
            (List::Unless, signal.unless),
        ];
        for (list, entries) in lists {
            for phrase in entries.iter().copied() {
                let first = phrase.split(' ').next().unwrap_or_default();
                map.entry(first)
                    .or_default()
                    .push(Entry { row, list, phrase });
            }
        }
    }
    map
});

/// What one row's lists found in its place.
#[derive(Debug, Clone, Copy, Default)]
pub struct RowFound {
    hit: bool,
    with: bool,
    unless: bool,
    /// The lowest and highest position of the hits and `with` entries together.
    lo: usize,
    hi: usize,
}

impl RowFound {
    fn at(&mut self, position: usize) {
        if !self.hit && !self.with {
            (self.lo, self.hi) = (position, position);
        } else {
            self.lo = self.lo.min(position);
            self.hi = self.hi.max(position);
        }
    }

    /// The row's match: one of its words, none of its `unless`, and (when it has `with`
    /// entries) one of them at a position other than a hit's. Hits and withs all at one
    /// position is the only way to have both without a pair at two positions.
    pub fn matches(&self, has_with: bool) -> bool {
        self.hit && !self.unless && (!has_with || (self.with && self.lo != self.hi))
    }
}

/// Marks in `found` (one slot a table row) what the rows reading `place` find in `words`.
pub fn find(place: Place, words: &[String], found: &mut [RowFound]) {
    for (at, word) in words.iter().enumerate() {
        let Some(entries) = BY_FIRST_WORD.get(word.as_str()) else {
            continue;
        };
        for e in entries.iter().filter(|e| SIGNALS[e.row].place == place) {
            if !phrase_at(words, at, e.phrase) {
                continue;
            }
            let slot = &mut found[e.row];
            match e.list {
                List::Words => {
                    slot.at(at);
                    slot.hit = true;
                }
                List::With => {
                    slot.at(at);
                    slot.with = true;
                }
                List::Unless => slot.unless = true,
            }
        }
    }
}

fn phrase_at(words: &[String], at: usize, phrase: &str) -> bool {
    let mut n = 0;
    for (k, part) in phrase.split(' ').enumerate() {
        if words.get(at + k).map(String::as_str) != Some(part) {
            return false;
        }
        n += 1;
    }
    n > 0
}
