//! `crawl --rescan-older-than DUR [LISTS…]`: the targets are the sites whose last record (over
//! every run of the store) is older than DUR, plus the sites of the lists never seen before.
//! The target list is fixed when the run starts: written into the run's directory
//! (`rescan-targets.txt`) and read as the run's only input, so `--resume` continues over the
//! same list however the store has changed since.
//!
//! Memory: one pass over the store keeps each site's origin and last scan time (about 100
//! bytes a site with the map's overhead, for a 40-byte origin); the new sites of the lists are
//! kept once each to drop repeats. With `--shard K/N` only the shard's sites are kept (the
//! planner's rule, [`Shard::owns_origin`], applied while the history streams by), so each of N
//! pods holds about 1/N of the census.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use mcpcensus_store::{format_timestamp, Outcome, RunCounts, Store};
use serde::{Deserialize, Serialize};

use super::selection::FileId;
use crate::input::{
    registry_name, ColumnChoice, LineReader, Planned, Planner, RawLine, Shard, Source,
};

/// The pinned target list in the run's directory.
pub const TARGETS_FILE: &str = "rescan-targets.txt";

/// What the re-scan selected, kept in the manifest's selection.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rescan {
    /// `--rescan-older-than` as given.
    pub older_than: String,
    /// Sites last scanned before this (ms since the epoch) are stale.
    pub cutoff_ms: u64,
    /// Where the last scans were read: `embedded` or `clickhouse`.
    pub store: String,
    /// The lists the new sites came from, as they were.
    pub lists: Vec<FileId>,
    pub stale: u64,
    pub new: u64,
    /// Sites of the lists scanned within DUR: not scanned again.
    pub fresh_skipped: u64,
    /// Lines of the lists that are not text (too long, not UTF-8): they name no site.
    pub unreadable_lines: u64,
    /// Registry names of the lists (`registry:NAME`), each looked up again.
    #[serde(default)]
    pub registry: u64,
    /// Stale sites the lists name again: their rank is today's list's (the others keep their
    /// last record's).
    #[serde(default)]
    pub ranks_from_lists: u64,
}

impl Rescan {
    /// The counts for the manifest and the JSON summary.
    pub fn fill(&self, counts: &mut RunCounts) {
        counts.rescan_stale = self.stale;
        counts.rescan_new = self.new;
        counts.rescan_fresh_skipped = self.fresh_skipped;
        counts.rescan_registry = self.registry;
    }

    /// The summary's line.
    pub fn line(&self) -> String {
        let mut line = format!(
            "rescan: stale {} (last scanned before {}; {} ranked by today's lists), new {}, \
             fresh skipped {} (scanned within {})",
            self.stale,
            format_timestamp(self.cutoff_ms),
            self.ranks_from_lists,
            self.new,
            self.fresh_skipped,
            self.older_than
        );
        if self.registry > 0 {
            line.push_str(&format!(
                ", registry names {} (looked up again)",
                self.registry
            ));
        }
        if self.unreadable_lines > 0 {
            line.push_str(&format!(
                "; {} list lines unreadable (too long or not UTF-8)",
                self.unreadable_lines
            ));
        }
        line
    }
}

/// The cutoff for `older_than` (e.g. `7d`, `36h`: the `--max-duration` syntax) at `now_ms`.
pub fn cutoff(older_than: &str, now_ms: u64) -> anyhow::Result<u64> {
    let d: Duration = humantime::parse_duration(older_than)
        .with_context(|| format!("--rescan-older-than {older_than:?}"))?;
    Ok(now_ms.saturating_sub(d.as_millis().try_into().unwrap_or(u64::MAX)))
}

/// Each site's last scan time (origin → ms) and the rank its last record had, the rank a
/// stale site no list names again keeps; only the sites of one shard.
#[derive(Debug)]
pub struct LastScans {
    sites: HashMap<String, (u64, Option<u32>)>,
    shard: Shard,
}

impl Default for LastScans {
    fn default() -> Self {
        Self::of_shard(Shard::ALL)
    }
}

impl LastScans {
    /// Keeps only the sites `shard` scans.
    pub fn of_shard(shard: Shard) -> Self {
        Self {
            sites: HashMap::new(),
            shard,
        }
    }

    /// One scan of `origin`; another shard's site is dropped here, before it takes memory.
    pub fn see(&mut self, origin: String, at_ms: u64, rank: Option<u32>) {
        if !self.shard.owns_origin(&origin) {
            return;
        }
        let slot = self.sites.entry(origin).or_insert((at_ms, rank));
        if at_ms >= slot.0 {
            *slot = (at_ms, rank.or(slot.1));
        }
    }

    pub fn len(&self) -> usize {
        self.sites.len()
    }

    /// One pass over every run of the embedded store (dry runs left out), keeping `shard`'s
    /// sites. Placeholders (planned, not started) are not scans; records without an origin
    /// name no site.
    pub fn from_store(store: &Store, shard: Shard) -> anyhow::Result<LastScans> {
        let mut last = LastScans::of_shard(shard);
        for run in store.runs()?.into_iter().filter(|m| !m.dry_run) {
            let reader = store.read_run(&run.run_id)?;
            for record in reader {
                let r =
                    record.with_context(|| format!("reading the records of run {}", run.run_id))?;
                // Registry names are looked up again from the lists on every re-scan.
                if matches!(r.outcome, Outcome::Planned | Outcome::NotStarted)
                    || registry_name(&r.input).is_some()
                {
                    continue;
                }
                if let Some(origin) = r.origin {
                    last.see(origin, r.scanned_at, r.rank);
                }
            }
        }
        Ok(last)
    }
}

