//! Two nights of a 10,000-site web, each crawled by four `crawl --shard K/4` processes sharing
//! one run id, into their own embedded stores and into ClickHouse: the second night has
//! outages (500 everywhere, `/mcp` answering 500), throttles (429 everywhere), moved and
//! vanished endpoints, new servers, changed tool lists, sites the list drops or adds, a new
//! rank order and a hosting platform's fleet. Every number the reports give is checked
//! against the web's own definition (`web.rs` → `truth.rs`), from the four stores read
//! together and from ClickHouse, with the second night crawled from its list and as the
//! nightly re-scan. The second look's extra requests are counted and printed.

mod truth;
mod web;

use std::process::ExitCode;

use mcpcensus_simweb::SimWeb;
use serde_json::Value;

use crate::util::{mcpcensus, test_server_url, unique_db, WebCrawl};
use truth::Mode;

const SHARDS: usize = 4;

/// The web on its first night.
async fn start_web() -> SimWeb {
    let web = SimWeb::builder()
        .sites((0..web::sites()).map(|i| web::site(i, 1)))
        .start()
        .await
        .unwrap();
    web
}

/// The sites that change overnight are replaced by their second night's.
fn next_night(web: &SimWeb) {
    for i in 0..web::sites() {
        if web::serves(i, 1) != web::serves(i, 2) {
            web.add_site(web::site(i, 2)).unwrap();
        }
    }
}

struct Census {
    crawl: WebCrawl,
    clickhouse: Option<(String, String)>,
    ca: String,
    dns: String,
}

impl Census {
    fn new(web: &SimWeb) -> Census {
        let crawl = WebCrawl::new();
        let ca = crawl.path("ca.pem");
        web.write_ca_pem(&ca).unwrap();
        Census {
            clickhouse: test_server_url().map(|url| (url, unique_db("trend"))),
            ca,
            dns: web.dns_addr().to_string(),
            crawl,
        }
    }

    fn store(&self, k: usize) -> String {
        self.crawl.path(&format!("shard{k}"))
    }

    /// One night: the four shard processes at once, as four machines would run them.
    async fn night(&self, run_id: &str, list: &str, extra: &[&str]) {
        let mut handles = Vec::new();
        for k in 0..SHARDS {
            let mut argv: Vec<String> = [
                "crawl",
                list,
                "--quiet",
                "--resolver",
                &self.dns,
                "--ca-file",
                &self.ca,
                "--allow-net",
                "127.0.0.0/8",
                "--run-id",
                run_id,
                "--second-look-delay",
                "1s",
                "--out",
                &self.store(k),
                "--shard",
                &format!("{k}/{SHARDS}"),
            ]
            .map(str::to_owned)
            .to_vec();
            if let Some((url, db)) = &self.clickhouse {
                argv.extend(["--clickhouse", url, "--database", db].map(str::to_owned));
            }
            argv.extend(extra.iter().map(|s| (*s).to_owned()));
            handles.push(tokio::spawn(async move {
                let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
                mcpcensus(&refs).await.unwrap()
            }));
        }
        for h in handles {
            assert_eq!(h.await.unwrap(), ExitCode::SUCCESS, "{run_id}");
        }
    }

    async fn report(&self, name: &str, source: &[&str]) -> Value {
        let path = self.crawl.path(name);
        let mut argv = vec!["report"];
        argv.extend_from_slice(source);
        argv.extend_from_slice(&["--format", "json", "-o", &path]);
        assert_eq!(
            mcpcensus(&argv).await.unwrap(),
            ExitCode::SUCCESS,
            "{argv:?}"
        );
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    }

    /// The report of the latest run: from the four stores read together, and from ClickHouse.
    async fn reports(&self, tag: &str) -> Vec<(&'static str, Value)> {
        let stores: Vec<String> = (0..SHARDS).map(|k| self.store(k)).collect();
        let mut source = Vec::new();
        for s in &stores {
            source.extend(["--from", s.as_str()]);
        }
        let mut out = vec![(
            "stores",
            self.report(&format!("{tag}-stores.json"), &source).await,
        )];
        if let Some((url, db)) = &self.clickhouse {
            let ch = ["--clickhouse", url.as_str(), "--database", db.as_str()];
            out.push((
                "clickhouse",
                self.report(&format!("{tag}-ch.json"), &ch).await,
            ));
        }
        out
    }
}

