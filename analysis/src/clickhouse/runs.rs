//! The runs as ClickHouse knows them: each run's `runs` row (label, start time, manifest) and,
//! for runs without one, the time of its first record. Runs are ordered by start time, as the
//! embedded store orders its manifests: run ids are names (`--run-id`), not times.

use std::collections::BTreeMap;

use clickhouse::Client;
use mcpcensus_store::RunManifest;

use super::query::all;
use super::rows::{RunFirstRow, RunPartsRow, RunsRow};
use super::sql;
use crate::error::AnalysisError;

/// Every run's `runs` row, by run id.
#[derive(Debug, Default)]
pub struct Runs {
    rows: BTreeMap<String, RunsRow>,
    /// Each run's parts' manifests (one a shard), by run id.
    parts: BTreeMap<String, Vec<String>>,
}

impl Runs {
    pub async fn read(c: &Client) -> Result<Runs, AnalysisError> {
        let rows: Vec<RunsRow> = all(sql::query(c, sql::RUNS), "runs").await?;
        let part_rows: Vec<RunPartsRow> = all(sql::query(c, sql::RUN_PARTS), "run_parts").await?;
        let mut parts: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for p in part_rows
            .into_iter()
            .filter(|p| !p.part_manifest.is_empty())
        {
            parts.entry(p.run_id).or_default().push(p.part_manifest);
        }
        Ok(Runs {
            rows: rows.into_iter().map(|r| (r.run_id.clone(), r)).collect(),
            parts,
        })
    }

    /// The time `run_id` is ordered by: its start, else (no `runs` row) its first record's.
    pub fn start_ms(&self, run_id: &str, first_record_ms: u64) -> u64 {
        self.rows
            .get(run_id)
            .map_or(first_record_ms, |r| r.start_ms)
    }

    /// The run's label, `None` without one.
    pub fn label(&self, run_id: &str) -> Option<String> {
        self.rows
            .get(run_id)
            .map(|r| r.run_label.clone())
            .filter(|l| !l.is_empty())
    }

    /// Every part's manifest (`run_parts`); a run written before ClickHouse kept parts has its
    /// `runs` row's manifest, and rows written before ClickHouse kept manifests have none.
    pub fn manifests(&self) -> Result<Vec<RunManifest>, AnalysisError> {
        let parse = |run_id: &str, json: &str| {
            serde_json::from_str(json).map_err(|source| AnalysisError::Manifest {
                run_id: run_id.to_owned(),
                source,
            })
        };
        let mut out = Vec::new();
        for r in self.rows.values() {
            match self.parts.get(&r.run_id) {
                Some(parts) => {
                    for json in parts {
                        out.push(parse(&r.run_id, json)?);
                    }
                }
                None if !r.run_manifest.is_empty() => out.push(parse(&r.run_id, &r.run_manifest)?),
                None => {}
            }
        }
        Ok(out)
    }

    /// The run started last among those with records or a `runs` row (dry runs included, as
    /// the embedded store's latest manifest), ties by run id.
    pub async fn latest(&self, c: &Client) -> Result<Option<String>, AnalysisError> {
        let with_records: Vec<RunFirstRow> =
            all(sql::query(c, sql::LATEST_RUN), "latest_run").await?;
        let mut starts: BTreeMap<&str, u64> = with_records
            .iter()
            .map(|r| {
                (
                    r.run_id.as_str(),
                    self.start_ms(&r.run_id, r.first_record_ms),
                )
            })
            .collect();
        for r in self.rows.values() {
            starts.entry(r.run_id.as_str()).or_insert(r.start_ms);
        }
        Ok(starts
            .into_iter()
            .filter(|(id, _)| !id.is_empty())
            .max_by(|a, b| (a.1, a.0).cmp(&(b.1, b.0)))
            .map(|(id, _)| id.to_owned()))
    }
}
