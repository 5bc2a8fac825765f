//! The report of three crawls of a simulated web (the third a deep run), opened in headless
//! Chromium as a reader would: every chart is there with the values of the JSON report, the
//! adoption line's points are in time order, tables sort, nothing is logged to the console;
//! screenshots at desktop and phone widths are saved for a look (target/tmp/report-page/).
//! The Markdown report of the same runs is checked against the JSON.

use std::path::Path;

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, Site};
use serde_json::Value;

use crate::report::{crawl_two_runs, TwoRuns};
use crate::report_html::{chromium, console_errors, screenshot, title_of};
use crate::util::mcpcensus;

/// Reads back every chart's marks, then sorts the outcomes table by its record counts (up,
/// then down), into the page title.
const PROBE: &str = "<script>(function () {\
  var out = {figures: [], tables: []};\
  document.querySelectorAll('figure[data-chart]').forEach(function (f) {\
    var svg = f.querySelector('svg');\
    var marks = Array.prototype.map.call(f.querySelectorAll('svg [data-value]'), function (m) {\
      return {label: m.dataset.label || m.dataset.part || null, series: m.dataset.series || null,\
        run: m.dataset.run || null, x: m.dataset.x ? +m.dataset.x : null, value: +m.dataset.value,\
        cx: m.hasAttribute('cx') ? +m.getAttribute('cx') : null, width: m.getBBox().width};\
    });\
    out.figures.push({id: f.id, kind: f.dataset.chart, marks: marks,\
      labelledby: svg.getAttribute('aria-labelledby'), desc: svg.querySelector('desc').textContent});\
  });\
  document.querySelectorAll('table.sortable').forEach(function (t) { out.tables.push(t.dataset.table); });\
  var t = document.querySelector('table[data-table=\"outcomes\"]');\
  var head = t.tHead.rows[0].cells;\
  var col = Array.prototype.findIndex.call(head, function (c) { return c.textContent.indexOf('Records') === 0; });\
  var values = function () { return Array.prototype.map.call(t.tBodies[0].rows, function (r) { return +r.cells[col].dataset.sort; }); };\
  out.sort = {before: values()};\
  head[col].querySelector('button').click();\
  out.sort.up = values(); out.sort.up_aria = head[col].getAttribute('aria-sort');\
  head[col].querySelector('button').click();\
  out.sort.down = values(); out.sort.down_aria = head[col].getAttribute('aria-sort');\
  document.title = JSON.stringify(out);\
})();</script>";

async fn report(out: &str, format: &str, path: &str) -> String {
    mcpcensus(&["report", "--from", out, "--format", format, "-o", path])
        .await
        .unwrap();
    std::fs::read_to_string(path).unwrap()
}

fn figure<'a>(figures: &'a [Value], id: &str) -> &'a Value {
    figures
        .iter()
        .find(|f| f["id"] == id)
        .unwrap_or_else(|| panic!("no chart {id} in {figures:?}"))
}

/// A bar chart's `label -> value`.
fn bar_values(f: &Value) -> Vec<(String, f64)> {
    f["marks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["label"].as_str().unwrap().to_owned(),
                m["value"].as_f64().unwrap(),
            )
        })
        .collect()
}

fn percent(count: &Value, base: &Value) -> f64 {
    let (c, b) = (count.as_f64().unwrap(), base.as_f64().unwrap());
    (10_000.0 * c / b).round() / 100.0
}

/// The rows of the Markdown table under `### title`.
fn md_table(md: &str, title: &str) -> Vec<Vec<String>> {
    let start = md
        .find(&format!("\n### {title}\n"))
        .unwrap_or_else(|| panic!("no table {title} in {md}"));
    md[start..]
        .lines()
        .skip(2)
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| md_text(c.trim()))
                .collect()
        })
        .collect()
}

