//! The run's final accounting.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use mcpcensus_store::Outcome;

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
}

#[derive(Debug, Clone)]
pub struct Summary {
    pub run_id: String,
    pub input: InputCounts,
    pub written: WrittenCounts,
    pub duration: Duration,
    pub ending: Ending,
    pub dry_run: bool,
}

impl Summary {
    /// Counts for the run manifest.
    pub fn manifest_counts(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        let i = &self.input;
        for (k, v) in [
            ("lines_read", i.lines),
            ("blank_or_comment", i.blank_or_comment),
            ("duplicates_skipped", i.duplicates),
            ("other_shard", i.other_shard),
            ("invalid_input", i.invalid),
            ("excluded", i.excluded),
            ("targets", i.targets),
            ("records_written", self.written.records),
            ("defects", self.written.defects),
            ("endpoints", self.written.endpoints),
        ] {
            m.insert(k.to_owned(), v);
        }
        for (outcome, n) in &self.written.per_outcome {
            m.insert(format!("outcome.{}", outcome.as_str()), *n);
        }
        m
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
        writeln!(
            f,
            "input: {} lines read = {} records + {} duplicates skipped + {} blank/comment + {} in other shards",
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
        match self.ending {
            Ending::Complete => Ok(()),
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
