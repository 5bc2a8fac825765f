//! The HTML report of a simulated 10,000-site crawl, opened in headless Chromium (Debian's
//! `chromium`, installed by scripts/setup.sh): no console errors, and every chart's bars are
//! laid out with the widths their values call for.

use std::process::Command;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};

use crate::util::{mcpcensus, WebCrawl};

const SITES: u32 = 10_000;

/// Reads back each bar's label, value and rendered width into the page title.
const PROBE: &str =
    "<script>document.title = JSON.stringify([...document.querySelectorAll('rect.bar')]\
    .map(r => ({chart: r.closest('figure').id, label: r.dataset.label, value: +r.dataset.value, \
    width: r.getBBox().width})));</script>";

/// Headless Chromium's common flags: no network of its own, no sandbox (containers).
const CHROMIUM_FLAGS: [&str; 11] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
    "--virtual-time-budget=2000",
];

fn run_chromium(profile: &std::path::Path, args: &[String]) -> std::process::Output {
    Command::new("timeout")
        .arg("60")
        .arg("chromium")
        .args(CHROMIUM_FLAGS)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("chromium (run scripts/setup.sh, which installs Debian's chromium)")
}

/// Opens `page` and returns the DOM after its scripts ran, and Chromium's log.
pub fn chromium(page: &std::path::Path, profile: &std::path::Path) -> (String, String) {
    let args = [
        "--dump-dom".to_owned(),
        format!("file://{}", page.display()),
    ];
    let out = run_chromium(profile, &args);
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Saves a screenshot of `page` at `width` x `height` CSS pixels to `png`.
pub fn screenshot(
    page: &std::path::Path,
    profile: &std::path::Path,
    png: &std::path::Path,
    (width, height): (u32, u32),
) {
    let args = [
        format!("--screenshot={}", png.display()),
        format!("--window-size={width},{height}"),
        "--hide-scrollbars".to_owned(),
        format!("file://{}", page.display()),
    ];
    let out = run_chromium(profile, &args);
    assert!(
        out.status.success() && png.exists(),
        "chromium screenshot failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The page title a probe script wrote, unescaped.
pub fn title_of(dom: &str) -> String {
    let title = dom
        .split_once("<title>")
        .and_then(|(_, t)| t.split_once("</title>"))
        .unwrap()
        .0;
    title
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

pub fn console_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn html_report_of_a_10k_site_crawl_renders_in_chromium() {
    let page = || Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\"");
    let server = McpServer::new();
    let web = SimWeb::builder()
        .max_connections(65_536)
        .start()
        .await
        .unwrap();
    let mut inputs = Vec::new();
    for i in 0..SITES {
        let name = format!("site{i}.census.test");
        let ip = [127, 0, 20 + (i / 250) as u8, (i % 250) as u8 + 1];
        let site = if i % 10 == 0 {
            Site::new(&name)
                .ip(ip)
                .route("/", page())
                .mcp("/mcp", &server)
        } else {
            Site::new(&name)
                .ip(ip)
                .route("/", Reply::html("<html>plain</html>"))
        };
        web.add_site(site).unwrap();
        inputs.push(web.input(&name));
    }
    let crawl = WebCrawl::new();
    // Few sites in flight: the test is about the charts, and thousands of concurrent sessions
    // on a busy 2-core machine (the crawler and the simulated web share it) turn into timeouts.
    let flags = [
        "--concurrency",
        "200",
        "--per-ip-rps",
        "5000",
        "--per-ip-connections",
        "64",
        "--per-host-rps",
        "50",
        "--per-host-burst",
        "50",
        // A busy machine must not turn slow answers into deadline verdicts: the test is
        // about the charts, so every site gets ample time.
        "--site-deadline",
        "120",
    ];
    let (_, _, records) = crawl.run(&web, &inputs, true, &flags).await;
    assert_eq!(records.len(), SITES as usize);
    let passing = records
        .iter()
        .filter(|r| r.outcome == mcpcensus_store::Outcome::Pass)
        .count();
    // The charts are checked against what the crawl recorded: on a machine as busy as CI
    // with other builds, some MCP sites miss the DNS timeout or the session's fixed 12 s limit
    // (their verdicts are the crawl tests' business), so at least half must pass.
    let count =
        |f: &dyn Fn(&mcpcensus_store::Record) -> bool| records.iter().filter(|r| f(r)).count();
    let out_of_scope = count(&|r| r.outcome == mcpcensus_store::Outcome::OutOfScope);
    let one_tool = count(&|r| r.tool_count == Some(1));
    let via_link = count(&|r| {
        r.endpoint.is_some() && r.discovered_via == Some(mcpcensus_store::DiscoveredVia::LinkHeader)
    });
    assert!(
        passing * 2 >= (SITES / 10) as usize,
        "{passing} of {} MCP sites pass",
        SITES / 10
    );

    let html = crawl.path("report.html");
    let store = crawl.path("store");
    mcpcensus(&["report", "--from", &store, "--format", "html", "-o", &html])
        .await
        .unwrap();
    let profile = tempfile::tempdir().unwrap();

    // The report as written: no console message at all.
    let (dom, stderr) = chromium(std::path::Path::new(&html), profile.path());
    assert!(dom.contains("<svg"), "{dom}");
    assert!(console_errors(&stderr).is_empty(), "{stderr}");

    // With a probe appended: the bars as Chromium laid them out.
    let text = std::fs::read_to_string(&html).unwrap();
    let probe = crawl.path("probe.html");
    std::fs::write(&probe, text.replace("</body>", &format!("{PROBE}</body>"))).unwrap();
    let (dom, stderr) = chromium(std::path::Path::new(&probe), profile.path());
    assert!(console_errors(&stderr).is_empty(), "{stderr}");
    let title = title_of(&dom);
    let bars: Vec<serde_json::Value> =
        serde_json::from_str(&title).unwrap_or_else(|e| panic!("{e}: {title}"));
    let bar = |chart: &str, label: &str| {
        bars.iter()
            .find(|b| b["chart"] == chart && b["label"] == label)
            .unwrap_or_else(|| panic!("no bar {chart}/{label} in {bars:?}"))
    };
    assert!(!dom.contains("id=\"trend-adoption\""), "one run: no trend");
    let share = |n: usize| (10_000.0 * n as f64 / f64::from(SITES)).round() / 100.0;
    let pass = bar("outcomes", "pass");
    assert_eq!(pass["value"], share(passing));
    let oos = bar("outcomes", "out_of_scope");
    assert_eq!(oos["value"], share(out_of_scope));
    // Widths follow the values.
    let ratio = oos["width"].as_f64().unwrap() / pass["width"].as_f64().unwrap();
    let expected = out_of_scope as f64 / passing as f64;
    assert!(
        (ratio - expected).abs() < 0.2,
        "width ratio {ratio}, values {expected}"
    );
    assert_eq!(bar("tool-counts", "1")["value"], one_tool as f64);
    assert_eq!(
        bar("discovery-methods", "link_header")["value"],
        via_link as f64
    );
    for b in &bars {
        let (v, w) = (b["value"].as_f64().unwrap(), b["width"].as_f64().unwrap());
        assert_eq!(v > 0.0, w > 0.0, "{b}");
    }
}
