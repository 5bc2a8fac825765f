//! The verdict: a record's outcome, its reason in words a site owner understands, the reason's
//! typed kind, the survey's defect flag and whether the failure may pass. One type for every
//! verdict (the session's on an answer, a phase's that ends the scan early, intake's on a line
//! never scanned) and the one place that writes it into a record ([`Verdict::write_to`]).
//! Analysis reads the typed outcome and kind; it never reads the reason.

mod reasons;

use mcpcensus_store::{now_ms, FailureKind, Outcome, Record};

use crate::net::{FetchError, ResolveError};

/// A verdict on a site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    /// The reason's typed kind; `None` for pass and partial.
    pub kind: Option<FailureKind>,
    /// Why, in words a site owner understands.
    pub reason: String,
    /// The survey's defect flag (`session/judge.rs` says how it is read).
    pub defect: bool,
    /// The failure may pass (no answer, or an answer asking to come back later; see
    /// [`FetchError::is_transient`]): the site is worth a second look. Never decided on what
    /// the server wrote.
    pub transient: bool,
}

impl Verdict {
    /// A verdict other than pass or partial, with its reason's kind.
    pub fn new(outcome: Outcome, kind: FailureKind, reason: impl Into<String>) -> Verdict {
        Verdict {
            outcome,
            kind: Some(kind),
            reason: reason.into(),
            defect: false,
            transient: false,
        }
    }

    /// Pass or partial: the server answered; no failure kind.
    pub fn answered(outcome: Outcome, reason: impl Into<String>) -> Verdict {
        Verdict {
            kind: None,
            ..Verdict::new(outcome, FailureKind::Answer, reason)
        }
    }

    /// A verdict of `outcome` with no typed kind, for tests that need any record.
    #[cfg(test)]
    pub(crate) fn of(outcome: Outcome, reason: impl Into<String>) -> Verdict {
        Verdict::answered(outcome, reason)
    }

    /// Not measured, for `kind`.
    pub fn not_measured(kind: FailureKind, reason: impl Into<String>) -> Verdict {
        Verdict::new(Outcome::NotMeasured, kind, reason)
    }

    /// The same verdict, marked as the survey's defect.
    pub fn defect(self) -> Verdict {
        Verdict {
            defect: true,
            ..self
        }
    }

    /// The same verdict, marked as a failure that may pass.
    pub fn transient(self) -> Verdict {
        self.may_pass(true)
    }

    /// The same verdict, marked as a failure that may pass when `may_pass`.
    pub fn may_pass(self, may_pass: bool) -> Verdict {
        Verdict {
            transient: may_pass,
            ..self
        }
    }

    /// The host does not resolve.
    pub fn resolve(error: &ResolveError) -> Verdict {
        Verdict::new(
            Outcome::Unreachable,
            error.failure_kind(),
            reasons::resolve(error),
        )
        .may_pass(error.is_transient())
    }

    /// Nothing answers at the site.
    pub fn no_answer(error: &FetchError) -> Verdict {
        Verdict::new(
            Outcome::Unreachable,
            error.failure_kind(),
            reasons::no_answer(error),
        )
        .may_pass(error.is_transient())
    }

    /// The seat would not let the site wait its turn on `ip` (the crawl scans it again
    /// later; this verdict is never its record's).
    pub fn held(ip: std::net::IpAddr) -> Verdict {
        Verdict::not_started(
            FailureKind::Interrupted,
            format!("held back: {ip} had its share of the sites waiting their turn"),
        )
    }

    /// The site was not scanned: the run stopped (`Interrupted`) or this machine ran out of
    /// resources (`LocalResource`); never the site's own verdict.
    pub fn not_started(kind: FailureKind, reason: impl Into<String>) -> Verdict {
        Verdict::new(Outcome::NotStarted, kind, reason)
    }

    /// The verdict a scan's record starts with, before a phase or the session gives its own.
    pub fn pending() -> Verdict {
        Verdict {
            kind: None,
            ..Verdict::not_measured(FailureKind::Internal, "")
        }
    }

    /// A dry run's record: the site would be scanned.
    pub fn planned() -> Verdict {
        Verdict {
            kind: None,
            ..Verdict::new(Outcome::Planned, FailureKind::Input, "would be scanned")
        }
    }

    /// The operator's opt-out list names the site.
    pub fn excluded(reason: impl Into<String>) -> Verdict {
        Verdict::new(Outcome::Excluded, FailureKind::OptedOut, reason)
    }

    /// The input line is not a site the census can scan.
    pub fn invalid_input(reason: impl Into<String>) -> Verdict {
        Verdict::new(Outcome::InvalidInput, FailureKind::Input, reason)
    }

    /// A new record of the input line `input_line` (`input` as read), stamped now, with this
    /// verdict.
    pub fn into_record(self, run_id: &str, input: &str, input_line: u64) -> Record {
        let mut record = Record::new(run_id, now_ms(), input, input_line, self.outcome, "");
        self.write_to(&mut record);
        record
    }

    /// Writes the verdict into `record`: the one place a record's outcome is set. A later
    /// verdict (the site deadline after the session) keeps a defect the session saw.
    pub fn write_to(self, record: &mut Record) {
        record.set_verdict(self.outcome, self.kind, self.reason);
        record.defect |= self.defect;
    }
}
