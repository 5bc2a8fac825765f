//! One site to scan, what a scanner promises for it, and the record a planned line gets
//! without the network (invalid input, excluded): the crawl's intake and `check` share this.

use std::future::Future;
use std::pin::Pin;

use mcpcensus_store::Record;

use crate::input::{Planned, Target};
use crate::net::{Exchange, LocalResource};
use crate::probe::Resolved;
use crate::verdict::Verdict;

/// A site to scan and where it came from.
#[derive(Debug, Clone)]
pub struct SiteJob {
    pub target: Target,
    pub input: String,
    pub input_line: u64,
    /// A registry name (`registry:NAME` input): `target` is empty until the name is looked up.
    pub registry: Option<String>,
    /// The name's entry as the registry gave it (looked up at intake, or listed by
    /// `registry:*`): the scan then makes no lookup of its own. Boxed: held jobs stay small.
    pub listed: Option<Box<Resolved>>,
    /// The crawl's second look at the site (a registry entry then shares the second probe of
    /// its URL, not the first's).
    pub second_look: bool,
}

impl SiteJob {
    /// A record for this site with identity fields filled in.
    pub fn record(&self, run_id: &str, verdict: Verdict) -> Record {
        let mut r = verdict.into_record(run_id, &self.input, self.input_line);
        if self.registry.is_none() {
            r.origin = Some(self.target.origin.clone());
            r.host = Some(self.target.host.clone());
            r.registrable_domain = Some(self.target.registrable_domain.clone());
            r.rank = self.target.rank;
        }
        r
    }

    /// The job of a registry name, its target unknown until looked up.
    pub fn registry(name: &str, input: &str, input_line: u64) -> SiteJob {
        SiteJob {
            target: Target {
                origin: String::new(),
                host: String::new(),
                port: 0,
                registrable_domain: String::new(),
                rank: None,
            },
            input: input.to_owned(),
            input_line,
            registry: Some(name.to_owned()),
            listed: None,
            second_look: false,
        }
    }

    /// The job of a registry name whose entry is already known.
    pub fn listed(name: &str, resolved: Resolved, input: &str, input_line: u64) -> SiteJob {
        SiteJob {
            listed: Some(Box::new(resolved)),
            ..SiteJob::registry(name, input, input_line)
        }
    }
}

/// One unit of work for the pipeline.
#[derive(Debug)]
pub enum Work {
    /// A site to scan.
    Scan(SiteJob),
    /// A record decided at intake (invalid input, excluded).
    Done(Box<Record>),
}

impl Work {
    /// The work for a planned line; `None` for a line with nothing to measure (blank,
    /// comment, duplicate).
    pub fn from_planned(
        planned: Planned,
        input: &str,
        input_line: u64,
        run_id: &str,
    ) -> Option<Self> {
        let job = |target| SiteJob {
            target,
            input: input.to_owned(),
            input_line,
            registry: None,
            listed: None,
            second_look: false,
        };
        Some(match planned {
            Planned::Skip => return None,
            Planned::Scan(target) => Work::Scan(job(target)),
            Planned::Registry { name } => Work::Scan(SiteJob::registry(&name, input, input_line)),
            Planned::RegistryAll => {
                let reason =
                    "registry:* lists every server of a registry: crawl with --registry URL";
                let invalid = Planned::Invalid {
                    reason: reason.into(),
                };
                return Self::from_planned(invalid, input, input_line, run_id);
            }
            Planned::Excluded { target, listed } => {
                let reason = crate::input::excluded_reason(&listed);
                let record = job(target).record(run_id, Verdict::excluded(reason));
                Work::Done(Box::new(record))
            }
            Planned::Invalid { reason } => Work::Done(Box::new(
                Verdict::invalid_input(reason).into_record(run_id, input, input_line),
            )),
        })
    }
}

/// How one scan ended: the site was recorded, or held before any request.
#[derive(Debug)]
pub enum Scanned {
    /// The site's record, and what the run needs beside it.
    Recorded(Recorded),
    /// The seat would not let the site wait its turn on this address: nothing was requested
    /// and nothing is recorded; the crawl scans the site again later.
    Held(std::net::IpAddr),
}

