//! One probe per endpoint URL in a crawl: the first registry entry naming a URL (by
//! `endpoint_key`) scans it, every other entry naming it waits for that scan and takes a copy
//! of its record, its reason saying whose probe it repeats. A second look is a look of its
//! own: the first entry to look again probes again, the others share that. A scan the crawl
//! held (nothing requested) is not kept. Memory: one record per distinct URL of the run
//! (~2 KB; 10,000 URLs ~20 MB), dropped with the crawl.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use mcpcensus_store::Record;
use tokio::sync::OnceCell;

/// A URL's probe as every entry naming it takes it.
#[derive(Debug, Clone)]
pub struct Shared {
    pub record: Record,
    pub transient: bool,
}

/// One URL's probe at one look, once made.
type Cell = Arc<OnceCell<Shared>>;

/// The probes of a crawl, by endpoint key and look (false: the first look).
#[derive(Debug, Default)]
pub struct SharedProbes {
    cells: Mutex<HashMap<(String, bool), Cell>>,
}

impl SharedProbes {
    /// The cell of `key`'s probe at this look.
    pub fn cell(&self, key: String, second_look: bool) -> Cell {
        let mut cells = self.cells.lock().unwrap_or_else(PoisonError::into_inner);
        cells.entry((key, second_look)).or_default().clone()
    }
}

/// The record an entry takes from another's probe of the same URL.
pub fn copy_for(shared: &Shared, input: &str, input_line: u64) -> Record {
    let mut r = shared.record.clone();
    r.outcome_reason.push_str(&format!(
        " (the endpoint URL's probe, made once for {}: this entry names the same URL)",
        r.input
    ));
    r.input = input.to_owned();
    r.input_line = input_line;
    r
}
