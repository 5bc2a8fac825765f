//! Facts derived from a record that both report back ends need: whether the crawler scanned
//! the site, the server's fingerprint, and which discovery documents it served. The embedded
//! report computes them per record; the ClickHouse rows store them as columns (rows.rs) so the
//! SQL report counts exactly the same.

use std::collections::BTreeSet;

use xxhash_rust::xxh3::xxh3_64;

use crate::record::{Outcome, Record};

/// Outcomes of sites the crawler did not scan: the one list, which the ClickHouse report
/// queries get written into them (analysis/src/clickhouse/shared.rs).
pub const NOT_SCANNED: [Outcome; 4] = [
    Outcome::InvalidInput,
    Outcome::Excluded,
    Outcome::Planned,
    Outcome::NotStarted,
];

/// Whether the crawler scanned the site (its outcome is none of [`NOT_SCANNED`]).
pub fn scanned(outcome: Outcome) -> bool {
    !NOT_SCANNED.contains(&outcome)
}

/// Where a site measured at another origin than its input's moved, as the reports count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OriginMove {
    /// From `D` to `www.D`.
    Www,
    /// From `www.D` to `D`.
    Apex,
    /// Any other host on the site (a subdomain, or the same host on another path's origin).
    OtherSubdomain,
}

impl OriginMove {
    pub const ALL: [OriginMove; 3] = [
        OriginMove::Www,
        OriginMove::Apex,
        OriginMove::OtherSubdomain,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            OriginMove::Www => "www",
            OriginMove::Apex => "apex",
            OriginMove::OtherSubdomain => "other_subdomain",
        }
    }
}

/// How the site moved, when it was measured at a final origin other than its input's.
pub fn origin_move(r: &Record) -> Option<OriginMove> {
    let from = host_of(r.origin.as_deref()?)?;
    let to = host_of(r.final_origin.as_deref()?)?;
    if r.final_origin == r.origin {
        return None;
    }
    Some(if to.strip_prefix("www.") == Some(from) {
        OriginMove::Www
    } else if from.strip_prefix("www.") == Some(to) {
        OriginMove::Apex
    } else {
        OriginMove::OtherSubdomain
    })
}

/// Which side of the measured site holds the record's endpoint: `scanned` when it is on the
/// scanned origin's site (its host or a subdomain), `final` when only on the final origin's
/// (after the homepage's in-site redirects: `api.D` for an input `www.D` that moved to `D`).
/// `None` without an endpoint. Read from the record's own fields, so older records get it too;
/// the scan placed the endpoint by the same rule (docs/rules.md, "Where the site lives").
pub fn endpoint_site(r: &Record) -> Option<&'static str> {
    let endpoint = host_of(r.endpoint.as_deref()?)?;
    let under = |origin: Option<&str>| {
        origin.and_then(host_of).is_some_and(|site| {
            let site = site.trim_end_matches('.');
            endpoint == site
                || endpoint
                    .strip_suffix(site)
                    .is_some_and(|label| label.len() > 1 && label.ends_with('.'))
        })
    };
    if under(r.origin.as_deref()) || r.final_origin.is_none() {
        Some("scanned")
    } else if under(r.final_origin.as_deref()) {
        Some("final")
    } else {
        // A given endpoint (a registry entry's remote) is the scanned origin itself.
        Some("scanned")
    }
}

/// The host of `https://host[:port]` (an IPv6 address keeps its brackets).
fn host_of(origin: &str) -> Option<&str> {
    let authority = origin.split_once("://")?.1.split('/').next()?;
    Some(match authority.find(']') {
        Some(end) => &authority[..=end],
        None => authority.split(':').next().unwrap_or(authority),
    })
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

/// The distinct typed kinds of the site's failed requests, in the order first seen (the
/// `request_error_kinds` column).
pub fn request_error_kinds(r: &Record) -> Vec<String> {
    let mut kinds: Vec<crate::FailureKind> = Vec::new();
    for kind in r.requests.iter().filter_map(|q| q.error_kind) {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds.iter().map(|k| k.as_str().to_owned()).collect()
}

/// The status `/mcp`'s plain GET was answered with (the last one logged, after any redirect
/// it followed); `None` when it was not asked or got no answer.
pub fn mcp_get_status(r: &Record) -> Option<u16> {
    r.requests
        .iter()
        .rev()
        .find(|q| q.purpose == crate::DocumentKind::McpPath.as_str())
        .and_then(|q| q.status)
}

/// The reading a record's verdict rests on when "not now" decided it (docs/rules.md, "Not now
/// is not no"): `mcp_get_not_now` for a site not measured because `/mcp`'s GET answered a 5xx
/// or 429 (the literal reading: out of scope), `robots_server_error` for one whose robots.txt
/// answered a 5xx (the literal reading: reason kind `robots`).
pub fn not_now_reading(r: &Record) -> Option<&'static str> {
    use crate::FailureKind as K;
    if r.outcome != Outcome::NotMeasured {
        return None;
    }
    let robots_closed = r
        .robots
        .as_ref()
        .is_some_and(|x| x.verdict == "disallow_all");
    if robots_closed {
        return (r.reason_kind == Some(K::ServerError)).then_some("robots_server_error");
    }
    let status = mcp_get_status(r)?;
    let not_now = (500..600).contains(&status) || status == 429;
    (not_now && r.endpoint.is_none()).then_some("mcp_get_not_now")
}

/// Why robots.txt kept a scanned site out (`None`: it did not): the verdict's reason kind,
/// `robots` for the site's own rules, else the failure RFC 9309 reads as complete disallow.
pub fn robots_kept_out(r: &Record) -> Option<&'static str> {
    if r.outcome != Outcome::NotMeasured {
        return None;
    }
    let closed = r
        .robots
        .as_ref()
        .is_some_and(|x| x.verdict == "disallow_all");
    let kind = r.reason_kind?;
    (closed || kind == crate::FailureKind::Robots).then(|| kind.as_str())
}

