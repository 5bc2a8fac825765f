//! Intake's registry work: a `registry:NAME` line looked up, and a `registry:*` line expanded
//! into every name the registry lists, page by page as the queue drains (a page at a time in
//! memory), each name planned like a line of its own (shard, duplicates) and skipped when a
//! resumed run already has its record. A listing that fails part-way is the run's failure,
//! never a short list passed off as the registry.

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use tokio::sync::mpsc;

use super::resume::DoneSet;
use crate::input::{Planned, Planner, REGISTRY_PREFIX};
use crate::probe::Listed;
use crate::scan::{RegistrySource, SiteJob, Work};
use crate::verdict::Verdict;

/// What the `registry:*` lines of a run read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Expansion {
    /// Pages of the listing read.
    pub pages: u64,
    /// Names listed at their latest version (each then planned as a name).
    pub names: u64,
    /// Entries skipped as older versions of a listed name.
    pub older_versions: u64,
    /// Why a listing stopped before its last page (the run then fails: resume finishes it).
    pub failure: Option<String>,
}

/// Where intake sends what it planned.
pub(super) struct Outlet<'a> {
    pub tx: &'a mpsc::Sender<Work>,
    pub done: &'a mut DoneSet,
    pub run_id: &'a str,
    pub stop: &'a AtomicBool,
    pub already_recorded: &'a mut u64,
}

/// Why expansion stopped sending: the pipeline is gone.
pub(super) struct Closed;

impl Outlet<'_> {
    /// Queues the registry name `name` (input `registry:NAME` on `input_line`), looked up
    /// by `source` unless the listing gave its entry; false once the pipeline has stopped.
    pub fn send_name(
        &mut self,
        source: &RegistrySource,
        name: &str,
        listed: Option<Listed>,
        input_line: u64,
    ) -> Result<(), Closed> {
        let input = format!("{REGISTRY_PREFIX}{name}");
        if self.done.take(input_line, &input) {
            *self.already_recorded += 1;
            return Ok(());
        }
        let resolved = match listed {
            Some(listed) => listed.resolved,
            None => source.lookup(name),
        };
        let work = match resolved {
            Ok(resolved) => Work::Scan(SiteJob::listed(name, resolved, &input, input_line)),
            Err(e) => {
                let job = SiteJob::registry(name, &input, input_line);
                let reason = format!("registry lookup failed: {e}");
                let verdict = Verdict::not_measured(e.failure_kind(), reason);
                Work::Done(Box::new(job.record(self.run_id, verdict)))
            }
        };
        self.tx.blocking_send(work).map_err(|_| Closed)
    }
}

/// Expands one `registry:*` line on `input_line` into `out`, adding to `counts`.
pub(super) fn expand(
    source: &RegistrySource,
    planner: &mut Planner,
    input_line: u64,
    out: &mut Outlet<'_>,
    counts: &mut Expansion,
) -> Result<(), Closed> {
    let mut listing = source.listing();
    loop {
        if out.stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let page = match source.next_page(&mut listing) {
            Ok(Some(page)) => page,
            Ok(None) => return Ok(()),
            Err(e) => {
                tracing::error!(error = %e, "the registry listing stopped part-way");
                counts.failure.get_or_insert_with(|| e.to_string());
                return Ok(());
            }
        };
        counts.pages += 1;
        counts.older_versions += page.older_versions;
        for listed in page.listed {
            if out.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            counts.names += 1;
            let name = listed.name.clone();
            match planner.plan_listed(&name) {
                Planned::Registry { name } => {
                    out.send_name(source, &name, Some(listed), input_line)?;
                }
                Planned::Invalid { reason } => {
                    let input = format!("{REGISTRY_PREFIX}{name}");
                    if out.done.take(input_line, &input) {
                        *out.already_recorded += 1;
                        continue;
                    }
                    let planned = Planned::Invalid { reason };
                    if let Some(work) = Work::from_planned(planned, &input, input_line, out.run_id)
                    {
                        out.tx.blocking_send(work).map_err(|_| Closed)?;
                    }
                }
                _ => {} // Another shard's name, or one listed already.
            }
        }
    }
}
