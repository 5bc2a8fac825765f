use std::convert::Infallible;

use mcpcensus_store::{DiscoveredVia, Finding, Outcome, Record};

use super::*;

fn site(i: usize, outcome: Outcome) -> Record {
    let mut r = Record::new("r1", 0, &format!("s{i}.test"), i as u64, outcome, "");
    r.origin = Some(format!("https://s{i}.test"));
    r.registrable_domain = Some(format!("s{i}.test"));
    r.addresses = vec![format!("192.0.2.{}", i % 3)];
    r
}

fn server(i: usize, tools: &[&str], name: &str) -> Record {
    let mut r = site(i, Outcome::Pass);
    r.endpoint = Some(format!("https://s{i}.test/mcp"));
    r.discovered_via = Some(DiscoveredVia::McpPath);
    r.server_name = Some(name.to_owned());
    r.protocol_version = Some("2025-11-25".into());
    r.tool_names = tools.iter().map(|t| t.to_string()).collect();
    r.tool_count = Some(tools.len() as u32);
    r
}

fn ok(records: Vec<Record>) -> impl Iterator<Item = Result<Record, Infallible>> {
    records.into_iter().map(Ok)
}

fn report(records: Vec<Record>) -> RunReport {
    let settings = ReportSettings {
        top_n: 5,
        platform_min_sites: 3,
    };
    run_report("r1", ok(records), settings).unwrap()
}

#[test]
fn counts_outcomes_sites_and_tool_quantiles() {
    let mut records = vec![
        site(0, Outcome::OutOfScope),
        site(1, Outcome::Unreachable),
        site(2, Outcome::InvalidInput),
        site(3, Outcome::Excluded),
    ];
    let tool_sets: [&[&str]; 5] = [
        &["a"],
        &["a", "b"],
        &["a", "b", "c"],
        &["a", "b", "c", "d", "e", "f", "g"],
        &["x"; 25],
    ];
    for (i, tools) in tool_sets.iter().enumerate() {
        records.push(server(10 + i, tools, &format!("srv{i}")));
    }
    let mut failing = site(20, Outcome::Fail);
    failing.defect = true;
    failing.findings.push(Finding {
        rule_id: "MCP-DISC-001".into(),
        severity: mcpcensus_store::Severity::Info,
        evidence: String::new(),
        url: None,
        tool: None,
    });
    records.push(failing);
    let r = report(records);
    assert_eq!(r.sites_read, 10);
    assert_eq!(r.sites_scanned, 8);
    assert_eq!(r.sites_reachable, 7);
    assert_eq!(r.endpoints, 5);
    assert_eq!(r.defects, 1);
    assert_eq!(
        r.outcomes["pass"],
        Share {
            count: 5,
            percent: 50.0
        }
    );
    assert_eq!(r.outcomes["invalid_input"].percent, 10.0);
    // The headline: the 8 sites scanned by the measurement's five, no answer as not measured.
    let measured: Vec<(&str, u64)> = r
        .measured_outcomes
        .iter()
        .map(|(k, s)| (k.as_str(), s.count))
        .collect();
    assert_eq!(
        measured,
        [
            ("fail", 1),
            ("not_measured", 1),
            ("out_of_scope", 1),
            ("partial", 0),
            ("pass", 5)
        ]
    );
    assert_eq!(r.measured_outcomes["pass"].percent, 62.5);
    let t = &r.tool_counts;
    assert_eq!(
        (t.servers, t.min, t.median, t.p90, t.max),
        (5, 1, 3, 25, 25)
    );
    assert_eq!(t.buckets["1"], 1);
    assert_eq!(t.buckets["2-5"], 2);
    assert_eq!(t.buckets["6-20"], 1);
    assert_eq!(t.buckets[">20"], 1);
    assert_eq!(
        r.top_tool_names[0],
        Ranked {
            name: "x".into(),
            count: 25
        }
    );
    assert_eq!(
        r.top_tool_names[1],
        Ranked {
            name: "a".into(),
            count: 4
        }
    );
    assert_eq!(r.endpoints_by_method["mcp_path"], 5);
    assert_eq!(r.protocol_versions["2025-11-25"], 5);
    assert_eq!(r.findings.len(), 1);
    assert_eq!(r.findings[0].count, 1);
}

