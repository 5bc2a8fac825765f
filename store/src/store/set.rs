//! Several embedded stores read as one: a run written by `crawl --shard K/N` processes, each
//! into its own store, is one run here (its records are every store's, its manifests one a
//! shard), so a report of the run from the stores equals the report from ClickHouse.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::manifest::RunManifest;
use super::reader::RunReader;
use super::root::Store;
use crate::error::StoreError;
use crate::record::Record;

/// Stores read together. The same folder given twice is read once.
#[derive(Debug, Clone)]
pub struct StoreSet {
    stores: Vec<Store>,
}

/// One manifest of a run and the store it was found in.
#[derive(Debug, Clone)]
pub struct RunPart {
    pub store: PathBuf,
    pub manifest: RunManifest,
}

impl StoreSet {
    pub fn new(stores: Vec<Store>) -> StoreSet {
        let mut seen = Vec::new();
        let mut kept = Vec::new();
        for store in stores {
            let key = std::fs::canonicalize(store.root()).unwrap_or_else(|_| store.root().into());
            if !seen.contains(&key) {
                seen.push(key);
                kept.push(store);
            }
        }
        StoreSet { stores: kept }
    }

    pub fn one(store: Store) -> StoreSet {
        StoreSet::new(vec![store])
    }

    pub fn stores(&self) -> &[Store] {
        &self.stores
    }

    /// Every manifest of every store, each with its store. Two manifests of one run for the
    /// same shard (or both for every site) are one part given twice: refused, since reading
    /// both would count its sites twice.
    pub fn parts(&self) -> Result<Vec<RunPart>, StoreError> {
        let mut parts: Vec<RunPart> = Vec::new();
        for store in &self.stores {
            for manifest in store.runs()? {
                if let Some(other) = parts.iter().find(|p| {
                    p.manifest.run_id == manifest.run_id && p.manifest.shard() == manifest.shard()
                }) {
                    return Err(StoreError::SamePartTwice {
                        run_id: manifest.run_id.clone(),
                        shard: manifest.shard().unwrap_or("every site").to_owned(),
                        first: other.store.clone(),
                        second: store.root().to_owned(),
                    });
                }
                parts.push(RunPart {
                    store: store.root().to_owned(),
                    manifest,
                });
            }
        }
        Ok(parts)
    }

    /// Every run's manifests (one a part), runs in start order: a run starts when its first
    /// part did (ties by run id).
    pub fn runs(&self) -> Result<Vec<Vec<RunManifest>>, StoreError> {
        let mut by_run: BTreeMap<String, Vec<RunManifest>> = BTreeMap::new();
        for part in self.parts()? {
            by_run
                .entry(part.manifest.run_id.clone())
                .or_default()
                .push(part.manifest);
        }
        let mut runs: Vec<Vec<RunManifest>> = by_run.into_values().collect();
        for parts in &mut runs {
            parts.sort_by(|a, b| a.shard().cmp(&b.shard()));
        }
        runs.sort_by_key(|parts| {
            let start = parts.iter().map(|m| m.started_at).min().unwrap_or(0);
            (start, parts[0].run_id.clone())
        });
        Ok(runs)
    }

    /// The run started last, with its parts.
    pub fn latest_run(&self) -> Result<Option<Vec<RunManifest>>, StoreError> {
        Ok(self.runs()?.pop())
    }

    /// A run's records from every store that holds part of it, store after store.
    pub fn read_run(&self, run_id: &str) -> Result<SetReader, StoreError> {
        let mut readers = Vec::new();
        let mut first_missing = None;
        for store in &self.stores {
            match store.read_run(run_id) {
                Ok(reader) => readers.push(reader),
                Err(e @ StoreError::RunNotFound { .. }) => {
                    first_missing.get_or_insert(e);
                }
                Err(e) => return Err(e),
            }
        }
        match (readers.is_empty(), first_missing) {
            (true, Some(e)) => Err(e),
            _ => Ok(SetReader {
                readers: readers.into_iter(),
                current: None,
            }),
        }
    }

    /// The folders, for messages.
    pub fn roots(&self) -> Vec<&Path> {
        self.stores.iter().map(Store::root).collect()
    }
}

/// A run's records from several stores, one store's after another's.
pub struct SetReader {
    readers: std::vec::IntoIter<RunReader>,
    current: Option<RunReader>,
}

impl Iterator for SetReader {
    type Item = Result<Record, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.current.as_mut().and_then(Iterator::next) {
                return Some(item);
            }
            self.current = Some(self.readers.next()?);
        }
    }
}
