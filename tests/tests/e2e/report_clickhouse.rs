//! `mcpcensus report --clickhouse` gives the same JSON as `report --from` over the same
//! crawls: the embedded store is loaded into ClickHouse (`mcpcensus load`, which writes each
//! run's manifest into `runs`), and both reports (the latest run alone, and compared with
//! another) are compared as JSON values, and the HTML and Markdown pages as text, with the
//! methods from ClickHouse alone. Needs the test server (`MCPCENSUS_TEST_CLICKHOUSE`, set by
//! scripts/test.sh); without it the tests print a SKIPPED line and return.

use std::process::ExitCode;

use mcpcensus_store::clickhouse::{connect, Target};

use crate::report::{crawl_two_runs, TwoRuns};
use crate::report_compare::{self as compare, assert_three_runs, three_runs, CENSUS, NIGHTLY};
use crate::util::{mcpcensus, test_server_url, unique_db, WebCrawl};

/// `mcpcensus report <source...> [extra...] --format FORMAT` as written.
async fn report_file(
    crawl: &WebCrawl,
    name: &str,
    source: &[&str],
    extra: &[&str],
    format: &str,
) -> String {
    let path = crawl.path(name);
    let mut argv = vec!["report"];
    argv.extend_from_slice(source);
    argv.extend_from_slice(extra);
    argv.extend_from_slice(&["--format", format, "-o", &path]);
    let code = mcpcensus(&argv).await.unwrap();
    assert_eq!(code, ExitCode::SUCCESS, "{argv:?}");
    std::fs::read_to_string(&path).unwrap()
}

