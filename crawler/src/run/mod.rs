//! The run: the pipeline from domain lists to stored records, with progress and shutdown.

mod admission;
mod cpu;
mod crawl;
mod display;
mod expand;
mod intake;
mod local;
mod progress;
mod queue;
mod resume;
mod room;
mod seat;
mod second_look;
mod sink;
mod site;
mod status;
mod summary;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_admission;
#[cfg(test)]
mod tests_emfile;
#[cfg(test)]
mod tests_fair;
#[cfg(test)]
mod tests_faults;
#[cfg(test)]
mod tests_resume;
#[cfg(test)]
mod tests_room;
#[cfg(test)]
mod tests_second_look;
#[cfg(test)]
mod tests_status;
mod writer;

pub use admission::AdmissionSettings;
pub use crawl::{crawl, CrawlJob, Shutdown};
pub use expand::Expansion;
// The scan's job types, re-exported: the pipeline is generic over the scanner.
pub use crate::scan::{ScanFuture, Scanner, Seat, SiteJob, Work};
pub use progress::{Counters, ProgressMode};
pub use resume::DoneSet;
pub use sink::{MemorySink, RecordSink, TeeSink};
pub use summary::{AdmissionUsed, Ending, SecondLooksMade, Summary};
pub use writer::{WriterEnd, WrittenCounts};
