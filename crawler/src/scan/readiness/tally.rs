//! The readiness section as the phase fills it: each check's result and its evidence, and the
//! checks a naive 2xx count would have called present.

use mcpcensus_store::{Readiness, ReadinessCheck, ReadinessEvidence, CHECKS_VERSION};

/// What one answer said for a check, as its evidence.
pub(super) struct Seen<'a> {
    pub url: &'a str,
    pub status: Option<u16>,
    pub content_type: Option<&'a str>,
    pub bytes: u64,
}

pub(super) struct Tally {
    pub readiness: Readiness,
}

impl Tally {
    pub fn new() -> Tally {
        Tally {
            readiness: Readiness {
                checks_version: CHECKS_VERSION.to_owned(),
                ..Readiness::default()
            },
        }
    }

    /// Decides `check` (a check decided `true` once stays so: a later path cannot undo it).
    pub fn decide(&mut self, check: ReadinessCheck, counted: bool, seen: &Seen, note: String) {
        self.set(check, counted);
        self.evidence(check, seen, counted, note);
    }

    /// Decides a check that is a file at a path: a 2xx answer that does not count is what a
    /// naive count would have called present.
    pub fn decide_file(&mut self, check: ReadinessCheck, counted: bool, seen: &Seen, note: String) {
        self.decide(check, counted, seen, note);
        let two_xx = seen.status.is_some_and(|s| (200..300).contains(&s));
        if two_xx && !counted {
            self.naive(check);
        }
    }

    /// A check not made: it stays `null` unless another path decided it; the evidence says why.
    pub fn not_checked(&mut self, check: ReadinessCheck, seen: &Seen, note: String) {
        self.evidence(check, seen, false, note);
    }

    /// Decides `check` from evidence already logged (a header, a line of robots.txt).
    pub fn set(&mut self, check: ReadinessCheck, counted: bool) {
        let before = self.readiness.get(check);
        self.readiness
            .set(check, Some(before == Some(true) || counted));
    }

    pub fn evidence(&mut self, check: ReadinessCheck, seen: &Seen, parsed: bool, note: String) {
        self.readiness.evidence.push(ReadinessEvidence {
            check: check.as_str().to_owned(),
            url: seen.url.to_owned(),
            status: seen.status,
            content_type: seen.content_type.map(str::to_owned),
            bytes: seen.bytes,
            parsed,
            note: Some(note),
        });
    }

    /// A naive 2xx count would have called `check` present.
    fn naive(&mut self, check: ReadinessCheck) {
        let id = check.as_str();
        if !self.readiness.naive_only.iter().any(|c| c == id) {
            self.readiness.naive_only.push(id.to_owned());
        }
    }

    /// Ends the tally: a check decided `true` is not naive-only, whatever other path said.
    pub fn finish(mut self) -> Readiness {
        let r = &self.readiness;
        // In the checks' order, so records compare whatever order the paths were asked in.
        let keep: Vec<String> = ReadinessCheck::ALL
            .into_iter()
            .filter(|c| r.get(*c) != Some(true) && r.naive_only.iter().any(|id| id == c.as_str()))
            .map(|c| c.as_str().to_owned())
            .collect();
        self.readiness.naive_only = keep;
        self.readiness
    }
}
