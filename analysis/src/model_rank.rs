//! Adoption by the input's rank: the Web Almanac's buckets, the exclusive slot both back ends
//! count a site in, and the cumulative rows the report shows. The ClickHouse queries get the
//! buckets from here (`{rank_slot}`, analysis/src/clickhouse/shared.rs).

use serde::{Deserialize, Serialize};

use crate::model::RunReport;

/// The rank buckets: each a cumulative "top N" (sites whose rank is at most N).
pub const RANK_BUCKETS: [(&str, u64); 5] = [
    ("top 1k", 1_000),
    ("top 10k", 10_000),
    ("top 100k", 100_000),
    ("top 1M", 1_000_000),
    ("top 10M", 10_000_000),
];
/// The bucket of every ranked site, whatever its rank.
pub const ALL_RANKED: &str = "all ranked";
/// The bucket of sites whose input line had no rank.
pub const UNRANKED: &str = "unranked";

/// The exclusive bucket a rank falls in (0 to 4: its smallest "top N"; 5: past 10M; 6: no
/// rank), as both back ends count them before the buckets are made cumulative.
pub fn rank_slot(rank: Option<u64>) -> usize {
    match rank {
        None | Some(0) => RANK_BUCKETS.len() + 1,
        Some(r) => RANK_BUCKETS
            .iter()
            .position(|(_, top)| r <= *top)
            .unwrap_or(RANK_BUCKETS.len()),
    }
}

/// Adoption among the scanned sites of one rank bucket.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankBucket {
    pub bucket: String,
    /// The bucket's largest rank (`None`: every ranked site, or the unranked ones).
    pub max_rank: Option<u64>,
    pub scanned: u64,
    /// Scanned sites with an API or agent surface.
    pub surface: u64,
    pub endpoints: u64,
    pub passing: u64,
}

impl RankBucket {
    fn add(&mut self, other: &RankBucket) {
        self.scanned += other.scanned;
        self.surface += other.surface;
        self.endpoints += other.endpoints;
        self.passing += other.passing;
    }
}

impl RunReport {
    /// Fills `adoption_by_rank` from the counts of each exclusive slot ([`rank_slot`]); both
    /// back ends count those, this makes them cumulative. Nothing when no site has a rank.
    pub fn set_rank_buckets(&mut self, slots: &[RankBucket; RANK_BUCKETS.len() + 2]) {
        let ranked = &slots[..=RANK_BUCKETS.len()];
        if ranked.iter().all(|s| s.scanned == 0) {
            self.adoption_by_rank.clear();
            return;
        }
        let mut running = RankBucket::default();
        let mut out = Vec::with_capacity(RANK_BUCKETS.len() + 2);
        for ((name, top), slot) in RANK_BUCKETS.iter().zip(ranked) {
            running.add(slot);
            out.push(RankBucket {
                bucket: (*name).to_owned(),
                max_rank: Some(*top),
                ..running.clone()
            });
        }
        running.add(&ranked[RANK_BUCKETS.len()]);
        out.push(RankBucket {
            bucket: ALL_RANKED.to_owned(),
            ..running
        });
        out.push(RankBucket {
            bucket: UNRANKED.to_owned(),
            max_rank: None,
            ..slots[RANK_BUCKETS.len() + 1].clone()
        });
        self.adoption_by_rank = out;
    }
}
