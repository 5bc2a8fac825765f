//! Breakdowns of the reported run, each a table drawn as a chart. Fields only the deep probe
//! fills (transports, authentication, spec versions, migration, deprecated features) are shown
//! when some site has them. A new per-site count (say, sites measured at another origin than
//! the one listed) is a `RunReport` field and one more `Table::counts` here.

use super::outcomes::{
    measured_outcomes, outcome_table, outcomes, reason_kinds, second_looks, surface_signals,
};
use super::{Cell, Layout, Section, Table};
use crate::model::{Ranked, RunReport, Share, TOOL_COUNT_BUCKETS};

pub fn section(r: &RunReport, layout: Layout) -> Section {
    let every = layout == Layout::Sheets;
    let mut tables = vec![
        measured_outcomes(r),
        outcomes(r),
        reason_kinds(r),
        Table::counts(
            "robots-kept-out",
            "Sites robots.txt kept out, by reason",
            ["Reason kind", "Sites"],
            &r.robots_kept_out,
        )
        .note(
            "Not measured because robots.txt closed the site: robots for its own rules, else \
             the failure RFC 9309 reads as complete disallow (docs/rules.md)."
                .to_owned(),
        ),
        Table::counts(
            "not-now-readings",
            "Sites a \"not now\" answer left not measured",
            ["Reading", "Sites"],
            &r.not_now_readings,
        )
        .note(
            "mcp_get_not_now: /mcp's GET answered a 5xx or 429 (the literal reading says out of \
             scope); robots_server_error: robots.txt answered a 5xx (the literal reading says \
             reason robots). docs/rules.md, \"Not now is not no\"."
                .to_owned(),
        ),
        outcome_table(
            "outcomes-surface",
            "Outcomes over the sites with an API or agent surface",
            format!(
                "{} sites showed an API or agent surface (MCP evidence, or an API catalog, an \
                 OpenAPI document or link, an A2A agent card or OAuth metadata; \
                 docs/rules.md).",
                r.sites_with_surface
            ),
            &r.outcomes_surface,
        ),
        surface_signals(r),
        Table::counts(
            "measured-elsewhere",
            "Sites measured at another origin than their input's",
            ["Moved to", "Sites"],
            &r.measured_elsewhere,
        ),
        documents(r),
    ];
    if every || r.second_look.looked_again > 0 {
        tables.push(second_looks(r));
    }
    tables.push(Table::counts(
        "discovery-methods",
        "Endpoints by discovery method",
        ["Method", "Endpoints"],
        &r.endpoints_by_method,
    ));
    tables.push(Table::counts(
        "discovery-sources",
        "Sites by discovery source",
        ["Source", "Sites"],
        &r.discovery_sources,
    ));
    tables.push(Table::counts(
        "protocol-versions",
        "Protocol versions",
        ["Version", "Sites"],
        &r.protocol_versions,
    ));
    let deep = [
        (
            "spec-versions",
            "Spec versions (deep probe)",
            "Version",
            &r.spec_versions,
        ),
        (
            "transports",
            "Transports (deep probe)",
            "Transport",
            &r.transports,
        ),
        (
            "auth-kinds",
            "Authentication (deep probe)",
            "Kind",
            &r.auth_kinds,
        ),
        (
            "migration-status",
            "Migration status (deep probe)",
            "Status",
            &r.migration_status,
        ),
        (
            "deprecated-features",
            "Deprecated features (deep probe)",
            "Feature",
            &r.deprecated_features,
        ),
    ];
    for (id, title, key, map) in deep {
        if every || !map.is_empty() {
            tables.push(Table::counts(id, title, [key, "Sites"], map));
        }
    }
    tables.push(findings(r));
    if every || !r.grades.is_empty() {
        tables.push(Table::counts(
            "grades",
            "Tool description grades",
            ["Grade", "Tools"],
            &r.grades,
        ));
    }
    tables.extend(tool_counts(r));
    tables.push(ranked(
        "tool-names",
        "Most common tool names",
        ["Tool name", "Servers"],
        &r.top_tool_names,
    ));
    tables.push(tlds(r));
    if every || !r.adoption_by_rank.is_empty() {
        tables.push(ranks(r));
    }
    tables.extend(super::readiness::tables(r, every));
    tables.extend(super::capabilities::tables(r, every));
    tables.extend(platforms(r));
    tables.push(ranked(
        "top-domains",
        "Registrable domains with the most endpoints",
        ["Domain", "Endpoints"],
        &r.top_domains,
    ));
    tables.push(ranked(
        "top-ips",
        "Hosting addresses with the most endpoints",
        ["Address", "Endpoints"],
        &r.top_ips,
    ));
    Section {
        id: "breakdowns",
        title: "Breakdowns",
        text: vec![format!("Run {}.", r.run_id)],
        tables,
    }
}

fn documents(r: &RunReport) -> Table {
    let mut t = Table::new(
        "documents",
        "Discovery documents",
        &["Document", "Usable", "Soft 404"],
    )
    .note(format!(
        "Scanned sites where each document was usable, or answered 200 with an HTML page; {} \
         sites had a usable discovery document.",
        r.sites_with_discovery_document
    ))
    .bars(1, "");
    t.rows = r
        .documents
        .iter()
        .map(|(k, d)| {
            vec![
                Cell::text(k.as_str()),
                Cell::Count(d.parsed),
                Cell::Count(d.soft_404),
            ]
        })
        .collect();
    t
}