#[test]
fn outcomes_are_counted_by_reason_kind_with_the_two_kinds_apart() {
    use mcpcensus_store::FailureKind;
    let kinds = [
        (Outcome::Fail, Some(FailureKind::BodyCap)),
        (Outcome::Fail, Some(FailureKind::BodyCap)),
        (Outcome::Fail, Some(FailureKind::NewerRevisionOnly)),
        (Outcome::Fail, Some(FailureKind::Answer)),
        (Outcome::OutOfScope, Some(FailureKind::NoEndpoint)),
        (Outcome::Unreachable, Some(FailureKind::Dns)),
        // Not scanned, and a verdict without a kind (schema 2): left out.
        (Outcome::InvalidInput, Some(FailureKind::Input)),
        (Outcome::Fail, None),
    ];
    let records = kinds
        .iter()
        .enumerate()
        .map(|(i, (outcome, kind))| {
            let mut r = site(i, *outcome);
            r.reason_kind = *kind;
            r
        })
        .collect();
    let r = report(records);
    assert_eq!(r.sites_body_cap, 2);
    assert_eq!(r.sites_newer_revision_only, 1);
    let rows: Vec<(&str, &str, u64)> = r
        .outcomes_by_reason_kind
        .iter()
        .map(|k| (k.outcome.as_str(), k.reason_kind.as_str(), k.sites))
        .collect();
    assert_eq!(
        rows,
        [
            ("fail", "answer", 1),
            ("fail", "body_cap", 2),
            ("fail", "newer_revision_only", 1),
            ("out_of_scope", "no_endpoint", 1),
            ("unreachable", "dns", 1),
        ]
    );
    let report = Report {
        run: r,
        ..Report::default()
    };
    let headline = "nswers over 64 KB: 2; servers that speak a newer revision only: 1";
    assert!(render::text::render(&report).contains(headline));
    let md = render::markdown::render(&report);
    assert!(md.contains(headline), "{md}");
    assert!(
        md.contains("| fail | newer\\_revision\\_only | 1 |"),
        "{md}"
    );
    assert!(render::html::render(&report).contains(headline));
}

#[test]
fn one_fingerprint_on_many_sites_is_a_platform_counted_once() {
    let mut records: Vec<Record> = (0..6)
        .map(|i| server(i, &["buy", "cart"], "shopify-mcp"))
        .collect();
    records.push(server(50, &["search"], "docs"));
    records.push(server(51, &["search"], "other"));
    let r = report(records);
    assert_eq!(r.platforms.len(), 1);
    assert_eq!(r.platforms[0].sites, 6);
    assert_eq!(r.platforms[0].server_name.as_deref(), Some("shopify-mcp"));
    assert_eq!(r.adoption.endpoints, 8);
    assert_eq!(r.adoption.endpoints_platforms_once, 3);
    assert_eq!(r.adoption.passing_platforms_once, 3);
}

#[test]
fn comparison_finds_new_vanished_changed_and_transitions() {
    let before = vec![
        server(1, &["a"], "s"),
        server(2, &["a"], "s"),
        site(3, Outcome::OutOfScope),
        server(4, &["a"], "s"),
    ];
    let after = vec![
        server(1, &["a", "b"], "s"),
        site(2, Outcome::OutOfScope),
        server(3, &["a"], "s"),
        server(4, &["a"], "s"),
    ];
    let c = compare("r0", ok(before), "r1", ok(after)).unwrap();
    assert_eq!(c.new_endpoints, ["https://s3.test"]);
    assert_eq!(c.vanished_endpoints, ["https://s2.test"]);
    assert_eq!(c.changed_tool_lists, ["https://s1.test"]);
    assert_eq!(c.endpoints_delta, 0);
    let t: Vec<(&str, &str, u64)> = c
        .outcome_transitions
        .iter()
        .map(|t| (t.from.as_str(), t.to.as_str(), t.sites))
        .collect();
    assert_eq!(
        t,
        [("out_of_scope", "pass", 1), ("pass", "out_of_scope", 1)]
    );
}

