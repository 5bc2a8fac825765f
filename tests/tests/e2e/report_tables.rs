//! The report's tables by reason kind and as CSV sheets: a small simulated web with a server
//! whose tool list is over 64 KB (`body_cap`), a 2026-07-28-only server
//! (`newer_revision_only`), a passing server and a site without MCP, crawled twice into one
//! store. The JSON counts the two kinds apart, the text, Markdown and page show them, and
//! `report --format csv -o DIR` writes a sheet per table whose numbers, read back, are the
//! JSON's. With the suite's ClickHouse (`MCPCENSUS_TEST_CLICKHOUSE`), the same from ClickHouse:
//! the same JSON, and the same sheets byte for byte.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use mcpcensus_simweb::mcp::{Fault, McpServer};
use mcpcensus_simweb::shapes::Shape;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use serde_json::Value;

use crate::util::{csv_records, mcpcensus, test_server_url, unique_db, WebCrawl};

/// A tool list this large is over the 64 KB cap and holds no complete answer in it.
const OVERSIZE_BYTES: usize = 80 * 1024;

fn mcp_page() -> Reply {
    Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\"")
}

/// The web, the crawl folder and the store (two runs of the same list).
async fn crawl_twice() -> (SimWeb, WebCrawl, String) {
    let newest = Shape::NewestOnly.build("newest.test", true);
    let oversize = McpServer::new().fault_on("tools/list", Fault::Oversized(OVERSIZE_BYTES));
    let web = SimWeb::builder()
        .site(
            Site::new("a.test")
                .route("/", mcp_page())
                .mcp("/mcp", &McpServer::new().tools_named(&["search", "fetch"])),
        )
        .site(
            Site::new("oversize.test")
                .route("/", mcp_page())
                .mcp("/mcp", &oversize),
        )
        .sites(newest.sites.clone())
        .site(Site::new("plain.test").route("/", Reply::html("<html>no</html>")))
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let list = crawl.path("list.txt");
    let hosts = [
        "a.test",
        "oversize.test",
        newest.input.as_str(),
        "plain.test",
    ];
    // A Tranco-style list: the first three ranked, the last not.
    let ranks = ["1,", "2,", "1500,", ""];
    let lines: Vec<String> = hosts
        .iter()
        .zip(ranks)
        .map(|(h, rank)| format!("{rank}{}", web.input(h)))
        .collect();
    std::fs::write(&list, lines.join("\n")).unwrap();
    let ca = crawl.path("ca.pem");
    web.write_ca_pem(&ca).unwrap();
    let out = crawl.path("store");
    let dns = web.dns_addr().to_string();
    let argv = [
        "crawl",
        &list,
        "--quiet",
        "--out",
        &out,
        "--resolver",
        &dns,
        "--ca-file",
        &ca,
        "--allow-net",
        "127.0.0.0/8",
        "--per-host-rps",
        "20",
        "--per-host-burst",
        "20",
    ];
    assert_eq!(mcpcensus(&argv).await.unwrap(), ExitCode::SUCCESS);
    // Run ids hold the start time to the second: a second apart keeps them distinct.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert_eq!(mcpcensus(&argv).await.unwrap(), ExitCode::SUCCESS);
    (web, crawl, out)
}

/// `mcpcensus report <source> --format FORMAT -o <name>`; the text written (or "" for CSV).
async fn report(crawl: &WebCrawl, source: &[&str], format: &str, name: &str) -> String {
    let path = crawl.path(name);
    let argv = [&["report"], source, &["--format", format, "-o", &path]].concat();
    assert_eq!(
        mcpcensus(&argv).await.unwrap(),
        ExitCode::SUCCESS,
        "{argv:?}"
    );
    if format == "csv" {
        return String::new();
    }
    std::fs::read_to_string(&path).unwrap()
}

/// The rows of a CSV text as a reader sees them (RFC 4180), with the formula guard stripped.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let unguard = |c: String| c.strip_prefix('\'').map(str::to_owned).unwrap_or(c);
    csv_records(text)
        .into_iter()
        .map(|row| row.into_iter().map(unguard).collect())
        .collect()
}

/// Adoption by rank: cumulative buckets over the ranked sites, the unranked one apart.
fn assert_ranks(json: &Value) {
    let buckets: Vec<(&str, u64, u64, u64)> = json["run"]["adoption_by_rank"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["bucket"].as_str().unwrap(),
                b["scanned"].as_u64().unwrap(),
                b["endpoints"].as_u64().unwrap(),
                b["passing"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        buckets,
        [
            ("top 1k", 2, 2, 1),
            ("top 10k", 3, 3, 1),
            ("top 100k", 3, 3, 1),
            ("top 1M", 3, 3, 1),
            ("top 10M", 3, 3, 1),
            ("all ranked", 3, 3, 1),
            ("unranked", 1, 0, 0),
        ]
    );
}

/// Every file of a CSV folder, by name, as its text.
fn folder(dir: &str) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(e.path()).unwrap())
        })
        .collect()
}

