//! The capability mix's tables: servers and tools per tag, every site counted and each
//! platform once; the same by rank bucket; the servers with a toxic flow.

use super::{Cell, Table};
use crate::capabilities::{MixRow, ToolCapabilityReport};
use crate::model::RunReport;

const MIX_COLUMNS: [&str; 9] = [
    "Tag",
    "Servers",
    "Share of servers",
    "Servers (platforms once)",
    "Share (platforms once)",
    "Tools",
    "Share of tools",
    "Tools (platforms once)",
    "Share of tools (platforms once)",
];

fn mix_rows(m: &MixRow, bucket: Option<&str>) -> Vec<Vec<Cell>> {
    let lead = |tag: &str| {
        let mut row: Vec<Cell> = bucket.map(Cell::text).into_iter().collect();
        row.push(Cell::text(tag));
        row
    };
    let mut rows: Vec<Vec<Cell>> = m
        .tags
        .iter()
        .map(|t| {
            let mut row = lead(&t.tag);
            row.extend([
                Cell::Count(t.servers.count),
                Cell::Percent(t.servers.percent),
                Cell::Count(t.servers_platforms_once.count),
                Cell::Percent(t.servers_platforms_once.percent),
                Cell::Count(t.tools.count),
                Cell::Percent(t.tools.percent),
                Cell::Count(t.tools_platforms_once.count),
                Cell::Percent(t.tools_platforms_once.percent),
            ]);
            row
        })
        .collect();
    let mut flow = lead("toxic flow");
    flow.extend([
        Cell::Count(m.toxic_flow.count),
        Cell::Percent(m.toxic_flow.percent),
        Cell::Count(m.toxic_flow_platforms_once.count),
        Cell::Percent(m.toxic_flow_platforms_once.percent),
        Cell::Count(m.tools),
        Cell::Percent(100.0),
        Cell::Count(m.tools_platforms_once),
        Cell::Percent(100.0),
    ]);
    rows.push(flow);
    rows
}

/// The tables (empty ones in the sheets layout when no tool was tagged, so the sheets are the
/// same for every run).
pub fn tables(r: &RunReport, every: bool) -> Vec<Table> {
    let empty = ToolCapabilityReport::default();
    let Some(rep) = r.tool_capabilities.as_ref().or(every.then_some(&empty)) else {
        return Vec::new();
    };
    let versions = rep.capabilities_versions.join(", ");
    let mut mix = Table::new(
        "tool-capabilities",
        "What the open servers' tools can do",
        &MIX_COLUMNS,
    )
    .note(format!(
        "Over the {} scanned servers whose tools the census read and tagged (every list is \
             read without a credential; {} counting each platform once), {} tools ({} counting \
             each platform once); capability table {versions} (docs/rules.md, \"Tool \
             capabilities\"). A server counts under a tag when one of its tools carries it. \
             Toxic flow: a tool that reads untrusted or private data beside one that sends \
             messages, moves money or runs code (MCP-TOOLS-001, reported, never scored); its \
             tool columns are the population's.",
        rep.all.servers,
        rep.all.servers_platforms_once,
        rep.all.tools,
        rep.all.tools_platforms_once
    ))
    .bars(2, "%");
    mix.rows = mix_rows(&rep.all, None);
    let mut tables = vec![mix];
    if every || !rep.by_rank.is_empty() {
        let mut columns = vec!["Bucket"];
        columns.extend(MIX_COLUMNS);
        let mut by_rank = Table::new(
            "tool-capabilities-by-rank",
            "What the open servers' tools can do, by rank",
            &columns,
        )
        .note(
            "The same per cumulative rank bucket (top 1k, 10k, ...; every ranked site; the \
             unranked). A platform counts once, in the bucket of its first site by origin.",
        );
        by_rank.rows = rep
            .by_rank
            .iter()
            .flat_map(|b| mix_rows(&b.mix, Some(&b.bucket)))
            .collect();
        tables.push(by_rank);
    }
    let mut flows = Table::new(
        "toxic-flows",
        "Servers with a toxic flow",
        &["Origin", "The pair of tools"],
    )
    .note(format!(
        "{} servers hold a tool that reads untrusted or private data and one that sends \
         messages, moves money or runs code; the first {} by origin, with the pair each names.",
        rep.all.toxic_flow.count,
        rep.toxic_flow_servers.len()
    ));
    flows.rows = rep
        .toxic_flow_servers
        .iter()
        .map(|f| vec![Cell::text(&f.origin), Cell::text(&f.evidence)])
        .collect();
    tables.push(flows);
    tables
}