/// A scan's record and, apart from it, the typed flag the net layer set when this machine ran
/// out of a resource during the scan (the run retries such a site and never reads a record's
/// text to decide), and the transcript when one was asked for.
#[derive(Debug)]
pub struct Recorded {
    pub record: Record,
    pub local: Option<LocalResource>,
    /// Every request and answer in full, in order (empty unless `ScanOptions::transcript`).
    pub transcript: Vec<Exchange>,
    /// The verdict's failure may pass (no answer, a wait that ran out, a 429 or 5xx, the site
    /// deadline): the crawl may look at the site again later in the run.
    pub transient: bool,
}

impl From<Record> for Recorded {
    fn from(record: Record) -> Recorded {
        Recorded {
            record,
            local: None,
            transcript: Vec::new(),
            transient: false,
        }
    }
}

impl From<Record> for Scanned {
    fn from(record: Record) -> Scanned {
        Scanned::Recorded(record.into())
    }
}

impl From<Recorded> for Scanned {
    fn from(recorded: Recorded) -> Scanned {
        Scanned::Recorded(recorded)
    }
}

pub type ScanFuture<'a> = Pin<Box<dyn Future<Output = Scanned> + Send + 'a>>;

/// The crawl's hold on one site's place among the sites scanned at once (`--concurrency`).
/// A scan steps out of it while it waits its turn on a shared address, so a waiting site does
/// not keep a working one out.
pub trait Seat: Send + Sync {
    /// Gives the place up to wait for a turn on `ip`. False when the crawl will not let the
    /// site wait now (its address already has its share of the waiting room): the scan then
    /// ends before any request as [`Scanned::Held`], keeping its place, and the crawl
    /// scans the site again later.
    fn leave(&self, ip: std::net::IpAddr) -> bool;
    /// Takes a place again, before new sites get one.
    fn back(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// The site's turn on its address.
pub(super) enum Turn {
    /// Hold the site slot for the scan (`None` only if the slots were closed, which never
    /// happens).
    Taken(Option<tokio::sync::OwnedSemaphorePermit>),
    /// The seat would not let the site wait (its address has its share of the waiting
    /// room): the scan ends, and the crawl scans it again later.
    Held,
}

/// Scans one site and always returns its record: every failure is an outcome, never an
/// error, so one bad site cannot stop a run.
pub trait Scanner: Send + Sync + 'static {
    /// Scans `job` holding `seat`, a place among the sites scanned at once, which the scan may
    /// step out of while it waits in the crawler's own queues (one method, so a wrapper cannot
    /// forget to hand the place on).
    fn scan<'a>(
        &'a self,
        job: &'a SiteJob,
        run_id: &'a str,
        seat: std::sync::Arc<dyn Seat>,
    ) -> ScanFuture<'a>;

    /// DNS lookups that stalled in the resolver and were asked again on a fresh one (the
    /// run's summary shows them; none where nothing is resolved).
    fn dns_stalls(&self) -> u64 {
        0
    }

    /// Where the crawl's intake reads registry names and the whole list (`--registry`); none
    /// for a scanner without a registry.
    fn registry_source(&self) -> Option<super::RegistrySource> {
        None
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::input::{Exclusions, Planner, RawLine, Shard};
    use mcpcensus_store::Outcome;

    fn work(line: &str) -> Option<Work> {
        let exclusions = Arc::new(Exclusions::from_domains(["blocked.test".to_owned()]));
        let mut planner = Planner::new(Shard::ALL, exclusions);
        let planned = planner.plan(RawLine::Text(line));
        Work::from_planned(planned, line.trim(), 7, "run-1")
    }

    #[test]
    fn planned_lines_become_the_same_work_for_every_caller() {
        let Some(Work::Scan(job)) = work("example.test") else {
            panic!("a usable host is scanned")
        };
        assert_eq!((job.input.as_str(), job.input_line), ("example.test", 7));
        assert_eq!(job.target.host, "example.test");

        let Some(Work::Done(excluded)) = work("www.blocked.test") else {
            panic!("an opted-out host is decided at intake")
        };
        assert_eq!(excluded.outcome, Outcome::Excluded);
        assert_eq!(excluded.host.as_deref(), Some("www.blocked.test"));
        assert_eq!(
            (excluded.run_id.as_str(), excluded.input_line),
            ("run-1", 7)
        );

        let Some(Work::Done(invalid)) = work("not a host") else {
            panic!("an unusable line is recorded, not dropped")
        };
        assert_eq!(invalid.outcome, Outcome::InvalidInput);
        assert_eq!(invalid.host, None);

        assert!(work("# a comment").is_none());
    }
}
