//! Facts derived from a record that both report back ends need: whether the crawler scanned
//! the site, the server's fingerprint, and which discovery documents it served. The embedded
//! report computes them per record; the ClickHouse rows store them as columns (rows.rs) so the
//! SQL report counts exactly the same.

use std::collections::BTreeSet;

use xxhash_rust::xxh3::xxh3_64;

use crate::record::{Outcome, Record};

/// Outcomes of sites the crawler did not scan.
pub fn scanned(outcome: Outcome) -> bool {
    !matches!(
        outcome,
        Outcome::InvalidInput | Outcome::Excluded | Outcome::Planned | Outcome::NotStarted
    )
}

/// The server behind an endpoint: its tool list fingerprint when the probe computed one, else
/// a hash of its name, version and sorted tool names.
pub fn server_fingerprint(r: &Record) -> String {
    if let Some(fp) = &r.tool_list_fingerprint {
        return fp.clone();
    }
    let mut names: Vec<&str> = r.tool_names.iter().map(String::as_str).collect();
    names.sort_unstable();
    let key = format!(
        "{}\u{0}{}\u{0}{}",
        r.server_name.as_deref().unwrap_or(""),
        r.server_version.as_deref().unwrap_or(""),
        names.join("\u{0}")
    );
    format!("{:016x}", xxh3_64(key.as_bytes()))
}

/// The document kinds a site served usable (`parsed`, first) and as a soft 404 (a 200 HTML
/// page, second), each kind once, sorted.
pub fn document_kinds(r: &Record) -> (Vec<String>, Vec<String>) {
    let mut parsed = BTreeSet::new();
    let mut soft = BTreeSet::new();
    for doc in &r.documents {
        if doc.soft_404 {
            soft.insert(doc.kind.as_str());
        } else if doc.parsed {
            parsed.insert(doc.kind.as_str());
        }
    }
    (
        parsed.into_iter().map(str::to_owned).collect(),
        soft.into_iter().map(str::to_owned).collect(),
    )
}
