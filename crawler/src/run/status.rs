//! What the progress display says: one reading of the run's counters ([`Status`]), rendered
//! as the text line and the JSON line. Kept apart from the display's timer so the text can be
//! tested for what it says while sites wait (a second look not due yet, a full waiting room).
//!
//! The ETA counts the sites left, not the input left: once the whole list is read, sites still
//! in flight, held or waiting for their second look are what the run waits for. With no record
//! written yet there is no rate, and the ETA says so ("ETA ?") rather than guessing.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::progress::{Counters, HELD_CPU, HELD_LAG};
use super::second_look::SecondLooks;

/// One reading of the run, for one progress line.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Status {
    /// Records written, a resumed run's earlier ones included.
    pub done: u64,
    /// Records written per second since this process started; `None` before the first.
    pub rate: Option<f64>,
    pub in_flight: u64,
    pub endpoints: u64,
    pub admitting: u64,
    /// Why admission holds new sites back, and the lag when it is the lag.
    pub held_back: HeldBack,
    /// Sites in the waiting room (their turn on a shared address), and sites held back for
    /// their address (see `room`).
    pub waiting_turn: u64,
    pub held_for_address: u64,
    /// Records waiting for the writer (and so for the sink).
    pub writer_queued: u64,
    /// Sites waiting for their second look, when there are any.
    pub looks: Option<Looks>,
    /// The share of the input read, when its size is known.
    pub input_fraction: Option<f64>,
    /// Sites that still owe a record, when known (estimated while the input is being read).
    pub sites_left: Option<u64>,
    /// This process's CPU time a record since it started, in ms (`None` before the first
    /// record or where the CPU time cannot be read): the cost a site, as it goes.
    pub cpu_ms_per_site: Option<f64>,
    /// Descriptors the process holds now, when they can be counted (sizing the open-files
    /// limit: docs/sizing.md).
    pub open_files: Option<u64>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum HeldBack {
    #[default]
    No,
    Lag {
        ms: u64,
    },
    Cpu,
}

/// The sites waiting for their second look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Looks {
    pub waiting: u64,
    /// Until the first and the last of them are due (zero when already due).
    pub next_in: Duration,
    pub last_in: Duration,
    /// They wait for the whole input to be read too (see `second_look`).
    pub after_input: bool,
}

/// What a reading needs besides the counters.
pub(super) struct Sources<'a> {
    pub counters: &'a Counters,
    pub looks: Option<&'a SecondLooks>,
    pub total_bytes: Option<u64>,
    /// Records written when the display started (a resumed run's), and the time since.
    pub done_at_start: u64,
    pub elapsed: Duration,
    /// CPU time this process used since the display started, and its open files now.
    pub cpu_used: Option<Duration>,
    pub open_files: Option<u64>,
}

impl Status {
    pub(super) fn read(s: &Sources) -> Status {
        let c = s.counters;
        let load = |a: &std::sync::atomic::AtomicU64| a.load(Ordering::Relaxed);
        let done = load(&c.done);
        let recorded = done.saturating_sub(s.done_at_start);
        let input_done = c.input_done.load(Ordering::Relaxed);
        let input_fraction = s.total_bytes.filter(|&t| t > 0).map(|total| {
            let consumed = load(&c.consumed_bytes).min(total);
            consumed as f64 / total as f64
        });
        // Taken from intake or queued there: each owes one record.
        let read = load(&c.taken) + load(&c.intake_queued);
        let owed = read.saturating_sub(recorded);
        let unread = match input_fraction {
            _ if input_done => Some(0.0),
            Some(f) if f >= 1.0 => Some(0.0),
            Some(f) if f > 0.0 => Some(read as f64 * (1.0 - f) / f),
            _ => None,
        };
        let held_back = match load(&c.held_back_why) {
            HELD_LAG => HeldBack::Lag {
                ms: load(&c.lag_us) / 1000,
            },
            HELD_CPU => HeldBack::Cpu,
            _ => HeldBack::No,
        };
        Status {
            done,
            rate: (recorded > 0).then(|| recorded as f64 / s.elapsed.as_secs_f64().max(0.001)),
            in_flight: load(&c.in_flight),
            endpoints: load(&c.endpoints),
            admitting: load(&c.admit_limit),
            held_back,
            waiting_turn: load(&c.waiting_turn),
            held_for_address: load(&c.held_for_address),
            writer_queued: load(&c.writer_queued),
            looks: s.looks.and_then(|l| looks(l, input_done)),
            input_fraction,
            sites_left: unread.map(|u| owed + u.round() as u64),
            cpu_ms_per_site: s
                .cpu_used
                .filter(|_| recorded > 0)
                .map(|cpu| cpu.as_secs_f64() * 1000.0 / recorded as f64),
            open_files: s.open_files,
        }
    }

