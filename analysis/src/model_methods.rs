//! How the data was taken, in the report's shape: each run's manifest and the outcome mapping
//! (docs/report.md, `methods`; filled in by methods.rs).

use serde::{Deserialize, Serialize};

/// How the data was taken: one entry per run in the history, read from its manifest, and
/// how the outcomes map to the measurement's five.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Methods {
    pub runs: Vec<RunMethods>,
    pub outcome_mapping: Vec<OutcomeMapping>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunMethods {
    pub run_id: String,
    /// False when no manifest was at hand (a ClickHouse report without `--from`).
    pub manifest: bool,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub status: Option<String>,
    /// The manifest's `provenance`: the release (`mcpcensus 0.1.0`), the build (target and
    /// profile) and the public suffix list compiled in; `None` when it does not record one.
    pub mcpcensus_version: Option<String>,
    pub build: Option<String>,
    pub public_suffix_list: Option<String>,
    /// The settings that change verdicts, as the run's effective config held them.
    pub settings: Vec<Setting>,
    /// The run's input lines, each counted once however many shards read it.
    pub lines_read: Option<u64>,
    /// Each input list as read, with its size and checksum (the manifest's provenance); a
    /// file several shards read is listed once.
    pub inputs: Vec<InputFile>,
    /// A run written by `crawl --shard K/N` processes: each shard's part as its manifest
    /// says; empty for a run of every site written by one process.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<ShardMethods>,
    /// The shards of the run no manifest was found for (`1/4`), so its records are missing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards_missing: Vec<String>,
    /// Where the sites' ranks came from (the rank buckets follow them); `None` without a
    /// manifest.
    #[serde(default)]
    pub ranks: Option<RankSource>,
}

/// Where a run's ranks came from. A run given lists ranks each site by its line in them; a
/// re-scan (`--rescan-older-than`) ranks the sites its lists name by today's lists and keeps
/// the last record's rank for the stale sites no list names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankSource {
    /// `lists` (the run's inputs) or `rescan`.
    pub from: String,
    /// The lists the ranks were read from, each once (a re-scan's as it named them; a re-scan
    /// given no list has none).
    pub lists: Vec<String>,
    /// A re-scan: the sites ranked by today's lists (stale sites listed again and sites new to
    /// the store) and the stale sites no list names, which keep their last record's rank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sites_ranked_by_lists: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sites_keeping_last_rank: Option<u64>,
}

/// One shard's part of a run, from that process's manifest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardMethods {
    /// `K/N`, as `--shard` gave it.
    pub shard: String,
    pub status: String,
    pub started_at: String,
    pub ended_at: Option<String>,
    pub lines_read: Option<u64>,
    pub records_written: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    pub name: String,
    /// `None`: not recorded in the manifest.
    pub value: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFile {
    /// The path as given, or `-` for standard input (which has no size or checksum).
    pub path: String,
    pub bytes: Option<u64>,
    /// XXH3-64 of the file's bytes, 16 hex digits.
    pub xxh3_64: Option<String>,
    /// The lines read from it (absent when the manifest does not say).
    #[serde(default)]
    pub lines: Option<u64>,
    /// The shards that read it; empty for a run of every site.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read_by: Vec<String>,
}

/// A record outcome and the measurement outcome it stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeMapping {
    pub outcome: String,
    pub measured_as: String,
}
