//! Methods: how the data was taken, from the run manifests, what was asked of each site and
//! never done, and how the outcomes map to the measurement's.

use super::{Cell, Layout, Section, Table};
use crate::methods::VERDICT_SETTINGS;
use crate::model::{RankSource, Report, RunMethods};

/// What every run asks of a site, and what it never does, each under a short name (the key of
/// the CSV's `methods.csv`).
pub const REQUESTED: [(&str, &str); 3] = [
    (
        "asked of each site",
        "The survey asks each site for its home page and the public MCP discovery documents \
         (/.well-known/mcp/server-card.json, the legacy card paths, /.well-known/ai- \
         catalog.json), sends one plain GET to /mcp, and, when it finds an endpoint on the \
         site, opens one MCP session of at most three POST requests (initialize, \
         notifications/initialized, tools/list) within 12 s.",
    ),
    (
        "deep probe",
        "At probe level deep, the deep probe then sends at most 9 more requests to the \
         endpoint (server/discover or initialize, a GET for the older HTTP+SSE stream, \
         tools/list pages, and the OAuth protected-resource and authorization-server metadata \
         when the server asks for authentication).",
    ),
    (
        "never done",
        "Never done: no tool was called (no tools/call, prompts/get or resources/read), no \
         credential, cookie or Origin header was sent, no redirect was followed, and only \
         addresses that passed the address guard were connected to.",
    ),
];

fn or_dash(v: &Option<String>) -> Cell {
    Cell::text(v.clone().unwrap_or_else(|| "-".into()))
}

fn not_recorded(v: &Option<String>) -> Cell {
    Cell::text(v.clone().unwrap_or_else(|| "not recorded".into()))
}

fn runs(list: &[RunMethods]) -> Table {
    let mut t = Table::new(
        "methods-runs",
        "Runs",
        &[
            "Run",
            "Started",
            "Ended",
            "Status",
            "mcpcensus version",
            "Build",
            "Public suffix list",
            "Input lines read",
            "Ranks from",
        ],
    );
    t.rows = list
        .iter()
        .map(|m| {
            vec![
                Cell::text(&m.run_id),
                or_dash(&m.started_at),
                or_dash(&m.ended_at),
                Cell::text(match (&m.status, m.manifest) {
                    (Some(s), _) if !m.shards_missing.is_empty() => {
                        format!("{s}; no manifest of shard {}", m.shards_missing.join(", "))
                    }
                    (Some(s), _) => s.clone(),
                    (None, true) => "-".into(),
                    (None, false) => "no manifest".into(),
                }),
                not_recorded(&m.mcpcensus_version),
                not_recorded(&m.build),
                not_recorded(&m.public_suffix_list),
                m.lines_read.map_or(Cell::text("-"), Cell::Count),
                Cell::text(m.ranks.as_ref().map_or("-".into(), ranks_from)),
            ]
        })
        .collect();
    t
}

/// Where a run's ranks came from, in words: the lists, or a re-scan's two sources.
fn ranks_from(r: &RankSource) -> String {
    let lists = if r.lists.is_empty() {
        "no list".to_owned()
    } else {
        r.lists.join(", ")
    };
    match (r.sites_ranked_by_lists, r.sites_keeping_last_rank) {
        (Some(listed), Some(kept)) => format!(
            "re-scan: today's lists ({lists}) for {listed} sites; their last record for \
             {kept} sites no list names"
        ),
        _ => format!("the input lists ({lists})"),
    }
}

fn settings(list: &[RunMethods]) -> Table {
    let mut columns = vec!["Setting"];
    columns.extend(list.iter().map(|m| m.run_id.as_str()));
    let mut t = Table::new(
        "methods-settings",
        "Settings that change verdicts",
        &columns,
    )
    .note("As each run's effective configuration held them.");
    t.rows = VERDICT_SETTINGS
        .iter()
        .map(|(name, _)| {
            let mut row = vec![Cell::text(*name)];
            row.extend(list.iter().map(|m| {
                let value = m.settings.iter().find(|s| s.name == *name);
                Cell::text(
                    value
                        .and_then(|s| s.value.clone())
                        .unwrap_or_else(|| "not recorded".into()),
                )
            }));
            row
        })
        .collect();
    t
}

fn inputs(list: &[RunMethods], layout: Layout) -> Option<Table> {
    if layout == Layout::Page && list.iter().all(|m| m.inputs.is_empty()) {
        return None;
    }
    let mut t = Table::new(
        "methods-inputs",
        "Input files",
        &["Run", "File", "Bytes", "XXH3-64", "Lines", "Read by shards"],
    )
    .note("A file several shards of a run read is listed once, its lines counted once.");
    for m in list {
        for i in &m.inputs {
            t.rows.push(vec![
                Cell::text(&m.run_id),
                Cell::text(&i.path),
                i.bytes.map_or(Cell::text("-"), Cell::Count),
                or_dash(&i.xxh3_64),
                i.lines.map_or(Cell::text("-"), Cell::Count),
                Cell::text(if i.read_by.is_empty() {
                    "-".to_owned()
                } else {
                    i.read_by.join(", ")
                }),
            ]);
        }
    }
    Some(t)
}

/// The parts of runs written by shard processes: each shard's status, times and counts.
fn shards(list: &[RunMethods], layout: Layout) -> Option<Table> {
    if layout == Layout::Page && list.iter().all(|m| m.shards.is_empty()) {
        return None;
    }
    let mut t = Table::new(
        "methods-shards",
        "Shards",
        &[
            "Run",
            "Shard",
            "Status",
            "Started",
            "Ended",
            "Input lines read",
            "Records written",
        ],
    )
    .note(
        "Each `crawl --shard K/N` process's part of a run, from its manifest; the run's lines \
         above count each input line once.",
    );
    for m in list {
        for s in &m.shards {
            t.rows.push(vec![
                Cell::text(&m.run_id),
                Cell::text(&s.shard),
                Cell::text(&s.status),
                Cell::text(&s.started_at),
                or_dash(&s.ended_at),
                s.lines_read.map_or(Cell::text("-"), Cell::Count),
                s.records_written.map_or(Cell::text("-"), Cell::Count),
            ]);
        }
    }
    Some(t)
}

pub fn section(report: &Report, layout: Layout) -> Section {
    let m = &report.methods;
    let mut text: Vec<String> = REQUESTED.iter().map(|(_, s)| (*s).to_owned()).collect();
    if m.runs.iter().any(|r| !r.manifest) {
        text.push(
            "Runs marked \"no manifest\" were reported without their run manifests (runs \
             loaded into ClickHouse before it kept them; `report --from` names a store that has \
             them): their settings are not known here."
                .into(),
        );
    }
    let mut tables = vec![runs(&m.runs), settings(&m.runs)];
    match inputs(&m.runs, layout) {
        Some(t) => tables.push(t),
        None => text.push("The run manifests record no input file sizes or checksums.".into()),
    }
    tables.extend(shards(&m.runs, layout));
    let mut outcomes = Table::new(
        "methods-outcomes",
        "Outcomes and what they stand for",
        &["Outcome", "Measured as"],
    );
    outcomes.rows = m
        .outcome_mapping
        .iter()
        .map(|o| vec![Cell::text(&o.outcome), Cell::text(&o.measured_as)])
        .collect();
    tables.push(outcomes);
    Section {
        id: "methods",
        title: "Methods",
        text,
        tables,
    }
}