/// An endpoint URL as the registry overlap compares them: scheme and host lowercase, the
/// scheme's default port dropped, trailing slashes of the path dropped, no query or
/// fragment. String work only, mirrored by `endpoint_key` in the SQL report.
pub fn endpoint_key(endpoint: &str) -> Option<String> {
    let (scheme, rest) = endpoint.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = match host_port.rsplit_once(':') {
        Some((h, p)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => (h, Some(p)),
        _ => (host_port, None),
    };
    if host.is_empty() {
        return None;
    }
    let port = port
        .and_then(|p| p.parse::<u16>().ok())
        .filter(|p| !matches!((scheme.as_str(), p), ("https", 443) | ("http", 80)));
    let path = tail.split(['?', '#']).next().unwrap_or_default();
    let mut key = format!("{scheme}://{}", host.to_ascii_lowercase());
    if let Some(port) = port {
        key.push_str(&format!(":{port}"));
    }
    key.push_str(path.trim_end_matches('/'));
    Some(key)
}

#[cfg(test)]
mod move_tests {
    use super::*;
    use crate::record::Record;

    fn moved(from: &str, to: Option<&str>) -> Option<OriginMove> {
        let mut r = Record::new("run", 0, "x", 1, Outcome::Pass, "");
        r.origin = Some(from.to_owned());
        r.final_origin = to.map(str::to_owned);
        origin_move(&r)
    }

    #[test]
    fn moves_are_told_apart() {
        let www = Some("https://www.a.test:8443");
        assert_eq!(moved("https://a.test:8443", www), Some(OriginMove::Www));
        assert_eq!(
            moved("https://www.a.test:8443", Some("https://a.test:8443")),
            Some(OriginMove::Apex)
        );
        assert_eq!(
            moved("https://a.test", Some("https://shop.a.test")),
            Some(OriginMove::OtherSubdomain)
        );
        assert_eq!(moved("https://a.test", None), None);
        assert_eq!(moved("https://a.test", Some("https://a.test")), None);
    }
}

#[cfg(test)]
mod endpoint_site_tests {
    use super::*;

    fn side(
        origin: &str,
        final_origin: Option<&str>,
        endpoint: Option<&str>,
    ) -> Option<&'static str> {
        let mut r = Record::new("run", 0, "x", 1, Outcome::Pass, "");
        r.origin = Some(origin.to_owned());
        r.final_origin = final_origin.map(str::to_owned);
        r.endpoint = endpoint.map(str::to_owned);
        endpoint_site(&r)
    }

    #[test]
    fn the_side_that_holds_the_endpoint() {
        // D moved to www.D, the server on mcp.D: the scanned origin's site.
        let www = Some("https://www.d.test:8443");
        let mcp = Some("https://mcp.d.test:8443/mcp");
        assert_eq!(side("https://d.test:8443", www, mcp), Some("scanned"));
        // www.D moved to D, the server on api.D: only the final origin's site.
        let api = Some("https://api.d.test:8443/mcp");
        let apex = Some("https://d.test:8443");
        assert_eq!(side("https://www.d.test:8443", apex, api), Some("final"));
        // No redirect: the scanned origin; no endpoint: nothing.
        assert_eq!(
            side("https://d.test", None, Some("https://d.test/mcp")),
            Some("scanned")
        );
        assert_eq!(side("https://d.test", None, None), None);
        // A parent domain is not a subdomain; `xd.test` is not under `d.test`.
        assert_eq!(
            side("https://www.d.test", apex, Some("https://xd.test:8443/mcp")),
            Some("scanned")
        );
    }
}

#[cfg(test)]
mod endpoint_key_tests {
    use super::*;

    #[test]
    fn endpoint_keys_ignore_case_default_ports_and_trailing_slashes() {
        let key = |u: &str| endpoint_key(u).unwrap();
        assert_eq!(
            key("HTTPS://Api.Example.TEST:443/mcp/"),
            "https://api.example.test/mcp"
        );
        assert_eq!(key("http://a.test:80"), "http://a.test");
        assert_eq!(
            key("https://a.test:8443/Mcp?x=1#f"),
            "https://a.test:8443/Mcp"
        );
        assert_eq!(key("https://a.test/"), key("https://a.test"));
        assert_ne!(
            key("https://a.test/mcp"),
            key("https://a.test/MCP"),
            "paths keep case"
        );
        assert_eq!(endpoint_key("not a url"), None);
    }
}
