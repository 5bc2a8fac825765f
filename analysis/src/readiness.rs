//! The readiness level's counts (docs/readiness.md): each check as sites and share of the
//! sites it was made on, by rank bucket when ranks exist, and the overcount a naive 2xx count
//! would have made. Both back ends count the same exclusive rank slots per check
//! ([`ReadinessSlots`]); [`ReadinessReport::build`] makes the report's rows from them.

use mcpcensus_store::{scanned, ReadinessCheck, Record};
use serde::{Deserialize, Serialize};

use crate::model::{rank_slot, Share, ALL_RANKED, RANK_BUCKETS, UNRANKED};

/// The exclusive rank slots ([`rank_slot`]).
pub const SLOTS: usize = RANK_BUCKETS.len() + 2;
const CHECKS: usize = ReadinessCheck::ALL.len();

/// One check's counts in one slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckCounts {
    /// Sites where the check was made (true or false).
    pub checked: u64,
    pub present: u64,
    /// Sites where its path answered 2xx without counting.
    pub naive_only: u64,
}

impl CheckCounts {
    fn add(&mut self, other: &CheckCounts) {
        self.checked += other.checked;
        self.present += other.present;
        self.naive_only += other.naive_only;
    }
}

/// One slot: the scanned sites the level ran on, the catch-alls among them, each check's counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadinessSlot {
    pub sites: u64,
    pub catch_all: u64,
    pub checks: [CheckCounts; CHECKS],
}

impl ReadinessSlot {
    fn add(&mut self, other: &ReadinessSlot) {
        self.sites += other.sites;
        self.catch_all += other.catch_all;
        for (mine, theirs) in self.checks.iter_mut().zip(&other.checks) {
            mine.add(theirs);
        }
    }
}

pub type ReadinessSlots = [ReadinessSlot; SLOTS];

/// Counts a record: a scanned site with a readiness section.
pub fn count_record(slots: &mut ReadinessSlots, r: &Record) {
    let Some(readiness) = r.readiness.as_ref().filter(|_| scanned(r.outcome)) else {
        return;
    };
    let slot = &mut slots[rank_slot(r.rank.map(u64::from))];
    slot.sites += 1;
    slot.catch_all += u64::from(readiness.catch_all == Some(true));
    for (check, counts) in ReadinessCheck::ALL.iter().zip(slot.checks.iter_mut()) {
        let value = readiness.get(*check);
        counts.checked += u64::from(value.is_some());
        counts.present += u64::from(value == Some(true));
        let naive = readiness.naive_only.iter().any(|id| id == check.as_str());
        counts.naive_only += u64::from(naive);
    }
}

/// The report's readiness section; absent from a report where no scanned site had one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadinessReport {
    /// Scanned sites the readiness level ran on.
    pub sites_checked: u64,
    /// Those whose negative control answered 2xx (they answer paths that cannot exist).
    pub catch_all: u64,
    /// Every check, in the record's order, over every site checked.
    pub checks: Vec<ReadinessRow>,
    /// The same per rank bucket (cumulative top N, every ranked site, the unranked); empty
    /// when no site checked has a rank.
    #[serde(default)]
    pub by_rank: Vec<ReadinessRankRow>,
}

/// One check over the sites of a population.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadinessRow {
    /// Radar's check id.
    pub check: String,
    /// Sites where the check was made (true or false).
    pub checked: u64,
    /// Sites where it was true, and their share of `checked`.
    pub present: Share,
    /// What a naive 2xx count would have said: `present` and the sites whose path answered
    /// 2xx without counting.
    pub naive: u64,
    /// `naive` less `present`: the soft-404 overcount avoided.
    pub overcount_avoided: u64,
}

/// One check in one rank bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadinessRankRow {
    pub bucket: String,
    /// The bucket's largest rank (`None`: every ranked site, or the unranked ones).
    pub max_rank: Option<u64>,
    pub sites_checked: u64,
    #[serde(flatten)]
    pub row: ReadinessRow,
}

fn rows(slot: &ReadinessSlot) -> Vec<ReadinessRow> {
    ReadinessCheck::ALL
        .iter()
        .zip(&slot.checks)
        .map(|(check, c)| ReadinessRow {
            check: check.as_str().to_owned(),
            checked: c.checked,
            present: Share::of(c.present, c.checked),
            naive: c.present + c.naive_only,
            overcount_avoided: c.naive_only,
        })
        .collect()
}

impl ReadinessReport {
    /// From the exclusive slots: `None` when no scanned site had a readiness section.
    pub fn build(slots: &ReadinessSlots) -> Option<ReadinessReport> {
        let mut all = ReadinessSlot::default();
        for slot in slots {
            all.add(slot);
        }
        if all.sites == 0 {
            return None;
        }
        Some(ReadinessReport {
            sites_checked: all.sites,
            catch_all: all.catch_all,
            checks: rows(&all),
            by_rank: by_rank(slots),
        })
    }
}

fn by_rank(slots: &ReadinessSlots) -> Vec<ReadinessRankRow> {
    let ranked = &slots[..=RANK_BUCKETS.len()];
    if ranked.iter().all(|s| s.sites == 0) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut running = ReadinessSlot::default();
    let mut push = |bucket: &str, max_rank: Option<u64>, slot: &ReadinessSlot| {
        for row in rows(slot) {
            out.push(ReadinessRankRow {
                bucket: bucket.to_owned(),
                max_rank,
                sites_checked: slot.sites,
                row,
            });
        }
    };
    for ((name, top), slot) in RANK_BUCKETS.iter().zip(ranked) {
        running.add(slot);
        push(name, Some(*top), &running);
    }
    running.add(&ranked[RANK_BUCKETS.len()]);
    push(ALL_RANKED, None, &running);
    push(UNRANKED, None, &slots[RANK_BUCKETS.len() + 1]);
    out
}
