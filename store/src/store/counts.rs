//! The run's counts, as the manifest, `--stats-json` and the last JSON log line carry them. On
//! disk they stay the flat object earlier builds wrote (`"lines_read": 10`, `"outcome.pass": 7`,
//! keys sorted), so their manifests read and resume unchanged; in code they are this struct.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::record::Outcome;

/// The prefix of the per-outcome keys: `outcome.pass`, `outcome.not_started`, ...
pub const OUTCOME_KEY_PREFIX: &str = "outcome.";
/// Counters written only when not zero: header lines, `--rescan-older-than`'s, ClickHouse's
/// dead letters, the second looks and the registry listing.
pub(super) const WRITTEN_WHEN_NOT_ZERO: [&str; 12] = [
    "second_looks",
    "second_looks_flipped",
    "second_looks_not_made",
    "header_lines",
    "rescan_stale",
    "rescan_new",
    "rescan_fresh_skipped",
    "rescan_registry",
    "clickhouse_dead_letters",
    "registry_pages",
    "registry_names",
    "registry_older_versions",
];

/// Totals of one run, filled in when it ends.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "BTreeMap<String, u64>", into = "BTreeMap<String, u64>")]
pub struct RunCounts {
    pub lines_read: u64,
    pub blank_or_comment: u64,
    /// A list's header lines (`origin,rank`, ...): no site.
    pub header_lines: u64,
    pub duplicates_skipped: u64,
    pub other_shard: u64,
    pub invalid_input: u64,
    pub excluded: u64,
    pub targets: u64,
    pub records_written: u64,
    pub defects: u64,
    pub endpoints: u64,
    /// Lines skipped because the resumed run already had their record.
    pub already_recorded: u64,
    /// Scans retried because this machine ran out of a resource.
    pub local_resource_retries: u64,
    /// `--rescan-older-than`: sites whose last record was older, list sites never seen,
    /// sites skipped as scanned recently, registry names looked up again.
    pub rescan_stale: u64,
    pub rescan_new: u64,
    pub rescan_fresh_skipped: u64,
    pub rescan_registry: u64,
    /// Records ClickHouse rejected for their content (in the run's dead-letter file).
    pub clickhouse_dead_letters: u64,
    /// Sites looked at a second time, those whose outcome changed, and those whose first look
    /// is their record because the run stopped before the second.
    pub second_looks: u64,
    pub second_looks_flipped: u64,
    pub second_looks_not_made: u64,
    /// `registry:*`: pages of the registry's listing read, names listed at their latest
    /// version, entries skipped as older versions.
    pub registry_pages: u64,
    pub registry_names: u64,
    pub registry_older_versions: u64,
    /// Records per outcome; outcomes no record had are absent.
    pub per_outcome: BTreeMap<Outcome, u64>,
    /// Keys this build does not know (a newer build's counters), kept as read so rewriting
    /// the manifest loses nothing.
    pub other: BTreeMap<String, u64>,
}

impl RunCounts {
    /// Each plain counter's key and field, once: both directions of the JSON form use it.
    fn plain(&mut self) -> [(&'static str, &mut u64); 24] {
        [
            ("lines_read", &mut self.lines_read),
            ("blank_or_comment", &mut self.blank_or_comment),
            ("header_lines", &mut self.header_lines),
            ("duplicates_skipped", &mut self.duplicates_skipped),
            ("other_shard", &mut self.other_shard),
            ("invalid_input", &mut self.invalid_input),
            ("excluded", &mut self.excluded),
            ("targets", &mut self.targets),
            ("records_written", &mut self.records_written),
            ("defects", &mut self.defects),
            ("endpoints", &mut self.endpoints),
            ("already_recorded", &mut self.already_recorded),
            ("local_resource_retries", &mut self.local_resource_retries),
            ("rescan_stale", &mut self.rescan_stale),
            ("rescan_new", &mut self.rescan_new),
            ("rescan_fresh_skipped", &mut self.rescan_fresh_skipped),
            ("rescan_registry", &mut self.rescan_registry),
            ("clickhouse_dead_letters", &mut self.clickhouse_dead_letters),
            ("second_looks", &mut self.second_looks),
            ("second_looks_flipped", &mut self.second_looks_flipped),
            ("second_looks_not_made", &mut self.second_looks_not_made),
            ("registry_pages", &mut self.registry_pages),
            ("registry_names", &mut self.registry_names),
            ("registry_older_versions", &mut self.registry_older_versions),
        ]
    }

    /// Records with `outcome` (0 when none).
    pub fn outcome(&self, outcome: Outcome) -> u64 {
        self.per_outcome.get(&outcome).copied().unwrap_or(0)
    }
}

impl RunCounts {
    /// The flat form with every counter, zeros included: `--stats-json` and the JSON summary
    /// promise their keys to schedulers whatever kind of run wrote them (the manifest keeps
    /// the form earlier builds wrote).
    pub fn every_key(&self) -> BTreeMap<String, u64> {
        self.clone().flat(true)
    }

    fn flat(mut self, every_key: bool) -> BTreeMap<String, u64> {
        let mut map = std::mem::take(&mut self.other);
        for (key, value) in self.plain() {
            // Counters of one kind of run only: other manifests stay as before.
            if every_key || *value != 0 || !WRITTEN_WHEN_NOT_ZERO.contains(&key) {
                map.insert(key.to_owned(), *value);
            }
        }
        for (outcome, n) in &self.per_outcome {
            map.insert(format!("{OUTCOME_KEY_PREFIX}{outcome}"), *n);
        }
        map
    }
}

impl From<RunCounts> for BTreeMap<String, u64> {
    fn from(counts: RunCounts) -> Self {
        counts.flat(false)
    }
}

impl From<BTreeMap<String, u64>> for RunCounts {
    /// Missing counters are 0 (a partial object from a tool); unknown keys go to `other`.
    fn from(mut map: BTreeMap<String, u64>) -> Self {
        let mut counts = RunCounts::default();
        for (key, value) in counts.plain() {
            if let Some(n) = map.remove(key) {
                *value = n;
            }
        }
        for (key, n) in map {
            let outcome = key
                .strip_prefix(OUTCOME_KEY_PREFIX)
                .and_then(Outcome::parse);
            match outcome {
                Some(outcome) => {
                    counts.per_outcome.insert(outcome, n);
                }
                None => {
                    counts.other.insert(key, n);
                }
            }
        }
        counts
    }
}

/// The manifest's `counts`: `{}` until the run ends (as earlier builds wrote it), read back as
/// `None`, so "not counted yet" stays apart from "counted zero".
pub(crate) mod optional {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::RunCounts;

    pub fn serialize<S: Serializer>(counts: &Option<RunCounts>, s: S) -> Result<S::Ok, S::Error> {
        match counts {
            Some(counts) => counts.serialize(s),
            None => BTreeMap::<String, u64>::new().serialize(s),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RunCounts>, D::Error> {
        let map = BTreeMap::<String, u64>::deserialize(d)?;
        Ok((!map.is_empty()).then(|| RunCounts::from(map)))
    }
}
