//! A low open-files limit is this machine's problem, never a site's verdict.

use std::time::Duration;

use mcpcensus_store::RunStatus;

use super::fixture::{assert_one_true_record_per_line, read_store, Web};
use crate::child::{spawn_crawler, wait, ChildOptions};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_files_limit_below_the_concurrency_gives_no_unreachable_sites() {
    let web = Web::start(400, Duration::from_millis(50), 33).await;
    // 1,000 sites in flight need about 1,125 descriptors and the resolver's 256 lookups at
    // once 1,024 more; the child may have 256: both are lowered to fit.
    let child = spawn_crawler(
        &web.crawl_args(&["--concurrency", "1000"]),
        &ChildOptions {
            nofile: Some(256),
            ..ChildOptions::default()
        },
    );
    let (code, stderr) = wait(child, Duration::from_secs(240)).await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("concurrency lowered from 1000"),
        "the crawler should say it lowered the concurrency: {stderr}"
    );
    let (manifest, records) = read_store(&web.store()).unwrap();
    assert_eq!(manifest.status, RunStatus::Complete);
    assert_one_true_record_per_line(&web, &records);
    // What the planner counted is what the run held: it never ran out of descriptors (a
    // scan retried for EMFILE would be counted here).
    let counts = manifest.counts.expect("counts");
    assert_eq!(counts.local_resource_retries, 0, "{stderr}");
}