/// The methods of a run of `lines` input lines written by the four shards, all complete.
fn assert_methods(methods: &Value, run_id: &str, lines: u64, back_end: &str) {
    let run = methods["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["run_id"] == run_id)
        .unwrap_or_else(|| panic!("{back_end}: no methods for {run_id}"));
    assert_eq!(run["lines_read"], lines, "{back_end} {run_id}: {run}");
    assert_eq!(run["status"], "complete", "{back_end} {run_id}");
    let shards = run["shards"].as_array().unwrap();
    let names: Vec<&str> = shards
        .iter()
        .map(|s| s["shard"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["0/4", "1/4", "2/4", "3/4"], "{back_end} {run_id}");
    assert!(run.get("shards_missing").is_none(), "{back_end} {run_id}");
    assert!(!run["inputs"].as_array().unwrap().is_empty(), "{back_end}");
}

/// The second night's requests by what the site was: the cost of each shape, second looks
/// included (a site not measured is looked at twice).
fn print_costs(web: &SimWeb, tag: &str) {
    let mut by_role: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    for i in 0..web::sites() {
        let requests = web.request_count(&web::host(i));
        if requests == 0 {
            continue;
        }
        let slot = by_role.entry(format!("{:?}", web::role(i))).or_default();
        slot.0 += 1;
        slot.1 += requests;
    }
    for (role, (sites, requests)) in by_role {
        eprintln!(
            "trend {tag}: night 2 {role}: {sites} sites, {requests} requests ({:.2} a site)",
            requests as f64 / sites as f64
        );
    }
}

async fn two_nights(mode: Mode) {
    let web = start_web().await;
    let port = web.port();
    let census = Census::new(&web);
    let tag = match mode {
        Mode::Lists => "lists",
        Mode::Rescan => "rescan",
    };
    let (first, second) = (format!("{tag}-night-1"), format!("{tag}-night-2"));
    let lists: Vec<String> = [1, 2]
        .map(|night| {
            let path = census.crawl.path(&format!("list{night}.csv"));
            std::fs::write(&path, web::list(night, port)).unwrap();
            path
        })
        .to_vec();

    census.night(&first, &lists[0], &[]).await;
    let night1 = web.total_requests();
    web.clear_records();
    next_night(&web);
    match mode {
        Mode::Lists => census.night(&second, &lists[1], &[]).await,
        Mode::Rescan => {
            census
                .night(&second, &lists[1], &["--rescan-older-than", "0s"])
                .await
        }
    }
    let night2 = web.total_requests();
    print_costs(&web, tag);

    let base = truth::night(1, mode, port);
    let now = truth::night(2, mode, port);
    let looked_again = now.iter().filter(|s| s.outcome == "not_measured").count();
    eprintln!(
        "trend {tag}: night 1 {} sites {night1} requests ({:.2} a site); night 2 {} sites \
         {night2} requests ({:.2} a site), {looked_again} second looks",
        base.len(),
        night1 as f64 / base.len() as f64,
        now.len(),
        night2 as f64 / now.len() as f64,
    );

    eprintln!(
        "trend {tag}: the web's truth for the second night: {}\ncomparison: {}",
        truth::run_numbers(&now),
        truth::comparison(&base, &now)
    );
    let reports = census.reports(tag).await;
    for (back_end, report) in &reports {
        let run = &report["run"];
        assert_eq!(run["run_id"], second.as_str(), "{back_end}");
        assert_eq!(
            truth::run_numbers_of(run),
            truth::run_numbers(&now),
            "{back_end} {tag}: the second night's numbers"
        );
        assert_eq!(
            truth::comparison_of(&report["comparison"]),
            truth::comparison(&base, &now),
            "{back_end} {tag}: the comparison"
        );
        let history = report["history"].as_array().unwrap();
        assert_eq!(history.len(), 2, "{back_end}");
        for (point, sites) in history.iter().zip([&base, &now]) {
            let want = truth::run_numbers(sites);
            assert_eq!(point["sites_scanned"], want["sites_scanned"], "{back_end}");
            assert_eq!(point["endpoints"], want["endpoints"], "{back_end}");
            assert_eq!(
                point["endpoints_platforms_once"], want["endpoints_platforms_once"],
                "{back_end}"
            );
        }
        assert_methods(&report["methods"], &first, base.len() as u64, back_end);
        // A re-scan's shards each read their target list, whose first line is a header.
        let lines = match mode {
            Mode::Lists => now.len(),
            Mode::Rescan => now.len() + SHARDS,
        };
        assert_methods(&report["methods"], &second, lines as u64, back_end);
        let ranks = &report["methods"]["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["run_id"] == second.as_str())
            .unwrap()["ranks"];
        assert_eq!(
            *ranks,
            truth::rank_source(mode, &lists[1]),
            "{back_end} {tag}: where the second night's ranks came from"
        );
    }
    // The first night's report, asked for by run id, is the first night's truth too.
    let stores: Vec<String> = (0..SHARDS).map(|k| census.store(k)).collect();
    let mut source = vec!["--run", first.as_str()];
    for s in &stores {
        source.extend(["--from", s.as_str()]);
    }
    let first_report = census.report(&format!("{tag}-first.json"), &source).await;
    assert_eq!(
        truth::run_numbers_of(&first_report["run"]),
        truth::run_numbers(&base),
        "{tag}: the first night"
    );
    // Both back ends give the same report, number for number.
    if let [(_, stores), (_, clickhouse)] = &reports[..] {
        assert_eq!(stores, clickhouse, "{tag}: the stores and ClickHouse");
    }
    web.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nights_from_the_lists_match_the_webs_truth() {
    two_nights(Mode::Lists).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nights_with_the_nightly_rescan_match_the_webs_truth() {
    two_nights(Mode::Rescan).await;
}