/// `mcpcensus report <source...> [extra...] --format json` as a JSON value.
async fn report_json(
    crawl: &WebCrawl,
    name: &str,
    source: &[&str],
    extra: &[&str],
) -> serde_json::Value {
    let text = report_file(crawl, name, source, extra, "json").await;
    serde_json::from_str(&text).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clickhouse_report_equals_the_embedded_report_for_a_run_and_a_comparison() {
    let Some(url) = test_server_url() else { return };
    let runs = crawl_two_runs().await;
    // A third, deep crawl: the deep probe's fields are counted by both back ends too.
    runs.crawl_again(&["--probe", "deep"]).await;
    let TwoRuns {
        web,
        crawl,
        out,
        first,
        ..
    } = runs;
    let db = unique_db("report");
    let code = mcpcensus(&["load", &out, "--clickhouse", &url, "--database", &db])
        .await
        .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let embedded: &[&str] = &["--from", &out];
    // No --from: the methods come from the manifests `load` wrote into ClickHouse.
    let clickhouse: &[&str] = &["--clickhouse", &url, "--database", &db];

    let from_store = report_json(&crawl, "store.json", embedded, &[]).await;
    let from_ch = report_json(&crawl, "ch.json", clickhouse, &[]).await;
    assert_eq!(from_ch, from_store, "the latest run");
    // The comparison says something, so equal reports are not equal by being empty.
    assert_eq!(from_store["run"]["sites_read"], 4);
    assert_eq!(from_store["history"].as_array().unwrap().len(), 3);
    assert_eq!(from_store["run"]["transports"]["streamable_http"], 1);

    let compare: &[&str] = &["--compare", &first];
    let from_store = report_json(&crawl, "store-cmp.json", embedded, compare).await;
    let from_ch = report_json(&crawl, "ch-cmp.json", clickhouse, compare).await;
    assert_eq!(from_ch, from_store, "the comparison");
    let c = &from_store["comparison"];
    assert_eq!(c["vanished_endpoints"][0], web.origin("b.test"));
    assert_eq!(c["changed_tool_lists"][0], web.origin("a.test"));

    let single: &[&str] = &["--run", &first];
    let from_store = report_json(&crawl, "store-first.json", embedded, single).await;
    let from_ch = report_json(&crawl, "ch-first.json", clickhouse, single).await;
    assert_eq!(from_ch, from_store, "the first run");
    assert_eq!(from_store["run"]["endpoints"], 2);
    assert_eq!(from_store["run"]["tool_counts"]["servers"], 2);

    // The page and the Markdown too.
    for format in ["html", "markdown"] {
        let from_store = report_file(&crawl, "store.page", embedded, &[], format).await;
        let from_ch = report_file(&crawl, "ch.page", clickhouse, &[], format).await;
        assert_eq!(from_ch, from_store, "the {format} page");
        assert!(from_store.contains("Settings that change verdicts"));
    }

    // The methods name the version and the input's checksum, from ClickHouse alone.
    let methods = &from_store["methods"]["runs"];
    assert_eq!(methods.as_array().unwrap().len(), 3);
    assert!(methods[0]["mcpcensus_version"]
        .as_str()
        .is_some_and(|v| v.starts_with("mcpcensus ")));
    assert_eq!(methods[0]["inputs"][0]["path"], crawl.path("list.txt"));
    assert!(methods[0]["inputs"][0]["xxh3_64"].is_string());

    // Runs loaded before ClickHouse kept manifests: the methods say so, --from fills them in.
    let sql = format!("TRUNCATE TABLE {db}.runs");
    let conn = connect(&Target::new(&url, &db)).await.unwrap();
    conn.server.query(&sql).execute().await.unwrap();
    let mut bare = report_json(&crawl, "ch-bare.json", clickhouse, &[]).await;
    assert_eq!(bare["methods"]["runs"][0]["manifest"], false);
    let with_from = [clickhouse, &["--from", &out]].concat();
    let filled = report_json(&crawl, "ch-from.json", &with_from, &[]).await;
    let mut from_store = report_json(&crawl, "store.json", embedded, &[]).await;
    assert_eq!(filled, from_store, "methods from --from");
    bare["methods"].take();
    from_store["methods"].take();
    assert_eq!(bare, from_store, "without manifests");

    let sql = format!("DROP DATABASE IF EXISTS {db}");
    conn.server.query(&sql).execute().await.unwrap();
}

/// The three runs of report_compare.rs (labels, a subset re-scan, survey then deep, a site
/// robots.txt closes, run ids whose text order is not their time order) from ClickHouse alone
/// give the embedded store's JSON, page and Markdown, and pass the same checks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clickhouse_report_of_labelled_subset_and_deep_runs_equals_the_embedded_one() {
    let Some(url) = test_server_url() else { return };
    let runs = three_runs().await;
    let db = unique_db("compare");
    let load = ["load", &runs.out, "--clickhouse", &url, "--database", &db];
    assert_eq!(mcpcensus(&load).await.unwrap(), ExitCode::SUCCESS);
    let embedded: &[&str] = &["--from", &runs.out];
    let clickhouse: &[&str] = &["--clickhouse", &url, "--database", &db];
    let subset: &[&str] = &["--run", NIGHTLY, "--compare", CENSUS];
    let alone: &[&str] = &["--run", NIGHTLY];
    let mut reports = Vec::new();
    for extra in [&[][..], subset, alone] {
        let from_store = compare::report_json(&runs.crawl, embedded, extra).await;
        let from_ch = compare::report_json(&runs.crawl, clickhouse, extra).await;
        assert_eq!(from_ch, from_store, "{extra:?}");
        reports.push(from_ch);
    }
    assert_three_runs(&runs, &reports[0], &reports[1], &reports[2]);
    for format in ["html", "markdown", "text"] {
        let from_store = report_file(&runs.crawl, "store.page", embedded, &[], format).await;
        let from_ch = report_file(&runs.crawl, "ch.page", clickhouse, &[], format).await;
        assert_eq!(from_ch, from_store, "the {format} report");
    }
    let conn = connect(&Target::new(&url, &db)).await.unwrap();
    let sql = format!("DROP DATABASE IF EXISTS {db}");
    conn.server.query(&sql).execute().await.unwrap();
}

/// The rank slot the queries get from Rust (`{rank_slot}`), run by the server, gives the slot
/// of `rank_slot` on every bucket bound, past the last, at 0 and for no rank (NULL).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clickhouse_rank_slot_expression_matches_the_rust_bucket_function() {
    use mcpcensus_analysis::clickhouse::shared::fill;
    use mcpcensus_analysis::{rank_slot, RANK_BUCKETS};
    let Some(url) = test_server_url() else { return };
    let mut ranks = vec![None, Some(0), Some(1), Some(u64::MAX)];
    for (_, top) in RANK_BUCKETS {
        ranks.extend([Some(top - 1), Some(top), Some(top + 1)]);
    }
    let values: Vec<String> = ranks
        .iter()
        .map(|r| r.map_or("NULL".to_owned(), |r| format!("toNullable(toUInt64({r}))")))
        .collect();
    let sql = fill(&format!(
        "SELECT rank, {{rank_slot}} AS slot FROM (SELECT arrayJoin([{}]) AS rank)",
        values.join(", ")
    ));
    let conn = connect(&Target::new(&url, "default")).await.unwrap();
    let rows: Vec<(Option<u64>, u8)> = conn.server.query(&sql).fetch_all().await.unwrap();
    assert_eq!(rows.len(), ranks.len(), "{sql}");
    for (rank, slot) in rows {
        assert_eq!(usize::from(slot), rank_slot(rank), "rank {rank:?}: {sql}");
    }
}
