//! What decides which sites are in a run (input files, shard, exclusion lists) and where its
//! records go, recorded in the manifest so `--resume` can refuse to continue a run over
//! different inputs, or into other stores (it would not find what the run has).

use std::path::Path;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::input::Source;
use crate::run::DoneSet;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    pub inputs: Vec<FileId>,
    pub shard: String,
    pub exclusions: Vec<FileId>,
    /// A re-scan run: what selected its targets (its one input is the pinned target list).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rescan: Option<super::rescan::Rescan>,
    /// `store`, `clickhouse` or `both`; absent in manifests written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sinks: Option<String>,
}

/// A file as it was when the run started: a changed size or modification time means the
/// line numbers the store's records point at may no longer be the same lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileId {
    pub path: String,
    pub bytes: u64,
    pub modified_ms: u64,
}

impl FileId {
    fn of(path: &Path) -> anyhow::Result<FileId> {
        let meta =
            std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
        let modified_ms = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_millis() as u64);
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        Ok(FileId {
            path: path.display().to_string(),
            bytes: meta.len(),
            modified_ms,
        })
    }

    fn stdin() -> FileId {
        FileId {
            path: "-".to_owned(),
            bytes: 0,
            modified_ms: 0,
        }
    }
}

impl Selection {
    /// The files as they are now.
    pub fn files(sources: &[Source]) -> anyhow::Result<Vec<FileId>> {
        sources
            .iter()
            .map(|s| match s {
                Source::Stdin => Ok(FileId::stdin()),
                Source::File(p) => FileId::of(p),
            })
            .collect()
    }

    pub fn of(sources: &[Source], config: &Config) -> anyhow::Result<Selection> {
        let inputs = Selection::files(sources)?;
        let exclusions = config
            .input
            .exclude
            .iter()
            .map(|p| FileId::of(p))
            .collect::<anyhow::Result<_>>()?;
        Ok(Selection {
            inputs,
            shard: config.input.shard.to_string(),
            exclusions,
            rescan: None,
            sinks: None,
        })
    }

    /// The re-scan a run's recorded selection describes, if it is one.
    pub fn recorded_rescan(
        recorded: Option<&serde_json::Value>,
    ) -> anyhow::Result<Option<super::rescan::Rescan>> {
        let Some(recorded) = recorded else {
            return Ok(None);
        };
        let recorded: Selection = serde_json::from_value(recorded.clone())
            .context("the run's manifest has an unreadable input selection")?;
        Ok(recorded.rescan)
    }

    /// Records where the run's records go: ClickHouse (`clickhouse`), the embedded store, or
    /// both (`tee`: ClickHouse with an explicit --out).
    pub fn with_sinks(mut self, clickhouse: bool, tee: bool) -> Selection {
        self.sinks = Some(
            match (clickhouse, tee) {
                (false, _) => "store",
                (true, false) => "clickhouse",
                (true, true) => "both",
            }
            .to_owned(),
        );
        self
    }

    /// An empty done set laid out for these inputs: a bitset by line for one file (its size
    /// bounds its lines), hashed keys for several.
    pub fn done_set(&self) -> DoneSet {
        match self.inputs.as_slice() {
            [one] if one.path != "-" => DoneSet::lines(one.bytes + 1),
            _ => DoneSet::default(),
        }
    }

    /// Refuses, naming the difference, unless `self` (now) selects the same sites as
    /// `recorded` (the run's start).
    pub fn check_same_as(&self, recorded: Option<&serde_json::Value>) -> anyhow::Result<()> {
        if self.inputs.iter().any(|f| f.path == "-") {
            bail!("a run reading standard input cannot be resumed: save the list to a file");
        }
        let Some(recorded) = recorded else {
            bail!("the run's manifest does not say which inputs it read, so it cannot be resumed");
        };
        let recorded: Selection = serde_json::from_value(recorded.clone())
            .context("the run's manifest has an unreadable input selection")?;
        if recorded.inputs != self.inputs {
            bail!(
                "the input files differ from the run's ({}; now {}): resume with the same, \
                 unchanged files, or start a new run",
                describe(&recorded.inputs),
                describe(&self.inputs)
            );
        }
        if recorded.shard != self.shard {
            bail!(
                "the shard differs from the run's ({} then, {} now): resume with --shard {}",
                recorded.shard,
                self.shard,
                recorded.shard
            );
        }
        if recorded.exclusions != self.exclusions {
            bail!(
                "the exclusion lists differ from the run's ({}; now {}): resume with the same \
                 lists, or start a new run",
                describe(&recorded.exclusions),
                describe(&self.exclusions)
            );
        }
        if let (Some(then), Some(now)) = (&recorded.sinks, &self.sinks) {
            if then != now {
                bail!(
                    "the run's records went to {} and would now go to {}: resume with the same \
                     sinks (--clickhouse and --out as the run was started)",
                    sinks_text(then),
                    sinks_text(now)
                );
            }
        }
        Ok(())
    }
}

fn sinks_text(sinks: &str) -> &str {
    match sinks {
        "clickhouse" => "ClickHouse alone",
        "both" => "ClickHouse and the embedded store",
        _ => "the embedded store alone",
    }
}

fn describe(files: &[FileId]) -> String {
    if files.is_empty() {
        return "none".to_owned();
    }
    files
        .iter()
        .map(|f| format!("{} ({} bytes)", f.path, f.bytes))
        .collect::<Vec<_>>()
        .join(", ")
}
