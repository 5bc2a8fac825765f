//! The run: the pipeline from domain lists to stored records, with progress and shutdown.

mod crawl;
mod intake;
mod progress;
mod scanner;
mod sink;
mod summary;
#[cfg(test)]
mod tests;
mod writer;

pub use crawl::{crawl, CrawlJob, Shutdown};
pub use intake::{SiteJob, Work};
pub use progress::{Counters, ProgressMode};
pub use scanner::{ScanFuture, Scanner};
pub use sink::{MemorySink, RecordSink, TeeSink};
pub use summary::{Ending, Summary};
pub use writer::WrittenCounts;
