//! Decides what becomes of each line: scanned, recorded as invalid or excluded, or skipped
//! (blank, comment, duplicate, another shard), and counts every line so none is lost.

use std::borrow::Cow;
use std::sync::Arc;

use serde::Serialize;

use super::columns::{ColumnChoice, Fields, ListColumns};
use super::dedupe::Dedupe;
use super::exclude::Exclusions;
use super::normalize::{normalize, Line, Target, MAX_LINE_BYTES};
use super::reader::RawLine;
use super::shard::Shard;

/// What to do with one line.
#[derive(Debug)]
pub enum Planned {
    Scan(Target),
    Excluded {
        target: Target,
        listed: String,
    },
    Invalid {
        reason: Cow<'static, str>,
    },
    /// A server named by the official MCP registry (`registry:NAME`): looked up at scan time.
    Registry {
        name: String,
    },
    /// `registry:*`: every server the registry lists, each then planned as a name
    /// ([`Planner::plan_listed`]).
    RegistryAll,
    /// Blank, comment, duplicate or another shard's line: counted, no record.
    Skip,
}

/// The prefix of an input line naming a registry server (`registry:com.example/server`).
pub const REGISTRY_PREFIX: &str = "registry:";
/// The name of a line asking for every server the registry lists (`registry:*`).
pub const REGISTRY_ALL: &str = "*";
/// The longest registry name taken.
const MAX_REGISTRY_NAME: usize = 200;

/// `registry:NAME` → the name, or why it is not one; `None` for any other line.
pub fn registry_name(line: &str) -> Option<Result<&str, &'static str>> {
    let text = line.trim();
    let prefix = text.get(..REGISTRY_PREFIX.len())?;
    if !prefix.eq_ignore_ascii_case(REGISTRY_PREFIX) {
        return None;
    }
    let name = &text[REGISTRY_PREFIX.len()..];
    Some(if name == REGISTRY_ALL {
        Ok(name)
    } else if name.is_empty() {
        Err("registry: without a name")
    } else if name.len() > MAX_REGISTRY_NAME {
        Err("registry name longer than 200 bytes")
    } else if !name.bytes().all(|b| b.is_ascii_graphic()) {
        Err("registry name with spaces or non-ASCII characters")
    } else if !name.contains('/') {
        Err("registry name without a '/' (e.g. registry:com.example/server)")
    } else {
        Ok(name)
    })
}

/// A normalized line with its rank.
fn ranked(line: Line, rank: Option<u32>) -> Line {
    match line {
        Line::Target(mut target) => {
            target.rank = rank;
            Line::Target(target)
        }
        other => other,
    }
}

/// The record's reason for a site on the opt-out list.
pub fn excluded_reason(listed: &str) -> String {
    format!("opted out: {listed} is on the exclusion list")
}

/// Every line read lands in exactly one of these counters.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InputCounts {
    pub lines: u64,
    pub blank_or_comment: u64,
    /// A source's header line (`origin,rank`, Majestic's column names, ...).
    pub headers: u64,
    pub duplicates: u64,
    pub other_shard: u64,
    pub invalid: u64,
    pub excluded: u64,
    pub targets: u64,
    /// `registry:*` lines: each expands into the names the registry lists, no record itself.
    pub registry_all: u64,
    /// Names those lines expanded into: each is then counted like a line of its own.
    pub registry_listed: u64,
}

impl InputCounts {
    /// Lines that produce a record.
    pub fn records(&self) -> u64 {
        self.invalid + self.excluded + self.targets
    }

    /// True when every line is accounted for.
    pub fn balanced(&self) -> bool {
        self.lines + self.registry_listed
            == self.records()
                + self.registry_all
                + self.duplicates
                + self.other_shard
                + self.blank_or_comment
                + self.headers
    }
}

#[derive(Debug)]
pub struct Planner {
    shard: Shard,
    exclusions: Arc<Exclusions>,
    dedupe: Dedupe,
    columns: ListColumns,
    counts: InputCounts,
}

impl Planner {
    pub fn new(shard: Shard, exclusions: Arc<Exclusions>) -> Planner {
        Planner {
            shard,
            exclusions,
            dedupe: Dedupe::new(),
            columns: ListColumns::new(ColumnChoice::default()),
            counts: InputCounts::default(),
        }
    }

    /// Reads the lists' columns as chosen (`--host-column`, `--rank-column`).
    pub fn with_columns(mut self, choice: ColumnChoice) -> Planner {
        self.columns = ListColumns::new(choice);
        self
    }

