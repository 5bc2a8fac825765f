//! The run's final accounting.

use std::fmt;
use std::time::Duration;

use mcpcensus_store::{Outcome, RunCounts};

use super::expand::Expansion;
use super::writer::WrittenCounts;
use crate::input::InputCounts;

/// Why the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Every input line was read and every site finished.
    Complete,
    /// Ctrl-C.
    Interrupted,
    /// `--max-duration` elapsed.
    MaxDuration,
    /// Records could not be written, or this machine kept running out of resources
    /// ([`Summary::failure`] says which).
    Failed,
}

#[derive(Debug, Clone)]
pub struct Summary {
    pub run_id: String,
    pub input: InputCounts,
    /// Each input read to its end, with its lines (the manifest's provenance records them).
    pub sources_read: Vec<(String, u64)>,
    pub written: WrittenCounts,
    pub duration: Duration,
    pub ending: Ending,
    pub dry_run: bool,
    /// Why the run failed (ending `Failed`).
    pub failure: Option<String>,
    /// Lines skipped because the resumed run already had their record.
    pub already_recorded: u64,
    /// What the `registry:*` lines read of the registry.
    pub registry: Expansion,
    /// Scans retried because this machine ran out of a resource.
    pub local_retries: u64,
    /// DNS lookups that stalled in the resolver and were asked again on a fresh one.
    pub dns_stalls: u64,
    /// What admission control did.
    pub admission: AdmissionUsed,
    /// What the second looks did.
    pub second_looks: SecondLooksMade,
}

/// The second looks of a run (see `second_look`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SecondLooksMade {
    /// Sites looked at again.
    pub made: u64,
    /// Of those, sites whose outcome changed.
    pub flipped: u64,
    /// Sites whose first look is their record because the run stopped before the second.
    pub not_made: u64,
}

/// The concurrency actually used, and why it was held below `--concurrency`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AdmissionUsed {
    /// `--concurrency`.
    pub ceiling: u64,
    /// The most sites in flight at once.
    pub peak_in_flight: u64,
    /// Time new sites waited for the crawler to catch up, summed over sites.
    pub held_back: Duration,
    /// The highest lag of the crawler's runtime seen.
    pub peak_lag: Duration,
}

impl Summary {
    /// Counts for the run manifest.
    pub fn manifest_counts(&self) -> RunCounts {
        let i = &self.input;
        RunCounts {
            lines_read: i.lines,
            blank_or_comment: i.blank_or_comment,
            header_lines: i.headers,
            duplicates_skipped: i.duplicates,
            other_shard: i.other_shard,
            invalid_input: i.invalid,
            excluded: i.excluded,
            targets: i.targets,
            records_written: self.written.records,
            defects: self.written.defects,
            endpoints: self.written.endpoints,
            already_recorded: self.already_recorded,
            local_resource_retries: self.local_retries,
            registry_pages: self.registry.pages,
            registry_names: self.registry.names,
            registry_older_versions: self.registry.older_versions,
            per_outcome: self.written.per_outcome.clone(),
            second_looks: self.second_looks.made,
            second_looks_flipped: self.second_looks.flipped,
            second_looks_not_made: self.second_looks.not_made,
            ..RunCounts::default()
        }
    }

    /// The summary as one JSON object (`--stats-json`, and the last line of `--log-format json`):
    /// the manifest's counts plus how and when the run ended, for schedulers to read.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "run_id": self.run_id,
            "ending": self.ending.as_str(),
            "failure": self.failure,
            "dry_run": self.dry_run,
            "duration_secs": self.duration.as_secs_f64(),
            "dns_stalls": self.dns_stalls,
            "counts": self.manifest_counts().every_key(),
            "registry": self.registry,
            // How many sites were really in flight: a benchmark's memory per site needs it.
            "admission": {
                "concurrency": self.admission.ceiling,
                "peak_in_flight": self.admission.peak_in_flight,
                "held_back_secs": self.admission.held_back.as_secs_f64(),
                "peak_lag_ms": self.admission.peak_lag.as_millis() as u64,
            },
        })
    }
}

