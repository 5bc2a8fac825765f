//! The registry section: the entries the official MCP registry lists, by the probers'
//! classes counted by entry and by distinct endpoint URL, the URLs several entries share, and
//! the listed endpoints beside the web's (present when the run has registry entries).

use super::{Cell, Section, Table};
use crate::model::RegistryReport;

/// What each class means, once for every format.
pub const CLASS_MEANINGS: [(&str, &str); 7] = [
    (
        "live",
        "tools/list answered without a credential (streamable HTTP or legacy SSE, any \
         released revision), or an anonymous handshake answered",
    ),
    (
        "auth_gated",
        "401 or 403, whatever the deep probe made of it",
    ),
    (
        "http_not_mcp",
        "answered HTTP, but not MCP: HTML, an unrelated answer, a redirect (sign-in page)",
    ),
    (
        "dead",
        "no answer (DNS, connection, TLS, time), or a 5xx on both looks",
    ),
    (
        "no_verdict",
        "a 429 on the last look, or a 5xx the second look did not confirm",
    ),
    (
        "template",
        "the remote URL holds unexpanded {...} placeholders: never requested",
    ),
    (
        "not_probeable",
        "a stdio server (no remote), or a remote that may not be requested",
    ),
];

/// What each single count and overlap set means.
pub const COUNT_MEANINGS: [(&str, &str); 9] = [
    ("listed", "registry entries with a record (one per name)"),
    ("urls", "distinct endpoint URLs of the classed entries"),
    ("shared_urls", "endpoint URLs named by more than one entry"),
    ("templates", "entries whose remote is a template"),
    (
        "initialized_400",
        "entries whose server answered notifications/initialized with 400",
    ),
    (
        "signin_redirect",
        "entries in http_not_mcp whose endpoint answered a redirect",
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

fn meaning(table: &'static [(&'static str, &'static str)], key: &str) -> &'static str {
    table.iter().find(|(k, _)| *k == key).map_or("", |(_, m)| m)
}

pub fn section(r: &RegistryReport) -> Section {
    let mut classes = Table::new(
        "registry_classes",
        "Registry entries and endpoint URLs by state",
        &["State", "Entries", "URLs", "Meaning"],
    )
    .note(
        "Entries the registry lists, classified as the independent probers do; a URL has the \
         best state any entry naming it got; entries not measured for reasons of the run \
         (not started, lookup failed) have no state",
    )
    .bars(1, "");
    for ((key, entries), (_, urls)) in r.by_entry.rows().into_iter().zip(r.by_url.rows()) {
        classes.rows.push(vec![
            Cell::text(key),
            Cell::Count(entries),
            Cell::Count(urls),
            Cell::text(meaning(&CLASS_MEANINGS, key)),
        ]);
    }
    let mut counts = Table::new(
        "registry_counts",
        "Registry entries and URLs",
        &["Count", "Value", "Meaning"],
    );
    for (key, n) in r.totals() {
        counts.rows.push(vec![
            Cell::text(key),
            Cell::Count(n),
            Cell::text(meaning(&COUNT_MEANINGS, key)),
        ]);
    }
    let mut fan_outs = Table::new(
        "registry_fan_outs",
        "Endpoint URLs named by the most entries",
        &["URL", "Entries"],
    )
    .note("Shared URLs only, most entries first; each was probed once")
    .bars(1, "");
    for f in &r.fan_outs {
        fan_outs
            .rows
            .push(vec![Cell::text(&f.url), Cell::Count(f.entries)]);
    }
    let mut overlap = Table::new(
        "registry_overlap",
        "Registry endpoints beside the web's",
        &["Set", "Endpoints", "Meaning", "Origins (first)"],
    )
    .note("Endpoints compared with scheme and host lowercase, no default port, no trailing slash")
    .bars(1, "");
    for ((key, n), (_, origins)) in r.overlap().into_iter().zip(r.origin_lists()) {
        overlap.rows.push(vec![
            Cell::text(key),
            Cell::Count(n),
            Cell::text(meaning(&COUNT_MEANINGS, key)),
            Cell::text(origins.join(" ")),
        ]);
    }
    Section {
        id: "registry",
        title: "The MCP registry beside the web",
        text: vec![format!(
            "{} entries of the official MCP registry were measured in this run, naming {} \
             distinct endpoint URLs ({} shared by several entries).",
            r.listed, r.urls, r.shared_urls
        )],
        tables: vec![classes, counts, fan_outs, overlap],
    }
}
