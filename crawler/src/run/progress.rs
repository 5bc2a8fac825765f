//! Progress: the run's live counters, and how they are shown (a bar on a terminal, a plain
//! line every few seconds otherwise, nothing if quiet; the display is `display`).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Duration;

/// Why new sites are held back now (`Counters::held_back_why`), as admission control sets it.
pub const HELD_NONE: u64 = 0;
pub const HELD_LAG: u64 = 1;
pub const HELD_CPU: u64 = 2;

/// Live counters shared by the pipeline stages and the display (and, by their field names,
/// the metrics table).
#[derive(Debug, Default, serde::Serialize)]
pub struct Counters {
    /// Records written.
    pub done: AtomicU64,
    /// Sites being scanned now.
    pub in_flight: AtomicU64,
    /// Sites waiting their turn on a shared address, outside their place (not in flight).
    pub waiting_turn: AtomicU64,
    /// Sites held back now because their address had its share of the waiting room (see
    /// `room`): not in flight, scanned again once the address has room.
    pub held_for_address: AtomicU64,
    /// Times a site was held back so.
    pub address_holds: AtomicU64,
    /// Records with an MCP endpoint.
    pub endpoints: AtomicU64,
    /// Scans retried because this machine ran out of a resource (fds, ports, DNS sockets).
    pub local_retries: AtomicU64,
    /// Input bytes consumed, against `total_bytes` for the ETA.
    #[serde(skip)]
    pub consumed_bytes: Arc<AtomicU64>,
    /// Admission control (see `admission`): sites admitted at once now (≤ `--concurrency`).
    pub admit_limit: AtomicU64,
    /// The most sites in flight at once so far: the concurrency actually used.
    pub peak_in_flight: AtomicU64,
    /// The runtime's lag now (smoothed) and its peak, in µs.
    pub lag_us: AtomicU64,
    pub lag_peak_us: AtomicU64,
    /// Why new sites are held back now (`admission::HELD_*`).
    pub held_back_why: AtomicU64,
    /// Wall time the intake spent holding new sites back (only the feeding loop waits), in ms.
    pub held_back_ms: AtomicU64,
    /// Planned lines waiting for a scan slot, and records waiting for the writer (sampled by
    /// the feeding loop).
    pub intake_queued: AtomicU64,
    pub writer_queued: AtomicU64,
    /// Planned lines the feeding loop took from intake in this process (each owes a record),
    /// and whether intake has given its last: with `done`, the sites left for the ETA.
    pub taken: AtomicU64,
    pub input_done: AtomicBool,
}

impl Counters {
    /// Fresh counters sharing the reader's consumed bytes.
    pub fn for_reader(reader: &crate::input::LineReader) -> Counters {
        Counters {
            consumed_bytes: reader.consumed(),
            ..Counters::default()
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressMode {
    Quiet,
    Bar,
    Lines {
        every: Duration,
    },
    /// One JSON object a line (`--log-format json`), never a bar.
    JsonLines {
        every: Duration,
    },
}

impl ProgressMode {
    pub fn choose(quiet: bool, every: Duration) -> ProgressMode {
        if quiet {
            ProgressMode::Quiet
        } else if std::io::stderr().is_terminal() {
            ProgressMode::Bar
        } else {
            ProgressMode::Lines { every }
        }
    }

    /// The same display as JSON lines: a bar is not a line, so JSON mode never draws one.
    pub fn json(self, every: Duration) -> ProgressMode {
        match self {
            ProgressMode::Quiet => ProgressMode::Quiet,
            _ => ProgressMode::JsonLines { every },
        }
    }
}