fn findings(r: &RunReport) -> Table {
    let mut t = Table::new(
        "findings",
        "Findings by rule",
        &["Rule", "Title", "Severity", "Findings"],
    )
    .bars(3, "")
    .labelled_by(&[0, 2]);
    t.rows = r
        .findings
        .iter()
        .map(|f| {
            vec![
                Cell::text(&f.rule_id),
                Cell::text(f.title.clone().unwrap_or_default()),
                Cell::text(&f.severity),
                Cell::Count(f.count),
            ]
        })
        .collect();
    t
}

fn tool_counts(r: &RunReport) -> [Table; 2] {
    let c = &r.tool_counts;
    let mut hist = Table::new(
        "tool-counts",
        "Servers by number of tools",
        &["Tools", "Servers"],
    )
    .note(format!(
        "{} servers listed tools: min {}, median {}, 90th percentile {}, max {}.",
        c.servers, c.min, c.median, c.p90, c.max
    ))
    .bars(1, "");
    hist.rows = TOOL_COUNT_BUCKETS
        .iter()
        .map(|(b, _, _)| {
            let n = c.buckets.get(*b).copied().unwrap_or(0);
            vec![Cell::text(*b), Cell::Count(n)]
        })
        .collect();
    let mut stats = Table::new(
        "tool-percentiles",
        "Tools per server",
        &["Statistic", "Tools"],
    );
    stats.rows = [
        ("servers", c.servers),
        ("min", c.min),
        ("median", c.median),
        ("90th percentile", c.p90),
        ("max", c.max),
    ]
    .iter()
    .map(|(k, v)| vec![Cell::text(*k), Cell::Count(*v)])
    .collect();
    [hist, stats]
}

fn ranked(id: &str, title: &str, columns: [&str; 2], list: &[Ranked]) -> Table {
    let mut t = Table::new(id, title, &columns).bars(1, "");
    t.rows = list
        .iter()
        .map(|r| vec![Cell::text(&r.name), Cell::Count(r.count)])
        .collect();
    t
}

fn tlds(r: &RunReport) -> Table {
    let mut t = Table::new(
        "tlds",
        "Adoption by top-level domain",
        &[
            "TLD",
            "Sites scanned",
            "Endpoints",
            "Endpoint share",
            "Passing",
        ],
    )
    .note("The top-level domains with the most endpoints.")
    .bars(3, "%");
    t.rows = r
        .adoption_by_tld
        .iter()
        .map(|a| {
            vec![
                Cell::text(&a.tld),
                Cell::Count(a.scanned),
                Cell::Count(a.endpoints),
                Cell::Percent(Share::of(a.endpoints, a.scanned).percent),
                Cell::Count(a.passing),
            ]
        })
        .collect();
    t
}

/// Adoption by the input's rank, in cumulative buckets (sites of a ranked list only).
fn ranks(r: &RunReport) -> Table {
    let mut t = Table::new(
        "adoption-by-rank",
        "Adoption by rank",
        &[
            "Bucket",
            "Sites scanned",
            "With a surface",
            "Endpoints",
            "Endpoint share",
            "Passing",
        ],
    )
    .note(
        "Cumulative buckets of the input's rank, as the Web Almanac reports them (top 1k holds \
         the sites ranked 1 to 1,000; top 10k those ranked 1 to 10,000, ...); CrUX ranks are its \
         buckets. Shown when the input lists had ranks.",
    )
    .bars(4, "%");
    t.rows = r
        .adoption_by_rank
        .iter()
        .map(|b| {
            vec![
                Cell::text(&b.bucket),
                Cell::Count(b.scanned),
                Cell::Count(b.surface),
                Cell::Count(b.endpoints),
                Cell::Percent(Share::of(b.endpoints, b.scanned).percent),
                Cell::Count(b.passing),
            ]
        })
        .collect();
    t
}

fn platforms(r: &RunReport) -> [Table; 2] {
    let mut p = Table::new(
        "platforms",
        "Platforms",
        &["Fingerprint", "Server", "Version", "Sites", "Tools"],
    )
    .note("One server fingerprint (tool list, or name, version and tool names) on many sites.")
    .bars(3, "");
    p.rows = r
        .platforms
        .iter()
        .map(|x| {
            vec![
                Cell::text(&x.fingerprint),
                Cell::text(x.server_name.clone().unwrap_or_else(|| "-".into())),
                Cell::text(x.server_version.clone().unwrap_or_else(|| "-".into())),
                Cell::Count(x.sites),
                Cell::Count(x.tool_count),
            ]
        })
        .collect();
    let a = &r.adoption;
    let mut adoption = Table::new(
        "adoption",
        "Adoption with and without platforms",
        &["Sites", "Every platform site", "Each platform once"],
    );
    adoption.rows = vec![
        vec![
            Cell::text("with an endpoint"),
            Cell::Count(a.endpoints),
            Cell::Count(a.endpoints_platforms_once),
        ],
        vec![
            Cell::text("passing"),
            Cell::Count(a.passing),
            Cell::Count(a.passing_platforms_once),
        ],
    ];
    [p, adoption]
}
