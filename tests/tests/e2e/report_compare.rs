//! Numbers that hold across runs, from the embedded store: three crawls of one simulated web
//! named so that run-id text and start time disagree (a census, a nightly re-scan of a subset,
//! the census again with the deep probe). The latest run is the one started last, the default
//! comparison base the run before with the same label, a re-scan of a subset reports nothing
//! vanished for the sites it left alone, a deep run of unchanged servers no changed tool list,
//! a site robots.txt closes is scanned and not measured, and the methods name the build and
//! every input's checksum. report_clickhouse.rs checks ClickHouse gives the same JSON.

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use serde_json::Value;

use crate::util::{mcpcensus, WebCrawl};

/// The census, started first; its id sorts last.
pub const CENSUS: &str = "zz-census";
/// The nightly re-scan of a.test alone, started second; its id sorts first.
pub const NIGHTLY: &str = "aa-nightly";
/// The census list again with the deep probe, started last.
pub const DEEP: &str = "mm-deep";

/// The three crawls' store and where their lists are.
pub struct ThreeRuns {
    pub web: SimWeb,
    pub crawl: WebCrawl,
    /// The store directory.
    pub out: String,
    /// The census list (a.test, b.test, plain.test, closed.test) and the nightly one (a.test).
    pub lists: [String; 2],
}

fn mcp_site(host: &str, tools: &[&str]) -> Site {
    Site::new(host)
        .route(
            "/",
            Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\""),
        )
        .mcp("/mcp", &McpServer::new().tools_named(tools))
}

/// Crawls the census (label census), a re-scan of a.test (label nightly), and the census list
/// with `--probe deep` (label census); no server changes between them.
pub async fn three_runs() -> ThreeRuns {
    let web = SimWeb::builder()
        .site(mcp_site("a.test", &["search", "fetch"]))
        .site(mcp_site("b.test", &["search"]))
        .site(Site::new("plain.test").route("/", Reply::html("<html>no</html>")))
        .site(
            Site::new("closed.test")
                .route("/robots.txt", Reply::text("User-agent: *\nDisallow: /\n")),
        )
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let census = crawl.path("census.txt");
    let hosts = ["a.test", "b.test", "plain.test", "closed.test"];
    std::fs::write(&census, hosts.map(|h| web.input(h)).join("\n") + "\n").unwrap();
    let nightly = crawl.path("nightly.txt");
    std::fs::write(&nightly, web.input("a.test") + "\n").unwrap();
    let ca = crawl.path("ca.pem");
    web.write_ca_pem(&ca).unwrap();
    let out = crawl.path("store");
    let dns = web.dns_addr().to_string();
    let runs = [
        (&census, CENSUS, "census", "survey"),
        (&nightly, NIGHTLY, "nightly", "survey"),
        (&census, DEEP, "census", "deep"),
    ];
    for (list, run_id, label, probe) in runs {
        let argv = [
            "crawl",
            list,
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
            "--run-id",
            run_id,
            "--label",
            label,
            "--probe",
            probe,
        ];
        mcpcensus(&argv).await.unwrap();
    }
    ThreeRuns {
        web,
        crawl,
        out,
        lists: [census, nightly],
    }
}

