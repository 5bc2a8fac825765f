//! What changed in the tools of the servers two runs both read (docs/report.md,
//! `comparison.tool_changes`): per origin whose tools both runs kept, the tools added and
//! removed (by name), the descriptions rewritten (same name, other text: the "rug pull"
//! signal), and the tools that gained `destructive`, `executes_code` or `moves_money` (a tool
//! kept that now carries one, or a tool added that carries one). Both back ends hand this one
//! function the same per-tool states, so they count alike.

use std::collections::BTreeMap;

use mcpcensus_store::{Record, ToolCapability};
use serde::{Deserialize, Serialize};

/// Changed servers listed (the counts are exact).
pub const LISTED: usize = 20;

/// The tags whose gain is reported.
pub const RISKY: [ToolCapability; 3] = [
    ToolCapability::Destructive,
    ToolCapability::ExecutesCode,
    ToolCapability::MovesMoney,
];

/// One tool as a run read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolState {
    pub description: Option<String>,
    /// Its capability tags' names.
    pub capabilities: Vec<String>,
}

/// One server's tools, by name.
pub type ServerTools = BTreeMap<String, ToolState>;

/// A record's tools as [`ServerTools`]; `None` when it kept none.
pub fn server_tools(r: &Record) -> Option<ServerTools> {
    if r.tools.is_empty() {
        return None;
    }
    let tools = r.tools.iter().map(|t| {
        let state = ToolState {
            description: t.description.clone(),
            capabilities: t
                .capabilities
                .iter()
                .map(|c| c.as_str().to_owned())
                .collect(),
        };
        (t.name.clone(), state)
    });
    Some(tools.collect())
}

/// The tool changes over the servers both runs read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolChanges {
    /// Servers whose tools both runs kept.
    pub servers_compared: u64,
    /// Of those, servers with any change below, and the counts over all of them.
    pub servers_changed: u64,
    pub tools_added: u64,
    pub tools_removed: u64,
    pub descriptions_changed: u64,
    pub tools_gained_risk: u64,
    /// Servers with a tool that gained `destructive`, `executes_code` or `moves_money`.
    pub servers_gained_risk: u64,
    /// The first changed servers by origin (the report's top N).
    pub servers: Vec<ServerToolChanges>,
}

/// One server's changes (names sorted).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerToolChanges {
    pub origin: String,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub descriptions_changed: Vec<String>,
    /// `tool: tag, tag` for each tool that gained a risky tag.
    pub gained: Vec<String>,
}

/// Compares each origin's tools in `base` and `run` (only origins in both count).
pub fn tool_changes(
    base: &BTreeMap<String, ServerTools>,
    run: &BTreeMap<String, ServerTools>,
    top_n: usize,
) -> ToolChanges {
    let mut c = ToolChanges::default();
    for (origin, now) in run {
        let Some(was) = base.get(origin) else {
            continue;
        };
        c.servers_compared += 1;
        let s = server(origin, was, now);
        let changed = !(s.added.is_empty()
            && s.removed.is_empty()
            && s.descriptions_changed.is_empty()
            && s.gained.is_empty());
        if !changed {
            continue;
        }
        c.servers_changed += 1;
        c.tools_added += s.added.len() as u64;
        c.tools_removed += s.removed.len() as u64;
        c.descriptions_changed += s.descriptions_changed.len() as u64;
        c.tools_gained_risk += s.gained.len() as u64;
        c.servers_gained_risk += u64::from(!s.gained.is_empty());
        // `run` is ordered by origin: the first N changed are the list.
        if c.servers.len() < top_n {
            c.servers.push(s);
        }
    }
    c
}

fn server(origin: &str, was: &ServerTools, now: &ServerTools) -> ServerToolChanges {
    let mut s = ServerToolChanges {
        origin: origin.to_owned(),
        added: Vec::new(),
        removed: was
            .keys()
            .filter(|name| !now.contains_key(*name))
            .cloned()
            .collect(),
        descriptions_changed: Vec::new(),
        gained: Vec::new(),
    };
    for (name, tool) in now {
        let before = was.get(name);
        match before {
            None => s.added.push(name.clone()),
            Some(b) if b.description != tool.description => {
                s.descriptions_changed.push(name.clone());
            }
            Some(_) => {}
        }
        let gained: Vec<&str> = RISKY
            .iter()
            .map(|t| t.as_str())
            .filter(|t| tool.capabilities.iter().any(|c| c == t))
            .filter(|t| !before.is_some_and(|b| b.capabilities.iter().any(|c| c == t)))
            .collect();
        if !gained.is_empty() {
            s.gained.push(format!("{name}: {}", gained.join(", ")));
        }
    }
    s
}