/// A Markdown cell's text as a reader sees it: backslash escapes and entities undone.
fn md_text(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len());
    let mut chars = cell.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn check_charts(figures: &[Value], json: &Value) {
    let run = &json["run"];
    // Outcomes: one bar per outcome, its share of the records.
    let outcomes = bar_values(figure(figures, "outcomes"));
    let expected: Vec<(String, f64)> = run["outcomes"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, s)| (k.clone(), s["percent"].as_f64().unwrap()))
        .collect();
    assert_eq!(outcomes, expected);
    let headline = bar_values(figure(figures, "measured-outcomes"));
    let expected: Vec<(String, f64)> = MEASURED
        .iter()
        .map(|(shown, key)| {
            let percent = run["measured_outcomes"][key]["percent"].as_f64().unwrap();
            ((*shown).to_owned(), percent)
        })
        .collect();
    assert_eq!(headline, expected);
    let methods = bar_values(figure(figures, "discovery-methods"));
    let expected: Vec<(String, f64)> = run["endpoints_by_method"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_f64().unwrap()))
        .collect();
    assert_eq!(methods, expected);
    let buckets = bar_values(figure(figures, "tool-counts"));
    for (bucket, value) in &buckets {
        assert_eq!(run["tool_counts"]["buckets"][bucket].as_f64(), Some(*value));
    }
    let names = bar_values(figure(figures, "tool-names"));
    assert_eq!(names.len(), run["top_tool_names"].as_array().unwrap().len());
    for (i, (name, count)) in names.iter().enumerate() {
        assert_eq!(run["top_tool_names"][i]["name"], name.as_str());
        assert_eq!(run["top_tool_names"][i]["count"].as_f64(), Some(*count));
    }
    // Findings: one bar per rule and severity.
    let findings = bar_values(figure(figures, "findings"));
    let expected: Vec<(String, f64)> = run["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let label = format!(
                "{} {}",
                f["rule_id"].as_str().unwrap(),
                f["severity"].as_str().unwrap()
            );
            (label, f["count"].as_f64().unwrap())
        })
        .collect();
    assert_eq!(findings, expected);
    assert!(run["findings"][0]["title"].is_string(), "{run}");
    // Fields only a deep run fills are charted because this run was one.
    for (id, field) in [
        ("transports", "transports"),
        ("auth-kinds", "auth_kinds"),
        ("spec-versions", "spec_versions"),
        ("migration-status", "migration_status"),
    ] {
        let map = run[field].as_object().unwrap();
        if map.is_empty() {
            assert!(!figures.iter().any(|f| f["id"] == id), "{id} empty");
            continue;
        }
        let values = bar_values(figure(figures, id));
        let expected: Vec<(String, f64)> = map
            .iter()
            .map(|(k, v)| (k.clone(), v.as_f64().unwrap()))
            .collect();
        assert_eq!(values, expected, "{id}");
    }
    assert!(!run["transports"].as_object().unwrap().is_empty(), "{run}");
    // Transitions between the last two runs.
    let transitions = bar_values(figure(figures, "compare-transitions"));
    let t = json["comparison"]["outcome_transitions"]
        .as_array()
        .unwrap();
    assert_eq!(transitions.len(), t.len());
    for ((label, sites), t) in transitions.iter().zip(t) {
        assert_eq!(
            label,
            &format!(
                "{} → {}",
                t["from"].as_str().unwrap(),
                t["to"].as_str().unwrap()
            )
        );
        assert_eq!(t["sites"].as_f64(), Some(*sites));
    }
    for f in figures {
        assert!(!f["desc"].as_str().unwrap().is_empty(), "{f}");
        assert!(f["labelledby"].as_str().unwrap().contains("-d"), "{f}");
        if f["kind"] == "bars" {
            for m in f["marks"].as_array().unwrap() {
                let (v, w) = (m["value"].as_f64().unwrap(), m["width"].as_f64().unwrap());
                assert_eq!(v > 0.0, w > 0.0, "{m}");
            }
        }
    }
}