    /// Until the sites left are done: at their rate, and not before the last second look
    /// is due. `None`: unknown (no rate yet, or the input's size unknown).
    pub(super) fn eta(&self) -> Option<Duration> {
        let left = self.sites_left?;
        let rate = self.rate.filter(|&r| r > 0.0)?;
        let at_rate = Duration::from_secs_f64((left as f64 / rate).min(1e9));
        let looks = self.looks.map_or(Duration::ZERO, |l| l.last_in);
        // Whole seconds, rounded up: a site left is never "0s" away.
        Some(Duration::from_secs(
            at_rate.max(looks).as_secs_f64().ceil() as u64
        ))
    }

    /// The text line.
    pub(super) fn line(&self) -> String {
        let mut line = format!(
            "{} sites done, {:.0}/s, {} in flight, {} endpoints, admitting {}",
            self.done,
            self.rate.unwrap_or(0.0),
            self.in_flight,
            self.endpoints,
            self.admitting
        );
        if let Some(ms) = self.cpu_ms_per_site {
            line.push_str(&format!(", {ms:.2} ms CPU a site"));
        }
        if let Some(files) = self.open_files {
            line.push_str(&format!(", {files} open files"));
        }
        if let Some(l) = self.looks {
            line.push_str(&format!(", {} waiting for a second look (next ", l.waiting));
            line.push_str(&match (l.after_input, l.next_in.is_zero()) {
                (true, _) => "once the input is read)".to_owned(),
                (false, true) => "due now)".to_owned(),
                (false, false) => format!("in {})", secs(l.next_in)),
            });
        }
        if self.waiting_turn > 0 {
            line.push_str(&format!(", {} in the waiting room", self.waiting_turn));
        }
        if self.held_for_address > 0 {
            let held = self.held_for_address;
            line.push_str(&format!(", {held} held for their address's turn"));
        }
        if self.writer_queued > 0 {
            let queued = self.writer_queued;
            line.push_str(&format!(", {queued} records waiting for the writer"));
        }
        match self.held_back {
            HeldBack::Lag { ms } => {
                line.push_str(&format!(" (held back: the crawler lags {ms} ms)"))
            }
            HeldBack::Cpu => line.push_str(" (held back: the crawler uses every core)"),
            HeldBack::No => {}
        }
        if let Some(f) = self.input_fraction {
            line.push_str(&format!(", input {:.1}%", f * 100.0));
        }
        match (self.sites_left, self.eta()) {
            (Some(0), _) => {}
            (Some(left), eta) => {
                let eta = eta.map_or_else(|| "?".to_owned(), secs);
                let sites = if left == 1 { "site" } else { "sites" };
                line.push_str(&format!(", {left} {sites} left, ETA {eta}"));
            }
            (None, _) => line.push_str(", ETA ?"),
        }
        line
    }

    /// The JSON line's fields (the display adds its timestamp, level and target).
    pub(super) fn json_fields(&self) -> serde_json::Value {
        serde_json::json!({
            "done": self.done,
            "per_sec": self.rate.unwrap_or(0.0),
            "in_flight": self.in_flight,
            "cpu_ms_per_site": self.cpu_ms_per_site,
            "open_files": self.open_files,
            "endpoints": self.endpoints,
            "input_fraction": self.input_fraction,
            "sites_left": self.sites_left,
            "eta_secs": self.eta().map(|d| d.as_secs()),
            "second_looks_waiting": self.looks.map_or(0, |l| l.waiting),
            "next_second_look_secs": self.looks.map(|l| l.next_in.as_secs()),
            "waiting_room": self.waiting_turn,
            "held_for_address": self.held_for_address,
            "writer_queued": self.writer_queued,
        })
    }
}

fn looks(l: &SecondLooks, input_done: bool) -> Option<Looks> {
    let (waiting, first, last) = l.status()?;
    let now = tokio::time::Instant::now();
    Some(Looks {
        waiting: waiting as u64,
        next_in: first.saturating_duration_since(now),
        last_in: last.saturating_duration_since(now),
        after_input: !input_done && !l.full(),
    })
}

/// A wait in whole seconds, rounded up (so one still ahead never reads "0s").
fn secs(d: Duration) -> String {
    let whole = Duration::from_secs(d.as_secs_f64().ceil() as u64);
    humantime::format_duration(whole).to_string()
}
