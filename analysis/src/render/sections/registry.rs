//! The registry section: the servers the official MCP registry lists, by the probers'
//! classes, and their endpoints beside the web's (present when the run has registry servers).

use super::{Cell, Section, Table};
use crate::model::RegistryReport;

/// What each class and overlap count means, once for every format.
pub const MEANINGS: [(&str, &str); 9] = [
    (
        "listed",
        "registry servers with a record (registry:NAME input, one per name)",
    ),
    ("live", "the endpoint answered an anonymous MCP handshake"),
    (
        "auth_gated",
        "401 or 403 (with or without OAuth metadata), or a redirect away (a sign-in wall)",
    ),
    ("http_not_mcp", "the endpoint answered HTTP, but not MCP"),
    (
        "dead",
        "no answer: the host does not resolve, no connection, no TLS, no answer in time",
    ),
    (
        "not_probeable",
        "a stdio server (no remote), or a remote that may not be requested",
    ),
    (
        "web_and_registry",
        "distinct endpoints found on the web by discovery and listed",
    ),
    (
        "web_only",
        "distinct endpoints found on the web, not listed",
    ),
    (
        "registry_only",
        "distinct endpoints listed, not found on the web",
    ),
];

pub fn section(r: &RegistryReport) -> Section {
    let mut classes = Table::new(
        "registry_classes",
        "Registry servers by state",
        &["State", "Servers", "Meaning"],
    )
    .note(
        "Servers the registry lists, classified as the independent probers do; servers not \
         measured for reasons of the run (opted out, not started, lookup failed) have no \
         state",
    )
    .bars(1, "");
    let mut overlap = Table::new(
        "registry_overlap",
        "Registry endpoints beside the web's",
        &["Set", "Endpoints", "Meaning", "Origins (first)"],
    )
    .note("Endpoints compared with scheme and host lowercase, no default port, no trailing slash")
    .bars(1, "");
    let lists = r.origin_lists();
    for ((key, n), (_, meaning)) in r.rows().into_iter().zip(MEANINGS) {
        let row = vec![Cell::text(key), Cell::Count(n), Cell::text(meaning)];
        match lists.iter().find(|(k, _)| *k == key) {
            Some((_, origins)) => {
                let mut row = row;
                row.push(Cell::text(origins.join(" ")));
                overlap.rows.push(row);
            }
            None => classes.rows.push(row),
        }
    }
    Section {
        id: "registry",
        title: "The MCP registry beside the web",
        text: vec![format!(
            "{} servers of the official MCP registry were measured in this run.",
            r.listed
        )],
        tables: vec![classes, overlap],
    }
}
