//! A sink that fails stops the run fast, marks it failed, and `--resume` completes it.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mcpcensus::run::{RecordSink, Shutdown};
use mcpcensus_store::{Record, RunStatus, StoreError};

use super::fixture::{assert_one_true_record_per_line, read_store, Web};

/// Passes writes to the real sink until the `fail_at`th, which fails like a full disk.
struct FailAt {
    inner: Box<dyn RecordSink>,
    writes: u64,
    fail_at: u64,
    failed_at: Arc<Mutex<Option<Instant>>>,
}

impl RecordSink for FailAt {
    fn write(&mut self, record: &Record) -> Result<(), StoreError> {
        self.writes += 1;
        if self.writes >= self.fail_at {
            self.failed_at
                .lock()
                .unwrap()
                .get_or_insert_with(Instant::now);
            return Err(StoreError::Io {
                op: "appending to",
                path: "segment".into(),
                source: std::io::Error::from_raw_os_error(28), // ENOSPC
            });
        }
        self.inner.write(record)
    }
    fn flush(&mut self) -> Result<(), StoreError> {
        self.inner.flush()
    }
    fn finish(self: Box<Self>) -> Result<(), StoreError> {
        self.inner.finish()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sink_failing_at_its_20th_write_stops_the_run_and_resume_completes_it() {
    // 300 sites of 2 s each at 20 in flight: 30 s of scanning the failure must cut short.
    let web = Web::start(300, Duration::from_secs(2), 34).await;
    let mut argv = vec!["mcpcensus".to_owned()];
    argv.extend(web.crawl_args(&["--concurrency", "20"]));
    let failed_at = Arc::new(Mutex::new(None));
    let seen = failed_at.clone();
    let layer: mcpcensus::cli::SinkLayer = Box::new(move |inner| {
        Box::new(FailAt {
            inner,
            writes: 0,
            fail_at: 20,
            failed_at: seen,
        })
    });
    let code = mcpcensus::cli::execute_argv_with_sink(argv, Shutdown::default(), layer)
        .await
        .unwrap();
    let ended = Instant::now();
    let failed_at = failed_at.lock().unwrap().expect("the sink failed");
    assert_eq!(
        code,
        std::process::ExitCode::from(mcpcensus::cli::EXIT_FAILED)
    );
    assert!(
        ended - failed_at < Duration::from_secs(10),
        "the run went on for {:?} after the sink failed",
        ended - failed_at
    );
    let (manifest, records) = read_store(&web.store()).unwrap();
    assert_eq!(manifest.status, RunStatus::Failed);
    let reason = manifest.failure.clone().unwrap_or_default();
    assert!(reason.contains("No space left"), "{reason}");
    assert_eq!(records.len(), 19, "the records before the failure are kept");

    let mut resume = vec!["mcpcensus".to_owned()];
    resume.extend(web.crawl_args(&["--concurrency", "100", "--resume"]));
    let code = mcpcensus::cli::execute_argv(resume, Shutdown::default())
        .await
        .unwrap();
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    let (manifest, records) = read_store(&web.store()).unwrap();
    assert_eq!(manifest.status, RunStatus::Complete);
    assert_eq!(manifest.failure, None);
    assert_one_true_record_per_line(&web, &records);
}
