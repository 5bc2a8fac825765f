//! Turns one input line into a scan target (an `https://` origin) or a reason it is not one.

use std::borrow::Cow;
use std::net::{Ipv4Addr, Ipv6Addr};

/// The longest line read as a candidate; longer lines are rejected without being held.
pub const MAX_LINE_BYTES: usize = 4096;
const MAX_NAME_BYTES: usize = 253;
const MAX_LABEL_BYTES: usize = 63;
const HTTPS_PORT: u16 = 443;

/// One site to scan: an origin (`https://host[:port]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `https://host` or `https://host:port` (port 443 is left out).
    pub origin: String,
    /// Lower-case ASCII (punycode) host name, no trailing dot.
    pub host: String,
    pub port: u16,
    /// The registrable domain (public suffix plus one label), or the host itself when the
    /// host has none (it is a public suffix such as `github.io`).
    pub registrable_domain: String,
    /// The line's rank in a ranked list (set by the planner from the list's columns).
    pub rank: Option<u32>,
}

/// What a line held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A blank line or a `#` comment.
    Skip,
    Target(Target),
    /// Not a usable host; the text is the reason shown in the record.
    Invalid(Cow<'static, str>),
}

/// Normalizes one line: bare host names, `host:port`, `https://` origins (path ignored),
/// Tranco-style `rank,host` lines, upper case, trailing dots and IDN.
pub fn normalize(line: &str) -> Line {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return Line::Skip;
    }
    match parse(text) {
        Ok(target) => Line::Target(target),
        Err(reason) => Line::Invalid(reason),
    }
}

fn parse(text: &str) -> Result<Target, Cow<'static, str>> {
    let text = strip_rank(text);
    if text.chars().any(char::is_whitespace) {
        return Err("contains spaces".into());
    }
    let rest = match text.split_once("://") {
        Some((scheme, rest)) => {
            match scheme.to_ascii_lowercase().as_str() {
                "https" => {}
                "http" => return Err("http:// origins are not scanned".into()),
                _ => return Err(format!("unsupported scheme {scheme}://").into()),
            }
            rest
        }
        None => text,
    };
    // The authority ends at the first path, query or fragment character.
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Err("contains a user name or password".into());
    }
    if authority.is_empty() {
        return Err("no host name".into());
    }
    let (host, port) = split_port(authority)?;
    let host = host_name(host)?;
    let registrable_domain = psl::domain_str(&host).unwrap_or(&host).to_owned();
    let origin = if port == HTTPS_PORT {
        format!("https://{host}")
    } else {
        format!("https://{host}:{port}")
    };
    Ok(Target {
        origin,
        host,
        port,
        registrable_domain,
        rank: None,
    })
}

/// `123,example.com` (top-list CSV) becomes `example.com`.
fn strip_rank(text: &str) -> &str {
    match text.split_once(',') {
        Some((rank, rest)) if !rank.is_empty() && rank.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => text,
    }
}

fn split_port(authority: &str) -> Result<(&str, u16), Cow<'static, str>> {
    if authority.starts_with('[') {
        return Err("IP literals are not scanned".into());
    }
    match authority.rsplit_once(':') {
        None => Ok((authority, HTTPS_PORT)),
        Some((host, port)) => {
            if host.contains(':') {
                // More than one colon: an IPv6 address without brackets.
                return Err("IP literals are not scanned".into());
            }
            match port.parse::<u16>() {
                Ok(p) if p > 0 => Ok((host, p)),
                _ => Err(format!("invalid port {port:?}").into()),
            }
        }
    }
}

fn host_name(raw: &str) -> Result<String, Cow<'static, str>> {
    let raw = raw.strip_suffix('.').unwrap_or(raw);
    if raw.is_empty() {
        return Err("no host name".into());
    }
    if raw.parse::<Ipv4Addr>().is_ok() || raw.parse::<Ipv6Addr>().is_ok() || looks_numeric(raw) {
        return Err("IP literals are not scanned".into());
    }
    if let Some(c) = odd_ascii(raw) {
        return Err(format!("contains the character {c:?}").into());
    }
    let ascii = idna::domain_to_ascii_cow(raw.as_bytes(), idna::AsciiDenyList::URL)
        .map_err(|_| Cow::Borrowed("not a valid internationalized domain name"))?;
    let host = ascii.into_owned();
    // The mapping can bring such characters in (U+3200 maps to "(ᄀ)", kept in the punycode
    // label as "xn--()-dmk"): the name must read the same when given again.
    if let Some(c) = odd_ascii(&host) {
        return Err(format!("its internationalized form contains the character {c:?}").into());
    }
    // IDNA mapping can turn a name into a numeric form (e.g. by dropping invisible characters).
    if looks_numeric(&host) {
        return Err("IP literals are not scanned".into());
    }
    check_labels(&host)?;
    Ok(host)
}

/// An ASCII character a host name may not hold (letters, digits, `-`, `.` and `_` may).
fn odd_ascii(name: &str) -> Option<char> {
    name.chars()
        .find(|c| c.is_ascii() && !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_')))
}

/// `1.2.3` or `0x7f.1` are IPv4 forms to URL parsers; never treat them as names.
fn looks_numeric(host: &str) -> bool {
    host.rsplit('.').next().is_some_and(|last| {
        let b = last.as_bytes();
        !b.is_empty()
            && (b.iter().all(u8::is_ascii_digit)
                || (b.len() > 2
                    && b[..2].eq_ignore_ascii_case(b"0x")
                    && b[2..].iter().all(u8::is_ascii_hexdigit)))
    })
}

fn check_labels(host: &str) -> Result<(), Cow<'static, str>> {
    if host.len() > MAX_NAME_BYTES {
        return Err(format!("name longer than {MAX_NAME_BYTES} bytes").into());
    }
    let labels: Vec<&str> = host.split('.').collect();
    if labels.len() < 2 {
        return Err("single-label name, not a public site".into());
    }
    for label in &labels {
        if label.is_empty() {
            return Err("empty label".into());
        }
        if label.len() > MAX_LABEL_BYTES {
            return Err(format!("label longer than {MAX_LABEL_BYTES} bytes").into());
        }
        if label.starts_with('-') || label.ends_with('-') {
            return Err("label starts or ends with a hyphen".into());
        }
    }
    let tld = labels[labels.len() - 1];
    if matches!(tld, "localhost" | "local" | "invalid") {
        return Err(format!(".{tld} names are not public").into());
    }
    Ok(())
}