fn sheet(files: &BTreeMap<String, String>, name: &str) -> Vec<Vec<String>> {
    csv_rows(
        files
            .get(name)
            .unwrap_or_else(|| panic!("no {name}: {:?}", files.keys())),
    )
}

fn num(cell: &str) -> f64 {
    cell.parse()
        .unwrap_or_else(|_| panic!("not a number: {cell:?}"))
}

/// The folder's numbers are the JSON's: the summary, the headline, the reason kinds, the
/// finer outcomes, the tool counts, the tool names, the findings, the trend and the methods.
fn assert_sheets_match(files: &BTreeMap<String, String>, json: &Value) {
    let run = &json["run"];
    let index = sheet(files, "index.csv");
    let listed: Vec<&str> = index[1..].iter().map(|r| r[0].as_str()).collect();
    let mut written: Vec<&str> = files.keys().map(String::as_str).collect();
    written.retain(|f| *f != "index.csv");
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, written, "the index lists every file written");
    for file in &listed {
        let rows = sheet(files, file);
        assert!(!rows.is_empty(), "{file} has a header");
        assert!(
            rows.iter().all(|r| r.len() == rows[0].len()),
            "{file}: a row with another width"
        );
    }

    let summary: BTreeMap<String, String> = sheet(files, "summary.csv")[1..]
        .iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect();
    for key in [
        "sites_read",
        "sites_scanned",
        "sites_reachable",
        "sites_with_discovery_document",
        "sites_with_surface",
        "defects",
        "sites_body_cap",
        "sites_newer_revision_only",
    ] {
        assert_eq!(num(&summary[key]), run[key].as_f64().unwrap(), "{key}");
    }
    for key in ["endpoints", "passing", "endpoints_platforms_once"] {
        assert_eq!(num(&summary[key]), run["adoption"][key].as_f64().unwrap());
    }
    assert_eq!(summary["run_id"], run["run_id"].as_str().unwrap());
    assert_eq!(
        summary["compared_with"],
        json["comparison"]["base_run"].as_str().unwrap()
    );

    let measured = sheet(files, "measured-outcomes.csv");
    assert_eq!(measured[0], ["Outcome", "Sites", "Share"]);
    assert_eq!(measured.len(), 6);
    for row in &measured[1..] {
        let share = &run["measured_outcomes"][row[0].replace(' ', "_")];
        assert_eq!(num(&row[1]), share["count"].as_f64().unwrap(), "{row:?}");
        assert_eq!(num(&row[2]), share["percent"].as_f64().unwrap(), "{row:?}");
    }
    let outcomes = sheet(files, "outcomes.csv");
    assert_eq!(
        outcomes.len() - 1,
        run["outcomes"].as_object().unwrap().len()
    );
    for row in &outcomes[1..] {
        let share = &run["outcomes"][&row[0]];
        assert_eq!(num(&row[2]), share["count"].as_f64().unwrap(), "{row:?}");
        assert_eq!(num(&row[3]), share["percent"].as_f64().unwrap(), "{row:?}");
    }

    let kinds: Vec<(String, String, f64)> = sheet(files, "outcomes-by-reason-kind.csv")[1..]
        .iter()
        .map(|r| (r[0].clone(), r[1].clone(), num(&r[2])))
        .collect();
    let want: Vec<(String, String, f64)> = run["outcomes_by_reason_kind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["outcome"].as_str().unwrap().to_owned(),
                k["reason_kind"].as_str().unwrap().to_owned(),
                k["sites"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(kinds, want);

    let t = &run["tool_counts"];
    for row in &sheet(files, "tool-counts.csv")[1..] {
        assert_eq!(num(&row[1]), t["buckets"][&row[0]].as_f64().unwrap());
    }
    let stats: BTreeMap<String, f64> = sheet(files, "tool-percentiles.csv")[1..]
        .iter()
        .map(|r| (r[0].clone(), num(&r[1])))
        .collect();
    for (row, key) in [
        ("servers", "servers"),
        ("min", "min"),
        ("median", "median"),
        ("90th percentile", "p90"),
        ("max", "max"),
    ] {
        assert_eq!(stats[row], t[key].as_f64().unwrap(), "{key}");
    }
    let names: Vec<(String, f64)> = sheet(files, "tool-names.csv")[1..]
        .iter()
        .map(|r| (r[0].clone(), num(&r[1])))
        .collect();
    let want: Vec<(String, f64)> = run["top_tool_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_owned(),
                r["count"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(names, want);
    let findings: Vec<(String, String, f64)> = sheet(files, "findings.csv")[1..]
        .iter()
        .map(|r| (r[0].clone(), r[2].clone(), num(&r[3])))
        .collect();
    let want: Vec<(String, String, f64)> = run["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule_id"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
                f["count"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(findings, want);

    let history = json["history"].as_array().unwrap();
    let trend = sheet(files, "trend-adoption.csv");
    assert_eq!(trend.len() - 1, history.len());
    for (row, h) in trend[1..].iter().zip(history) {
        assert_eq!(row[0], h["run_id"].as_str().unwrap());
        assert_eq!(num(&row[2]), h["sites_scanned"].as_f64().unwrap());
        assert_eq!(num(&row[3]), h["endpoints"].as_f64().unwrap());
    }
    let c = &json["comparison"];
    let compare: BTreeMap<String, String> = sheet(files, "compare-summary.csv")[1..]
        .iter()
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect();
    assert_eq!(
        num(&compare["scanned in both runs"]),
        c["sites_in_both"].as_f64().unwrap()
    );
    assert_eq!(
        num(&compare["endpoints, change"]),
        c["endpoints_delta"].as_f64().unwrap()
    );
    let runs = sheet(files, "methods-runs.csv");
    assert_eq!(
        runs.len() - 1,
        json["methods"]["runs"].as_array().unwrap().len()
    );
    let methods = sheet(files, "methods.csv");
    assert_eq!(methods[0], ["Key", "Value"]);
    assert!(methods[3][1].starts_with("Never done"), "{methods:?}");
}

fn assert_reason_kinds(json: &Value) {
    let run = &json["run"];
    assert_eq!(run["sites_scanned"], 4);
    assert_eq!(run["sites_body_cap"], 1, "{run}");
    assert_eq!(run["sites_newer_revision_only"], 1, "{run}");
    let kinds: Vec<(&str, &str, u64)> = run["outcomes_by_reason_kind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["outcome"].as_str().unwrap(),
                k["reason_kind"].as_str().unwrap(),
                k["sites"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("fail", "body_cap", 1),
            ("fail", "newer_revision_only", 1),
            ("out_of_scope", "no_endpoint", 1),
        ]
    );
    // Not a defect: only the over-cap server's answer is one.
    assert_eq!(run["defects"], 1);
}

const HEADLINE: &str = "nswers over 64 KB: 1; servers that speak a newer revision only: 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reason_kinds_are_counted_apart_and_every_table_is_a_csv_sheet() {
    let (web, crawl, out) = crawl_twice().await;
    let store: &[&str] = &["--from", &out];
    let json: Value = serde_json::from_str(&report(&crawl, store, "json", "r.json").await).unwrap();
    assert_reason_kinds(&json);
    assert_ranks(&json);

    let text = report(&crawl, store, "text", "r.txt").await;
    assert!(text.contains(HEADLINE), "{text}");
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["fail", "body_cap", "1"]),
        "{text}"
    );
    let md = report(&crawl, store, "markdown", "r.md").await;
    assert!(md.contains(HEADLINE), "{md}");
    assert!(md.contains("### Outcomes by reason kind"), "{md}");
    assert!(md.contains("| fail | body\\_cap | 1 |"), "{md}");
    assert!(
        md.contains("| fail | newer\\_revision\\_only | 1 |"),
        "{md}"
    );
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["top", "1k", "2", "2", "2", "100%", "1"]),
        "{text}"
    );
    let html = report(&crawl, store, "html", "r.html").await;
    assert!(html.contains(HEADLINE));
    assert!(html.contains("id=\"t-adoption-by-rank\""));
    assert!(html.contains("id=\"t-outcomes-by-reason-kind\""));

    // CSV needs a folder: without -o it stops with a clear error, before reading anything.
    let err = mcpcensus(&["report", "--from", &out, "--format", "csv"])
        .await
        .unwrap_err();
    assert!(format!("{err:#}").contains("-o DIR"), "{err:#}");
    report(&crawl, store, "csv", "sheets").await;
    let files = folder(&crawl.path("sheets"));
    assert_sheets_match(&files, &json);
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clickhouse_gives_the_same_reason_kinds_and_sheets() {
    let Some(url) = test_server_url() else { return };
    let (web, crawl, out) = crawl_twice().await;
    let db = unique_db("tables");
    let code = mcpcensus(&["load", &out, "--clickhouse", &url, "--database", &db])
        .await
        .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let store: &[&str] = &["--from", &out];
    let clickhouse: &[&str] = &["--clickhouse", &url, "--database", &db];
    let from_store: Value =
        serde_json::from_str(&report(&crawl, store, "json", "s.json").await).unwrap();
    let from_ch: Value =
        serde_json::from_str(&report(&crawl, clickhouse, "json", "c.json").await).unwrap();
    assert_eq!(from_ch, from_store);
    assert_reason_kinds(&from_ch);
    assert_ranks(&from_ch);
    report(&crawl, store, "csv", "s-sheets").await;
    report(&crawl, clickhouse, "csv", "c-sheets").await;
    let (s, c) = (
        folder(&crawl.path("s-sheets")),
        folder(&crawl.path("c-sheets")),
    );
    assert_eq!(c, s, "the sheets from ClickHouse");
    assert_sheets_match(&c, &from_ch);
    assert!(Path::new(&crawl.path("c-sheets"))
        .join("summary.csv")
        .exists());
    let conn =
        mcpcensus_store::clickhouse::connect(&mcpcensus_store::clickhouse::Target::new(&url, &db))
            .await
            .unwrap();
    let sql = format!("DROP DATABASE IF EXISTS {db}");
    conn.server.query(&sql).execute().await.unwrap();
    web.shutdown().await;
}