/// `mcpcensus report <source...> [extra...] --format json` as a JSON value.
pub async fn report_json(crawl: &WebCrawl, source: &[&str], extra: &[&str]) -> Value {
    let path = crawl.path("report.json");
    let argv = [
        &["report"][..],
        source,
        extra,
        &["--format", "json", "-o", &path],
    ]
    .concat();
    assert_eq!(
        mcpcensus(&argv).await.unwrap(),
        std::process::ExitCode::SUCCESS,
        "{argv:?}"
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// What every back end must report for the three runs: the checks of the test below, shared
/// with the ClickHouse test (`latest`: the default report; `subset`: the nightly compared with
/// the census; `alone`: the nightly with its default base).
pub fn assert_three_runs(runs: &ThreeRuns, latest: &Value, subset: &Value, alone: &Value) {
    // The run started last, not the id that sorts last; runs oldest first by start time.
    assert_eq!(latest["run"]["run_id"], DEEP);
    let order: Vec<&str> = latest["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["run_id"].as_str().unwrap())
        .collect();
    assert_eq!(order, [CENSUS, NIGHTLY, DEEP]);

    // robots.txt closes closed.test: scanned, not measured, in the denominator.
    let run = &latest["run"];
    assert_eq!(run["sites_scanned"], 4, "{run}");
    assert_eq!(run["measured_outcomes"]["not_measured"]["count"], 1);
    assert_eq!(run["measured_outcomes"]["not_measured"]["percent"], 25.0);
    assert_eq!(run["measured_outcomes"]["pass"]["count"], 2);
    assert_eq!(run["outcomes"]["not_measured"]["count"], 1);
    assert!(run["outcomes"].get("excluded").is_none(), "{run}");
    let asked = runs.web.requests("closed.test");
    assert!(
        !asked.is_empty() && asked.iter().all(|q| q.path_only() == "/robots.txt"),
        "only robots.txt is asked of closed.test: {:?}",
        asked.iter().map(|q| q.path_only()).collect::<Vec<_>>()
    );

    // The deep run is compared with the census (same label), not the nightly before it; the
    // servers did not change, so no tool list did.
    let c = &latest["comparison"];
    assert_eq!(c["base_run"], CENSUS, "{c}");
    assert_eq!(
        (
            &c["sites_in_both"],
            &c["sites_only_in_base"],
            &c["sites_only_in_run"]
        ),
        (&Value::from(4), &Value::from(0), &Value::from(0)),
        "{c}"
    );
    assert_eq!(c["changed_tool_list_count"], 0, "{c}");
    assert_eq!(c["changed_tool_description_count"], 0, "{c}");
    assert_eq!(c["vanished_endpoint_count"], 0, "{c}");
    assert_eq!(c["new_endpoint_count"], 0, "{c}");

    // The nightly re-scanned a.test alone: b.test was not re-scanned, so it did not vanish.
    let c = &subset["comparison"];
    assert_eq!(c["base_run"], CENSUS, "{c}");
    assert_eq!(c["vanished_endpoint_count"], 0, "{c}");
    assert_eq!(c["endpoints_delta"], 0, "{c}");
    assert_eq!(
        (&c["sites_in_both"], &c["sites_only_in_base"]),
        (&Value::from(1), &Value::from(3)),
        "{c}"
    );
    // No earlier nightly: nothing to compare with by default.
    assert!(alone["comparison"].is_null(), "{}", alone["comparison"]);
    assert_eq!(alone["run"]["run_id"], NIGHTLY);

    // Methods: every run names its version, build, suffix list and its input with checksum.
    let methods = latest["methods"]["runs"].as_array().unwrap();
    assert_eq!(methods.len(), 3);
    for m in methods {
        assert_eq!(m["manifest"], true, "{m}");
        let version = m["mcpcensus_version"].as_str().unwrap_or_default();
        assert!(version.starts_with("mcpcensus "), "{m}");
        assert!(m["build"].as_str().is_some_and(|b| !b.is_empty()), "{m}");
        assert!(m["public_suffix_list"].as_str().is_some(), "{m}");
        let list = if m["run_id"] == NIGHTLY {
            &runs.lists[1]
        } else {
            &runs.lists[0]
        };
        let inputs = m["inputs"].as_array().unwrap();
        assert_eq!(inputs.len(), 1, "{m}");
        assert_eq!(inputs[0]["path"], list.as_str());
        let size = std::fs::metadata(list).unwrap().len();
        assert_eq!(inputs[0]["bytes"], size);
        let sum = inputs[0]["xxh3_64"].as_str().unwrap_or_default();
        assert!(
            sum.len() == 16 && sum.bytes().all(|b| b.is_ascii_hexdigit()),
            "{m}"
        );
        let setting = |name: &str| {
            m["settings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["name"] == name)
                .map(|s| s["value"].clone())
        };
        let probe = if m["run_id"] == DEEP {
            "deep"
        } else {
            "survey"
        };
        assert_eq!(setting("probe level"), Some(Value::from(probe)), "{m}");
        assert_eq!(
            setting("robots policy"),
            Some(Value::from("respect")),
            "{m}"
        );
    }
    // The two census runs read the same list: the same checksum.
    assert_eq!(methods[0]["inputs"][0], methods[2]["inputs"][0]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn comparisons_hold_across_labels_subsets_and_probe_depths() {
    let runs = three_runs().await;
    let store: &[&str] = &["--from", &runs.out];
    let latest = report_json(&runs.crawl, store, &[]).await;
    let subset = report_json(&runs.crawl, store, &["--run", NIGHTLY, "--compare", CENSUS]).await;
    let alone = report_json(&runs.crawl, store, &["--run", NIGHTLY]).await;
    assert_three_runs(&runs, &latest, &subset, &alone);
}