#[test]
fn a_rescan_of_a_subset_compares_only_the_sites_it_scanned() {
    let before: Vec<Record> = (1..=4).map(|i| server(i, &["a"], "s")).collect();
    let mut after = vec![server(1, &["a"], "s"), site(5, Outcome::OutOfScope)];
    after.push(site(6, Outcome::InvalidInput));
    let c = compare("r0", ok(before), "r1", ok(after)).unwrap();
    assert_eq!(
        (c.sites_in_both, c.sites_only_in_base, c.sites_only_in_run),
        (1, 3, 1)
    );
    assert_eq!((c.vanished_endpoint_count, c.new_endpoint_count), (0, 0));
    assert_eq!((c.endpoints_delta, c.passing_delta), (0, 0));
}

#[test]
fn tool_lists_compare_by_names_and_apart_by_descriptions() {
    let deep = |i: usize, tools: &[&str], fingerprint: &str| {
        let mut r = server(i, tools, "s");
        r.tool_list_fingerprint = Some(fingerprint.to_owned());
        r
    };
    // The survey keeps no descriptions; the deep probe's fingerprint is no tool change.
    let survey = vec![server(1, &["a", "b"], "s"), server(2, &["a"], "s")];
    let probed = vec![deep(1, &["b", "a"], "f1"), deep(2, &["a", "c"], "f2")];
    let c = compare("r0", ok(survey), "r1", ok(probed.clone())).unwrap();
    assert_eq!(c.changed_tool_lists, ["https://s2.test"]);
    assert_eq!(c.changed_tool_description_count, 0);
    // Two deep runs: the same names with another fingerprint is a description change.
    let again = vec![
        deep(1, &["a", "b"], "f1-edited"),
        deep(2, &["a", "c"], "f2"),
    ];
    let c = compare("r1", ok(probed), "r2", ok(again)).unwrap();
    assert_eq!(c.changed_tool_list_count, 0);
    assert_eq!(c.changed_tool_descriptions, ["https://s1.test"]);
}

#[test]
fn the_default_base_is_the_previous_run_with_the_same_label() {
    let point = |id: &str, label: Option<&str>| HistoryPoint {
        run_id: id.into(),
        label: label.map(str::to_owned),
        ..HistoryPoint::default()
    };
    let history = [
        point("census-1", Some("census")),
        point("n-1", Some("nightly")),
        point("plain-1", None),
        point("n-2", Some("nightly")),
        point("census-2", Some("census")),
        point("plain-2", None),
    ];
    assert_eq!(
        previous_run(&history, "census-2").as_deref(),
        Some("census-1")
    );
    assert_eq!(previous_run(&history, "n-2").as_deref(), Some("n-1"));
    assert_eq!(
        previous_run(&history, "plain-2").as_deref(),
        Some("plain-1")
    );
    assert_eq!(previous_run(&history, "n-1"), None);
}

