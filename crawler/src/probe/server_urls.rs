//! URLs a server chose, judged before any request goes to them: the legacy-SSE `endpoint`
//! event's POST URL, the challenge's `resource_metadata` and the protected-resource
//! metadata's `authorization_servers`. A URL that breaks a rule is recorded with the rule and
//! never requested (the guard, the opt-out list and politeness then apply to those that pass,
//! in the site's client).

use url::{Host, Url};

/// Metadata GETs one probe makes after a 401/403 at most (two protected-resource candidates,
/// three authorization-server ones): a server cannot make the probe fetch more.
pub const AUTH_METADATA_BUDGET: usize = 5;

/// The Fetch standard's bad ports (<https://fetch.spec.whatwg.org/#port-blocking>): protocols
/// a browser never lets a page talk HTTP to.
pub const BAD_PORTS: [u16; 81] = [
    0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101,
    102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427,
    465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990,
    993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667,
    6668, 6669, 10080,
];

/// The legacy-SSE `endpoint` event must name a URL on the stream's own origin (as the
/// official TypeScript SDK requires).
pub fn sse_post_rule(stream: &Url, named: &Url) -> Result<(), &'static str> {
    if stream.origin() == named.origin() {
        Ok(())
    } else {
        Err("the SSE endpoint event names another origin than the stream's")
    }
}

/// OAuth metadata URLs may be on other hosts, but only https, on port 443 or the site's own
/// port, never an IP literal, never a bad port.
pub fn auth_url_rule(url: &Url, site_port: u16) -> Result<(), &'static str> {
    if url.scheme() != "https" {
        return Err("not https");
    }
    match url.host() {
        Some(Host::Domain(_)) => {}
        Some(Host::Ipv4(_) | Host::Ipv6(_)) => return Err("an IP literal, not a host name"),
        None => return Err("no host"),
    }
    let port = url.port_or_known_default().unwrap_or(0);
    if BAD_PORTS.contains(&port) {
        return Err("a port on the Fetch standard's bad-port list");
    }
    if port != 443 && port != site_port {
        return Err("a port other than 443 or the site's own");
    }
    Ok(())
}

/// A registry entry's remote, chosen by whoever published the entry: never a port on the
/// Fetch standard's bad-port list (SMTP, SSH, IRC, ...), as browsers hold any URL a stranger
/// names. Its host then goes through the guard and the opt-out list like any site's, and an
/// `http://` remote is recorded unopened by the scan.
pub fn registry_remote_rule(url: &Url) -> Result<(), &'static str> {
    if BAD_PORTS.contains(&url.port_or_known_default().unwrap_or(0)) {
        return Err("a port on the Fetch standard's bad-port list");
    }
    Ok(())
}

/// `url: rule`, as the record keeps a refused URL.
pub fn refusal(url: &str, rule: &str) -> String {
    format!("{url}: {rule}; not requested")
}
