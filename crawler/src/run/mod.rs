//! The run: the pipeline from domain lists to stored records, with progress and shutdown.

mod admission;
mod crawl;
mod intake;
mod local;
mod progress;
mod resume;
mod scanner;
mod sink;
mod site;
mod summary;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_admission;
#[cfg(test)]
mod tests_faults;
mod writer;

pub use admission::AdmissionSettings;
pub use crawl::{crawl, CrawlJob, Shutdown};
pub use intake::{SiteJob, Work};
pub use local::local_cause;
pub use progress::{Counters, ProgressMode};
pub use resume::DoneSet;
pub use scanner::{ScanFuture, Scanner};
pub use sink::{MemorySink, RecordSink, TeeSink};
pub use summary::{AdmissionUsed, Ending, Summary};
pub use writer::{WriterEnd, WrittenCounts};