#[test]
fn methods_read_the_manifest_provenance() {
    let mut m = mcpcensus_store::RunManifest::new(
        "r1",
        1_700_000_000_000,
        vec![],
        serde_json::json!({"crawl": {"probe": "deep"}, "net": {"robots": "respect"}}),
        false,
    );
    m.provenance = mcpcensus_store::Provenance {
        mcpcensus_version: "mcpcensus 9.9.9".into(),
        build: "x86_64-unknown-linux-gnu release".into(),
        public_suffix_list: "psl crate 2.1.247".into(),
        inputs: vec![mcpcensus_store::InputChecksum {
            input: "list.txt".into(),
            bytes: Some(12),
            xxh3_64: Some("0123456789abcdef".into()),
            lines: Some(2),
        }],
    };
    let r = run_methods(&m);
    assert_eq!(r.mcpcensus_version.as_deref(), Some("mcpcensus 9.9.9"));
    assert_eq!(r.build.as_deref(), Some("x86_64-unknown-linux-gnu release"));
    assert_eq!(r.public_suffix_list.as_deref(), Some("psl crate 2.1.247"));
    assert_eq!(
        r.inputs,
        [InputFile {
            path: "list.txt".into(),
            bytes: Some(12),
            xxh3_64: Some("0123456789abcdef".into()),
            lines: Some(2),
            read_by: vec![],
        }]
    );
    let setting = |name: &str| {
        r.settings
            .iter()
            .find(|s| s.name == name)
            .unwrap()
            .value
            .clone()
    };
    assert_eq!(setting("probe level").as_deref(), Some("deep"));
    assert_eq!(setting("robots policy").as_deref(), Some("respect"));
    assert_eq!(setting("user agent"), None, "not recorded");
    // A manifest from before provenance: nothing invented.
    let r = run_methods(&mcpcensus_store::RunManifest::new(
        "r0",
        0,
        vec![],
        serde_json::json!({}),
        false,
    ));
    assert_eq!(
        (r.mcpcensus_version, r.build, r.inputs.len()),
        (None, None, 0)
    );
}

#[test]
fn html_is_self_contained_with_one_bar_per_value() {
    let r = report(vec![
        server(1, &["a"], "s<script>"),
        site(2, Outcome::OutOfScope),
    ]);
    let mut report = Report {
        schema_version: REPORT_SCHEMA_VERSION,
        run: r,
        ..Report::default()
    };
    attach_methods(&mut report, &[]);
    let html = render::html::render(&report);
    assert!(html.starts_with("<!doctype html>"));
    assert!(!html.contains("s<script>"), "site text must be escaped");
    assert_eq!(
        html.matches("<script").count(),
        1,
        "only the sorting script"
    );
    assert!(
        !html.contains("http://") || !html.contains("src="),
        "no network"
    );
    // One in the headline (of the sites scanned), one in the finer table (of the records).
    let bars = html
        .matches("<rect class=\"bar\" data-label=\"pass\" data-value=\"50\"")
        .count();
    assert_eq!(bars, 2, "{html}");
    assert!(html.contains("data-label=\"1\" data-value=\"1\""));
    let json: serde_json::Value = serde_json::from_str(&render::json(&report)).unwrap();
    assert_eq!(json["run"]["outcomes"]["pass"]["count"], 1);
}