/// Writes the target list to `path`: the lists' sites first, in list order, each stale or new
/// site once, with the rank today's list gives it (today's list wins: a site listed again
/// takes its place in today's ranking, not its last record's); then the stale sites no list
/// names, with the rank of their last record. Each line is `rank,origin` when it has a rank
/// (the list is read back with the default columns). Lines of the lists that are not sites
/// (invalid input) are copied as they are, so the crawl records them with their reason
/// instead of dropping them; their header lines are read as headers.
pub fn write_targets(
    path: &Path,
    last: &LastScans,
    lists: &[Source],
    columns: &ColumnChoice,
    rescan: &mut Rescan,
) -> anyhow::Result<()> {
    let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut out = BufWriter::new(file);
    let write_err = || format!("writing {}", path.display());
    writeln!(
        out,
        "# mcpcensus re-scan: the lists' stale and new sites (ranks from the lists), then the \
         other sites last scanned before {}",
        format_timestamp(rescan.cutoff_ms)
    )
    .with_context(write_err)?;
    let stale = |origin: &str| {
        last.sites
            .get(origin)
            .is_some_and(|(at, _)| *at < rescan.cutoff_ms)
    };
    // Sites written from the lists (new and stale): each once.
    let mut written: HashSet<String> = HashSet::new();
    // The lists read as the shard's crawl reads them: another shard's lines are its own.
    let mut planner = Planner::new(last.shard, Default::default()).with_columns(columns.clone());
    let mut reader = LineReader::new(lists.to_vec());
    while let Some((line_no, raw)) = reader.next_line_at()? {
        let text = match raw {
            RawLine::Text(text) => text,
            RawLine::TooLong | RawLine::NotUtf8 => {
                rescan.unreadable_lines += 1;
                continue;
            }
        };
        if registry_name(text).is_some() {
            // Looked up again each time, as the weekly re-probe of registry servers does.
            writeln!(out, "{}", text.trim()).with_context(write_err)?;
            rescan.registry += 1;
            continue;
        }
        // Read as the crawl reads it (columns, header), without dedupe's memory: `written`
        // drops the repeats.
        match planner.plan_at(line_no, RawLine::Text(text)) {
            Planned::Skip => {}
            Planned::Invalid { .. } => writeln!(out, "{}", text.trim()).with_context(write_err)?,
            Planned::Scan(t) | Planned::Excluded { target: t, .. } => {
                let seen = last.sites.get(&t.origin);
                if seen.is_some_and(|(at, _)| *at >= rescan.cutoff_ms) {
                    rescan.fresh_skipped += 1;
                } else if written.insert(t.origin.clone()) {
                    writeln!(out, "{}", ranked_line(&t.origin, t.rank)).with_context(write_err)?;
                    if seen.is_some() {
                        rescan.stale += 1;
                        rescan.ranks_from_lists += 1;
                    } else {
                        rescan.new += 1;
                    }
                }
            }
            Planned::Registry { .. } | Planned::RegistryAll => {}
        }
    }
    let mut unlisted: Vec<(&String, Option<u32>)> = last
        .sites
        .iter()
        .filter(|(origin, _)| stale(origin) && !written.contains(*origin))
        .map(|(origin, (_, rank))| (origin, *rank))
        .collect();
    unlisted.sort_unstable();
    for (origin, rank) in &unlisted {
        writeln!(out, "{}", ranked_line(origin, *rank)).with_context(write_err)?;
    }
    rescan.stale += unlisted.len() as u64;
    out.into_inner()
        .map_err(|e| e.into_error())
        .and_then(|f| f.sync_all())
        .with_context(write_err)?;
    Ok(())
}

/// A target list line: `rank,origin` (read back as a top list's line) or the origin.
fn ranked_line(origin: &str, rank: Option<u32>) -> String {
    match rank {
        Some(rank) => format!("{rank},{origin}"),
        None => origin.to_owned(),
    }
}

/// The pinned list of a rescan run being resumed, after checking the lists given now are the
/// run's.
pub fn pinned_for_resume(
    run_dir: PathBuf,
    recorded: &Rescan,
    lists_now: &[FileId],
    older_than_now: Option<&str>,
) -> anyhow::Result<Source> {
    if let Some(now) = older_than_now.filter(|now| *now != recorded.older_than) {
        bail!(
            "the run re-scans sites older than {}, not {now}: resume with --rescan-older-than {}",
            recorded.older_than,
            recorded.older_than
        );
    }
    if recorded.lists != lists_now {
        bail!(
            "the lists differ from the re-scan's ({} then, {} now): resume with the same lists",
            recorded.lists.len(),
            lists_now.len()
        );
    }
    let path = run_dir.join(TARGETS_FILE);
    if !path.is_file() {
        bail!("the re-scan's target list {} is missing", path.display());
    }
    Ok(Source::File(path))
}