impl Ending {
    /// The ending's name in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Complete => "complete",
            Ending::Interrupted => "interrupted",
            Ending::MaxDuration => "max_duration",
            Ending::Failed => "failed",
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.duration.as_secs_f64().max(0.001);
        let i = &self.input;
        let w = &self.written;
        let verb = if self.dry_run {
            "planned (dry run)"
        } else {
            "written"
        };
        writeln!(
            f,
            "run {}: {} records {verb} in {:.1}s ({:.0} sites/s)",
            self.run_id,
            w.records,
            secs,
            w.records as f64 / secs
        )?;
        let headers = if i.headers > 0 {
            format!(" + {} header lines", i.headers)
        } else {
            String::new()
        };
        writeln!(
            f,
            "input: {} lines read = {} records + {} duplicates skipped + {} blank/comment{headers} + {} in other shards",
            i.lines, i.records(), i.duplicates, i.blank_or_comment, i.other_shard
        )?;
        for outcome in Outcome::ALL {
            if let Some(n) = w.per_outcome.get(outcome) {
                writeln!(
                    f,
                    "  {:<14} {n:>10}  {:5.1}%",
                    outcome.as_str(),
                    100.0 * *n as f64 / w.records.max(1) as f64
                )?;
            }
        }
        if w.defects > 0 {
            writeln!(f, "  defects        {:>10}", w.defects)?;
        }
        if self.already_recorded > 0 {
            writeln!(
                f,
                "resumed: {} sites already recorded were not scanned again",
                self.already_recorded
            )?;
        }
        let r = &self.registry;
        if i.registry_all > 0 {
            writeln!(
                f,
                "registry: {} servers listed on {} pages ({} older versions skipped){}",
                r.names,
                r.pages,
                r.older_versions,
                if r.failure.is_some() {
                    "; the listing stopped part-way"
                } else {
                    ""
                }
            )?;
        }
        if self.local_retries > 0 {
            writeln!(
                f,
                "local resource errors: {} scans retried (this machine ran out of file \
                 descriptors, ports or DNS sockets; not counted against any site)",
                self.local_retries
            )?;
        }
        if self.dns_stalls > 0 {
            writeln!(
                f,
                "DNS: {} lookups stalled in the resolver and were asked again on a fresh one \
                 (the stalled time not counted against any site)",
                self.dns_stalls
            )?;
        }
        let s = &self.second_looks;
        if s.made > 0 || s.not_made > 0 {
            write!(
                f,
                "second looks: {} sites looked at again after a failure that may pass, {} with \
                 another outcome",
                s.made, s.flipped
            )?;
            if s.not_made > 0 {
                write!(
                    f,
                    "; {} kept their first look (the run stopped first)",
                    s.not_made
                )?;
            }
            writeln!(f)?;
        }
        let a = &self.admission;
        if a.ceiling > 0 && !self.dry_run {
            write!(
                f,
                "concurrency: up to {} sites in flight (--concurrency {})",
                a.peak_in_flight, a.ceiling
            )?;
            if a.held_back >= Duration::from_secs(1) {
                write!(
                    f,
                    "; new sites held back {} s in all while the crawler lagged (up to {} ms)",
                    a.held_back.as_secs(),
                    a.peak_lag.as_millis()
                )?;
            }
            writeln!(f)?;
        }
        match self.ending {
            Ending::Complete => Ok(()),
            Ending::Failed => writeln!(
                f,
                "failed: {}\nfix the cause, then continue with `mcpcensus crawl --resume {}`",
                self.failure.as_deref().unwrap_or("unknown reason"),
                self.run_id
            ),
            Ending::Interrupted => writeln!(
                f,
                "interrupted: continue with `mcpcensus crawl --resume {}`",
                self.run_id
            ),
            Ending::MaxDuration => writeln!(
                f,
                "stopped at --max-duration: continue with `mcpcensus crawl --resume {}`",
                self.run_id
            ),
        }
    }
}