#[test]
fn history_counts_platforms_once_and_orders_the_line_by_time() {
    let mut records: Vec<Record> = (0..4).map(|i| server(i, &["buy"], "shop")).collect();
    for (i, r) in records.iter_mut().enumerate() {
        r.scanned_at = 5_000 - i as u64;
    }
    records.push(site(9, Outcome::InvalidInput));
    let p = history_point("r1", ok(records), 3).unwrap();
    assert_eq!((p.sites_read, p.sites_scanned, p.endpoints), (5, 4, 4));
    assert_eq!(
        (p.endpoints_platforms_once, p.passing_platforms_once),
        (1, 1)
    );
    assert_eq!(p.first_scan_ms, Some(4_997));
    assert_eq!(p.outcomes["invalid_input"], 1);
    let later = HistoryPoint {
        run_id: "r2".into(),
        first_scan_ms: Some(9_000),
        sites_scanned: 4,
        endpoints: 2,
        ..HistoryPoint::default()
    };
    let report = Report {
        history: vec![p, later],
        ..Report::default()
    };
    assert_eq!(previous_run(&report.history, "r2").as_deref(), Some("r1"));
    let html = render::html::render(&report);
    let xs: Vec<u64> = html
        .split("class=\"point\" data-series=\"endpoints, % of sites scanned\" ")
        .skip(1)
        .map(|p| {
            let x = p.split("data-x=\"").nth(1).unwrap();
            x[..x.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(xs, [4_997, 9_000]);
    assert!(html.contains("data-value=\"50\""), "2 of 4 endpoints");
}

#[test]
fn markdown_has_the_tables_of_the_page() {
    let r = report(vec![
        server(1, &["a|b"], "s"),
        site(2, Outcome::Unreachable),
    ]);
    let mut report = Report {
        run: r,
        ..Report::default()
    };
    attach_methods(&mut report, &[]);
    let md = render::markdown::render(&report);
    assert!(
        md.contains("| unreachable | not measured: no answer | 1 | 50% |"),
        "{md}"
    );
    assert!(md.contains("| a\\|b | 1 |"), "{md}");
    assert!(md.contains("## Methods"));
}

/// Tool names, a server name and a protocol version a hostile server sent: a spreadsheet
/// formula, a tag with a script, terminal escape sequences and a bidi override.
const HOSTILE: [&str; 4] = [
    "=HYPERLINK(\"https://evil.example/\",\"click\")",
    "<img src=x onerror=alert(1)>",
    "title\u{1b}]0;pwned\u{7}\u{1b}[2J",
    "abc\u{202e}gpj.exe|x",
];

/// A report of three servers (a platform) sending [`HOSTILE`] everywhere they can.
fn hostile_report() -> Report {
    let records = (0..3)
        .map(|i| {
            let mut r = server(i, &HOSTILE, HOSTILE[1]);
            r.server_version = Some(HOSTILE[2].into());
            r.protocol_version = Some(HOSTILE[3].into());
            r
        })
        .collect();
    let mut report = Report {
        run: report(records),
        ..Report::default()
    };
    attach_methods(&mut report, &[]);
    report
}

fn assert_no_active_chars(text: &str) {
    let active: Vec<char> = text
        .chars()
        .filter(|c| *c != '\n' && mcpcensus_store::inert::is_active_char(*c))
        .collect();
    assert!(active.is_empty(), "{active:?} in {text}");
}

#[test]
fn text_report_shows_escape_sequences_and_bidi_inert() {
    let text = render::text::render(&hostile_report());
    assert_no_active_chars(&text);
    assert!(
        text.contains("title\\u{1b}]0;pwned\\u{7}\\u{1b}[2J"),
        "{text}"
    );
    assert!(text.contains("abc\\u{202e}gpj.exe|x"), "{text}");
}

#[test]
fn markdown_report_escapes_tags_and_table_syntax() {
    let md = render::markdown::render(&hostile_report());
    assert_no_active_chars(&md);
    assert!(!md.contains("<img"), "{md}");
    assert!(
        md.contains("| &lt;img src=x onerror=alert(1)&gt; | 3 |"),
        "{md}"
    );
    assert!(md.contains("| abc\\\\u{202e}gpj.exe\\|x | 3 |"), "{md}");
    // Every table row has as many cells as its header: no `|` of a server's split a row.
    for block in md.split("\n\n").filter(|b| b.starts_with('|')) {
        let bars = |l: &str| {
            l.replace("\\\\", "")
                .replace("\\|", "")
                .matches('|')
                .count()
        };
        let header = bars(block.lines().next().unwrap_or_default());
        assert!(block.lines().all(|l| bars(l) == header), "{block}");
    }
}

#[test]
fn html_report_escapes_hostile_text() {
    let html = render::html::render(&hostile_report());
    assert_no_active_chars(&html);
    assert!(!html.contains("<img"), "{html}");
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{html}"
    );
    assert!(html.contains("abc\\u{202e}gpj.exe|x"), "{html}");
    assert_eq!(
        html.matches("<script").count(),
        1,
        "only the sorting script"
    );
}

#[test]
fn rank_slots_meet_the_bucket_bounds_and_buckets_are_cumulative() {
    use crate::model::{rank_slot, RankBucket, RunReport, RANK_BUCKETS};
    assert_eq!(rank_slot(Some(1)), 0);
    assert_eq!(rank_slot(Some(1_000)), 0);
    assert_eq!(rank_slot(Some(1_001)), 1);
    assert_eq!(rank_slot(Some(10_000_000)), 4);
    assert_eq!(rank_slot(Some(10_000_001)), 5);
    assert_eq!(rank_slot(None), 6);
    let mut slots: [RankBucket; RANK_BUCKETS.len() + 2] = Default::default();
    let mut rep = RunReport::default();
    slots[6].scanned = 9;
    rep.set_rank_buckets(&slots);
    assert!(rep.adoption_by_rank.is_empty(), "no rank, no buckets");
    slots[0].scanned = 2;
    slots[0].endpoints = 1;
    slots[3].scanned = 5;
    slots[5].scanned = 1;
    rep.set_rank_buckets(&slots);
    let got: Vec<(&str, u64, u64)> = rep
        .adoption_by_rank
        .iter()
        .map(|b| (b.bucket.as_str(), b.scanned, b.endpoints))
        .collect();
    assert_eq!(
        got,
        [
            ("top 1k", 2, 1),
            ("top 10k", 2, 1),
            ("top 100k", 2, 1),
            ("top 1M", 7, 1),
            ("top 10M", 7, 1),
            ("all ranked", 8, 1),
            ("unranked", 9, 0),
        ]
    );
}

#[test]
fn counts_each_surface_signal_and_the_second_looks_by_change() {
    use mcpcensus_store::{FailureKind, FirstLook, SurfaceSignal};
    let look = |first: Outcome, second: Outcome, i: usize| {
        let mut r = site(i, second);
        r.first_look = Some(FirstLook {
            scanned_at: 0,
            outcome: first,
            outcome_reason: "no answer".into(),
            reason_kind: Some(FailureKind::Timeout),
            total_ms: 30_000,
            requests: Vec::new(),
        });
        r
    };
    let mut api = site(1, Outcome::OutOfScope);
    api.surface_signals = vec![SurfaceSignal::ApiCatalog, SurfaceSignal::Openapi];
    api.surface = true;
    let mut mcp = site(2, Outcome::Pass);
    mcp.surface_signals = vec![SurfaceSignal::Mcp, SurfaceSignal::ApiCatalog];
    mcp.surface = true;
    // Not scanned: counted in neither table.
    let mut invalid = site(3, Outcome::InvalidInput);
    invalid.surface_signals = vec![SurfaceSignal::Mcp];
    let records = vec![
        api,
        mcp,
        invalid,
        site(4, Outcome::OutOfScope),
        look(Outcome::Unreachable, Outcome::Pass, 5),
        look(Outcome::Unreachable, Outcome::Unreachable, 6),
        look(Outcome::NotMeasured, Outcome::OutOfScope, 7),
        look(Outcome::Unreachable, Outcome::Pass, 8),
    ];
    let r = report(records);
    assert_eq!(r.sites_scanned, 7);
    let signals: Vec<(&str, u64)> = r
        .surface_signals
        .iter()
        .map(|(k, s)| (k.as_str(), s.count))
        .collect();
    assert_eq!(signals, [("api_catalog", 2), ("mcp", 1), ("openapi", 1)]);
    assert_eq!(
        r.surface_signals["api_catalog"].percent, 28.57,
        "a share of the sites scanned"
    );
    let s = &r.second_look;
    assert_eq!((s.looked_again, s.flipped), (4, 3));
    let changes: Vec<(&str, &str, u64)> = s
        .changes
        .iter()
        .map(|c| (c.first.as_str(), c.second.as_str(), c.sites))
        .collect();
    assert_eq!(
        changes,
        [
            ("not_measured", "out_of_scope", 1),
            ("unreachable", "pass", 2),
            ("unreachable", "unreachable", 1),
        ]
    );
}

#[test]
fn readiness_counts_checks_shares_the_naive_overcount_and_rank_buckets() {
    use mcpcensus_store::{Readiness, ReadinessCheck};
    let with = |i: usize, rank: Option<u32>, llms: Option<bool>, naive: bool| {
        let mut r = site(i, Outcome::OutOfScope);
        r.rank = rank;
        let mut x = Readiness::default();
        x.set(ReadinessCheck::RobotsTxt, Some(true));
        x.set(ReadinessCheck::LlmsTxt, llms);
        x.catch_all = Some(naive);
        if naive {
            x.naive_only = vec!["llmsTxt".into()];
        }
        r.readiness = Some(x);
        r
    };
    let mut plain = site(9, Outcome::OutOfScope);
    plain.rank = Some(5);
    let rep = report(vec![
        with(1, Some(10), Some(true), false),
        with(2, Some(2_000), Some(false), true),
        with(3, None, None, false),
        // Not scanned: not counted.
        {
            let mut r = with(4, Some(1), Some(true), false);
            r.outcome = Outcome::Excluded;
            r
        },
        plain,
    ]);
    let section = rep.readiness.expect("a readiness section");
    assert_eq!((section.sites_checked, section.catch_all), (3, 1));
    let llms = section
        .checks
        .iter()
        .find(|c| c.check == "llmsTxt")
        .unwrap();
    assert_eq!((llms.checked, llms.present.count), (2, 1));
    assert_eq!(llms.present.percent, 50.0);
    assert_eq!((llms.naive, llms.overcount_avoided), (2, 1));
    assert_eq!(section.checks.len(), ReadinessCheck::ALL.len());
    let top_1k: Vec<_> = section
        .by_rank
        .iter()
        .filter(|b| b.bucket == "top 1k" && b.row.check == "llmsTxt")
        .collect();
    assert_eq!(top_1k[0].sites_checked, 1);
    let top_10k = section
        .by_rank
        .iter()
        .find(|b| b.bucket == "top 10k" && b.row.check == "robotsTxt")
        .unwrap();
    assert_eq!((top_10k.sites_checked, top_10k.row.present.count), (2, 2));
    // Without the level, no section (and the report's JSON has no key).
    let off = report(vec![site(1, Outcome::OutOfScope)]);
    assert!(off.readiness.is_none());
    assert!(!serde_json::to_string(&off).unwrap().contains("readiness"));
}
/// A registry server's record: input `registry:NAME`, the remote as its endpoint.
fn listed(name: &str, outcome: Outcome, endpoint: Option<&str>) -> Record {
    let mut r = Record::new("r1", 0, &format!("registry:{name}"), 1, outcome, "");
    r.endpoint = endpoint.map(str::to_owned);
    r
}

#[test]
fn the_registry_section_classifies_listed_servers_and_counts_every_overlap() {
    use mcpcensus_store::{FailureKind, RequestLog, Transport};
    let mut gated = listed("x/gated", Outcome::NotMeasured, Some("https://G.test/mcp"));
    gated.reason_kind = Some(FailureKind::Answer);
    gated.requests = vec![RequestLog {
        status: Some(403),
        ..RequestLog::default()
    }];
    let mut html = listed("x/html", Outcome::Fail, Some("https://html.test:443/mcp"));
    html.reason_kind = Some(FailureKind::Answer);
    let mut dead = listed(
        "x/dead",
        Outcome::Unreachable,
        Some("https://dead.test/mcp"),
    );
    dead.reason_kind = Some(FailureKind::Dns);
    let mut stdio = listed("x/stdio", Outcome::NotMeasured, None);
    stdio.transport = Some(Transport::Stdio);
    stdio.reason_kind = Some(FailureKind::NoEndpoint);
    let mut lookup_failed = listed("x/gone", Outcome::NotMeasured, None);
    lookup_failed.reason_kind = Some(FailureKind::Connect);
    let records = vec![
        // On the web and listed: the same endpoint written two ways.
        server(1, &["a"], "s"),
        listed("x/one", Outcome::Pass, Some("https://S1.test:443/mcp/")),
        // On the web only.
        server(2, &["a"], "s"),
        gated,
        html,
        dead,
        stdio,
        lookup_failed,
        listed("registry:bad name", Outcome::InvalidInput, None),
    ];
    let r = report(records).registry;
    let classes = |c: &crate::RegistryClasses| c.rows();
    assert_eq!(
        classes(&r.by_entry),
        [
            ("live", 1),
            ("auth_gated", 1),
            ("http_not_mcp", 1),
            ("dead", 1),
            ("no_verdict", 0),
            ("template", 0),
            ("not_probeable", 1),
        ]
    );
    // One entry a URL here; the stdio entry names none.
    let mut by_url = r.by_entry.clone();
    by_url.not_probeable = 0;
    assert_eq!(r.by_url, by_url);
    assert_eq!(r.listed, 6);
    assert_eq!((r.urls, r.shared_urls), (4, 0));
    assert_eq!(
        r.overlap(),
        [
            ("web_and_registry", 1),
            ("web_only", 1),
            ("registry_only", 3)
        ]
    );
    assert_eq!(r.web_and_registry_origins, ["https://s1.test"]);
    assert_eq!(r.web_only_origins, ["https://s2.test"]);
    assert_eq!(
        r.registry_only_origins,
        ["https://dead.test", "https://g.test", "https://html.test"]
    );

    // Every format shows the section; a run without registry servers has none.
    let mut full = Report {
        run: report(vec![
            server(1, &["a"], "s"),
            listed("x/one", Outcome::Pass, Some("https://one.test/mcp")),
        ]),
        ..Report::default()
    };
    attach_methods(&mut full, &[]);
    let json = serde_json::to_value(&full).unwrap();
    assert_eq!(json["run"]["registry"]["listed"], 1);
    assert_eq!(json["run"]["registry"]["by_entry"]["live"], 1);
    assert_eq!(json["run"]["registry"]["by_url"]["live"], 1);
    assert!(render::text::render(&full).contains("registry_only"));
    assert!(render::markdown::render(&full).contains("Registry endpoints beside the web"));
    let sheets = render::csv::sheets(&full);
    assert!(sheets.iter().any(|s| s.file == "registry_overlap.csv"));
    let web_only = report(vec![server(1, &["a"], "s")]);
    assert!(serde_json::to_value(&web_only)
        .unwrap()
        .get("registry")
        .is_none());
}

#[test]
fn registry_urls_count_once_with_the_best_class_any_entry_got() {
    use mcpcensus_store::FailureKind;
    let mut records: Vec<Record> = (0..3)
        .map(|i| {
            listed(
                &format!("x/live{i}"),
                Outcome::Pass,
                Some("https://Hub.test/mcp/"),
            )
        })
        .collect();
    // A spelling variant of the same URL, dead on its own look: the URL is live.
    let mut dead = listed(
        "x/dead",
        Outcome::Unreachable,
        Some("https://hub.test:443/mcp"),
    );
    dead.reason_kind = Some(FailureKind::Connect);
    records.push(dead);
    let mut template = listed(
        "x/t",
        Outcome::NotMeasured,
        Some("https://h.test:{PORT}/mcp"),
    );
    template.reason_kind = Some(FailureKind::Template);
    records.push(template.clone());
    template.input = "registry:x/t2".into();
    records.push(template);
    let mut signin = listed("x/s", Outcome::NotMeasured, Some("https://s.test/mcp"));
    signin.reason_kind = Some(FailureKind::Redirect);
    records.push(signin);
    let r = report(records).registry;
    assert_eq!((r.listed, r.urls, r.shared_urls), (7, 3, 2));
    assert_eq!((r.by_entry.live, r.by_entry.dead), (3, 1));
    assert_eq!((r.by_url.live, r.by_url.dead), (1, 0));
    assert_eq!(
        (r.by_entry.template, r.by_url.template, r.templates),
        (2, 1, 2)
    );
    assert_eq!((r.by_entry.http_not_mcp, r.signin_redirect), (1, 1));
    assert_eq!(r.by_url.total(), r.urls);
    assert_eq!(r.fan_outs.len(), 2);
    assert_eq!(
        (r.fan_outs[0].url.as_str(), r.fan_outs[0].entries),
        ("https://hub.test/mcp", 4)
    );
    // Templates are no endpoints the web could share.
    assert_eq!(r.registry_only, 2);
}