    /// Plans the line numbered `line_no` in its source: line 1 starts a new source, whose
    /// first line may be a header.
    pub fn plan_at(&mut self, line_no: u64, raw: RawLine<'_>) -> Planned {
        if line_no == 1 {
            self.columns.new_source();
        }
        self.plan(raw)
    }

    pub fn counts(&self) -> InputCounts {
        self.counts
    }

    pub fn plan(&mut self, raw: RawLine<'_>) -> Planned {
        self.counts.lines += 1;
        if let RawLine::Text(text) = raw {
            if let Some(name) = registry_name(text) {
                return self.plan_registry(text, name);
            }
        }
        let (input, line) = match raw {
            RawLine::Text(text) => match self.columns.read(text) {
                Fields::Header => {
                    self.counts.headers += 1;
                    return Planned::Skip;
                }
                Fields::Invalid(reason) => (text, Line::Invalid(reason)),
                Fields::Site { text: site, rank } => (text, ranked(normalize(site), rank)),
            },
            RawLine::TooLong => (
                "",
                Line::Invalid(format!("line longer than {MAX_LINE_BYTES} bytes").into()),
            ),
            RawLine::NotUtf8 => ("", Line::Invalid("not valid UTF-8".into())),
        };
        match line {
            Line::Skip => {
                self.counts.blank_or_comment += 1;
                Planned::Skip
            }
            Line::Invalid(reason) => {
                // Invalid lines have no domain: shard them by their text so that N shards
                // together hold each exactly once.
                if !self.shard.owns(input.trim()) {
                    self.counts.other_shard += 1;
                    return Planned::Skip;
                }
                self.counts.invalid += 1;
                Planned::Invalid { reason }
            }
            Line::Target(target) => self.plan_target(target),
        }
    }

    /// A registry name: sharded and deduplicated by its name; the opt-out list applies to its
    /// remote once looked up.
    fn plan_registry(&mut self, text: &str, name: Result<&str, &'static str>) -> Planned {
        let name = match name {
            // Every shard expands the listing and keeps its own names.
            Ok(REGISTRY_ALL) => {
                self.counts.registry_all += 1;
                return Planned::RegistryAll;
            }
            Ok(name) => name,
            Err(reason) => {
                if !self.shard.owns(text.trim()) {
                    self.counts.other_shard += 1;
                    return Planned::Skip;
                }
                self.counts.invalid += 1;
                return Planned::Invalid {
                    reason: reason.into(),
                };
            }
        };
        if !self.shard.owns(name) {
            self.counts.other_shard += 1;
            return Planned::Skip;
        }
        if !self.dedupe.first_time(&format!("{REGISTRY_PREFIX}{name}")) {
            self.counts.duplicates += 1;
            return Planned::Skip;
        }
        self.counts.targets += 1;
        Planned::Registry {
            name: name.to_owned(),
        }
    }

    /// A name a `registry:*` line expanded into: planned as a `registry:NAME` line would be
    /// (checked, sharded by name, deduplicated), counted as listed rather than as a line read.
    pub fn plan_listed(&mut self, name: &str) -> Planned {
        self.counts.registry_listed += 1;
        let text = format!("{REGISTRY_PREFIX}{name}");
        match registry_name(&text) {
            // A listed name that reads as `*` is not a request for the whole list again.
            Some(Ok(REGISTRY_ALL)) | None => {
                self.counts.invalid += 1;
                Planned::Invalid {
                    reason: "a registry name that is not one".into(),
                }
            }
            Some(name) => self.plan_registry(&text, name),
        }
    }

    /// A `registry:*` line that cannot be expanded (no registry to read): it is recorded as
    /// invalid input instead.
    pub fn registry_all_refused(&mut self) {
        self.counts.registry_all -= 1;
        self.counts.invalid += 1;
    }

    fn plan_target(&mut self, target: Target) -> Planned {
        if !self.shard.owns(&target.registrable_domain) {
            self.counts.other_shard += 1;
            return Planned::Skip;
        }
        if !self.dedupe.first_time(&target.origin) {
            self.counts.duplicates += 1;
            return Planned::Skip;
        }
        if let Some(listed) = self.exclusions.covering(&target.host) {
            let listed = listed.to_owned();
            self.counts.excluded += 1;
            return Planned::Excluded { target, listed };
        }
        self.counts.targets += 1;
        Planned::Scan(target)
    }
}