fn check_trends(figures: &[Value], json: &Value) {
    let history = json["history"].as_array().unwrap();
    assert_eq!(history.len(), 3);
    let line = figure(figures, "trend-adoption");
    assert_eq!(line["kind"], "line");
    let points: Vec<&Value> = line["marks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["series"] == "endpoints, % of sites scanned")
        .collect();
    assert_eq!(points.len(), 3);
    for (p, h) in points.iter().zip(history) {
        assert_eq!(p["run"], h["run_id"]);
        assert_eq!(p["x"], h["first_scan_ms"]);
        assert_eq!(
            p["value"].as_f64(),
            Some(percent(&h["endpoints"], &h["sites_scanned"]))
        );
    }
    // In time order, left to right.
    for w in points.windows(2) {
        assert!(w[0]["x"].as_u64() < w[1]["x"].as_u64(), "{w:?}");
        assert!(w[0]["cx"].as_f64() < w[1]["cx"].as_f64(), "{w:?}");
    }
    let series: std::collections::BTreeSet<&str> = line["marks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["series"].as_str().unwrap())
        .collect();
    assert_eq!(series.len(), 4, "{series:?}");
    let stacked = figure(figures, "trend-outcomes");
    for m in stacked["marks"].as_array().unwrap() {
        let h = history.iter().find(|h| h["run_id"] == m["run"]).unwrap();
        let count = h["outcomes"].get(m["label"].as_str().unwrap()).cloned();
        let expected = percent(&count.unwrap_or(Value::from(0)), &h["sites_read"]);
        assert_eq!(m["value"].as_f64(), Some(expected), "{m}");
    }
}

/// The headline's rows, in the measurement's order, as `run.measured_outcomes` keys them.
const MEASURED: [(&str, &str); 5] = [
    ("pass", "pass"),
    ("partial", "partial"),
    ("fail", "fail"),
    ("not measured", "not_measured"),
    ("out of scope", "out_of_scope"),
];

fn check_markdown(md: &str, json: &Value) {
    let run = &json["run"];
    // The headline: the sites scanned by the measurement's five outcomes, in their order.
    let rows = md_table(md, "Outcomes of the sites scanned");
    assert_eq!(rows.len(), MEASURED.len(), "{rows:?}");
    for (r, (shown, key)) in rows.iter().zip(MEASURED) {
        let s = &run["measured_outcomes"][key];
        assert_eq!(r[0], shown, "{r:?}");
        assert_eq!(r[1], s["count"].to_string(), "{r:?}");
        let percent: f64 = r[2].trim_end_matches('%').parse().unwrap();
        assert_eq!(Some(percent), s["percent"].as_f64(), "{r:?}");
    }
    // The finer table under it: every record outcome apart.
    let rows = md_table(md, "Every record by outcome");
    assert_eq!(rows.len(), run["outcomes"].as_object().unwrap().len());
    for r in &rows {
        let s = &run["outcomes"][&r[0]];
        assert_eq!(r[2], s["count"].to_string(), "{r:?}");
        let shown: f64 = r[3].trim_end_matches('%').parse().unwrap();
        assert_eq!(Some(shown), s["percent"].as_f64(), "{r:?}");
    }
    let unreachable = rows.iter().find(|r| r[0] == "invalid_input").unwrap();
    assert_eq!(unreachable[1], "not scanned: not a usable host");
    let rows = md_table(md, "Adoption over runs");
    let history = json["history"].as_array().unwrap();
    assert_eq!(rows.len(), history.len());
    for (r, h) in rows.iter().zip(history) {
        assert_eq!(r[0], h["run_id"].as_str().unwrap());
        assert_eq!(r[1], h["first_scan_at"].as_str().unwrap());
        assert_eq!(r[2], h["sites_scanned"].to_string());
        assert_eq!(r[3], h["endpoints"].to_string());
        assert_eq!(r[4], h["passing"].to_string());
    }
    let c = &json["comparison"];
    let new: Vec<String> = md_table(md, "New endpoints")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    let expected: Vec<String> = c["new_endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(new, expected);
    let rows = md_table(md, "Servers by number of tools");
    for r in &rows {
        assert_eq!(r[1], run["tool_counts"]["buckets"][&r[0]].to_string());
    }
    let runs = md_table(md, "Runs");
    for (r, m) in runs.iter().zip(json["methods"]["runs"].as_array().unwrap()) {
        assert_eq!(r[0], m["run_id"].as_str().unwrap());
        assert_eq!(r[1], m["started_at"].as_str().unwrap());
        assert_eq!(r[3], "complete");
    }
    let settings = md_table(md, "Settings that change verdicts");
    let probe = settings.iter().find(|r| r[0] == "probe level").unwrap();
    assert_eq!(&probe[1..], ["survey", "survey", "deep"], "{settings:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_of_three_crawls_reads_in_chromium_and_in_markdown() {
    let runs = crawl_two_runs().await;
    // Third crawl, a deep one: b.test serves again.
    runs.web.remove_site("b.test");
    let page = Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\"");
    runs.web
        .add_site(
            Site::new("b.test")
                .route("/", page)
                .mcp("/mcp", &McpServer::new().tools_named(&["search", "lookup"])),
        )
        .unwrap();
    runs.crawl_again(&["--probe", "deep"]).await;
    let TwoRuns {
        web, crawl, out, ..
    } = runs;

    let json: Value =
        serde_json::from_str(&report(&out, "json", &crawl.path("report.json")).await).unwrap();
    assert_eq!(json["comparison"]["new_endpoints"][0], web.origin("b.test"));
    let html_path = crawl.path("report.html");
    let html = report(&out, "html", &html_path).await;
    assert!(
        !html.contains("http://") && !html.contains("https://fonts"),
        "no network"
    );

    let profile = tempfile::tempdir().unwrap();
    let (dom, stderr) = chromium(Path::new(&html_path), profile.path());
    assert!(dom.contains("<svg"), "{dom}");
    assert!(console_errors(&stderr).is_empty(), "{stderr}");

    let probe = crawl.path("probe.html");
    std::fs::write(&probe, html.replace("</body>", &format!("{PROBE}</body>"))).unwrap();
    let (dom, stderr) = chromium(Path::new(&probe), profile.path());
    assert!(console_errors(&stderr).is_empty(), "{stderr}");
    let title = title_of(&dom);
    let read: Value = serde_json::from_str(&title).unwrap_or_else(|e| panic!("{e}: {title}"));
    let figures = read["figures"].as_array().unwrap();
    check_charts(figures, &json);
    check_trends(figures, &json);
    let sort = &read["sort"];
    let mut up: Vec<f64> = sort["before"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    up.sort_by(f64::total_cmp);
    let down: Vec<f64> = up.iter().rev().copied().collect();
    let read_back = |k: &str| -> Vec<f64> {
        sort[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    assert_eq!(read_back("up"), up, "{sort}");
    assert_eq!(read_back("down"), down, "{sort}");
    assert_eq!(
        (sort["up_aria"].as_str(), sort["down_aria"].as_str()),
        (Some("ascending"), Some("descending"))
    );
    assert_ne!(sort["up"], sort["down"], "the order changed");
    let tables = read["tables"].as_array().unwrap();
    assert!(tables.iter().any(|t| t == "methods-settings"), "{tables:?}");

    // Screenshots to look at: a laptop and a phone.
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-page");
    std::fs::create_dir_all(&shots).unwrap();
    for (name, size) in [("desktop.png", (1280, 5600)), ("phone.png", (390, 10000))] {
        let png = shots.join(name);
        let _ = std::fs::remove_file(&png);
        screenshot(Path::new(&html_path), profile.path(), &png, size);
        assert!(
            std::fs::metadata(&png).unwrap().len() > 10_000,
            "{}",
            png.display()
        );
    }

    let md = report(&out, "markdown", &crawl.path("report.md")).await;
    check_markdown(&md, &json);
}
