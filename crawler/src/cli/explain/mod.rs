//! How `mcpcensus check` prints: the transcript of `--explain` (one block per request, the way
//! the survey's curl reproduction shows it) and the verdict. Plain text; everything a site sent
//! goes through `terminal_text` (control and bidi characters escaped), so an answer cannot
//! drive the terminal.

mod probe;

pub use probe::write_probe;

use std::borrow::Cow;
use std::io::{self, Write};

use http::StatusCode;
use mcpcensus_store::inert::terminal_text;
use mcpcensus_store::Record;

use crate::net::{Exchange, EXCERPT_BYTES};

/// Width of the verdict's field names (the longest is `protocol_version:`).
const KEY_WIDTH: usize = 18;

/// What the scan did before its first request, then one block per request and answer.
pub fn write_transcript(
    out: &mut dyn Write,
    record: &Record,
    transcript: &[Exchange],
) -> io::Result<()> {
    if let (Some(host), false) = (&record.host, record.addresses.is_empty()) {
        let host = terminal_text(host);
        writeln!(out, "resolved {host}: {}", record.addresses.join(", "))?;
        writeln!(out)?;
    }
    for (k, exchange) in transcript.iter().enumerate() {
        write_exchange_then(out, exchange, &transcript[k + 1..])?;
        writeln!(out)?;
    }
    let n = transcript.len();
    writeln!(out, "{n} request{}", if n == 1 { "" } else { "s" })?;
    write_robots(out, record)?;
    writeln!(out)
}

/// What robots.txt said and what it kept the scan from fetching.
fn write_robots(out: &mut dyn Write, record: &Record) -> io::Result<()> {
    let Some(info) = &record.robots else {
        return writeln!(out, "robots.txt: not read (--robots ignore)");
    };
    let status = info
        .status
        .map_or("no answer".to_owned(), |s| s.to_string());
    let said = match info.verdict.as_str() {
        "rules" => "rules followed",
        "disallow_all" => "unavailable: everything disallowed",
        _ => "everything allowed",
    };
    write!(out, "robots.txt: {status}, {said}")?;
    if let Some(ms) = info.crawl_delay_ms {
        write!(out, "; Crawl-delay {ms} ms")?;
    }
    writeln!(out)?;
    for url in &info.skipped {
        writeln!(out, "  disallowed, not requested: {}", terminal_text(url))?;
    }
    Ok(())
}

/// Whether a redirect's target was asked later in the scan (the homepage's hops within the
/// site and robots.txt's are followed; the rest are not).
fn followed(ex: &Exchange, location: &str, later: &[Exchange]) -> bool {
    let Ok(target) = url::Url::parse(&ex.url).and_then(|base| base.join(location)) else {
        return false;
    };
    later.iter().any(|e| e.url == target.as_str())
}

/// One request and its answer, alone (a redirect is shown as not followed).
#[cfg(test)]
pub fn write_exchange(out: &mut dyn Write, ex: &Exchange) -> io::Result<()> {
    write_exchange_then(out, ex, &[])
}

/// One request and its answer, `later` the requests the scan made after it.
fn write_exchange_then(out: &mut dyn Write, ex: &Exchange, later: &[Exchange]) -> io::Result<()> {
    writeln!(
        out,
        "{} {}  ({})",
        ex.method,
        terminal_text(&ex.url),
        ex.purpose
    )?;
    for (name, value) in &ex.headers_sent {
        writeln!(out, "  > {}: {}", sent_name(name), terminal_text(value))?;
    }
    if !ex.body_sent.is_empty() {
        writeln!(out, "  >")?;
        write_lines(out, "  > ", &ex.body_sent)?;
    }
    let Some(status) = ex.status else {
        let error = ex.error.as_deref().unwrap_or("unknown error");
        return writeln!(out, "  ! no answer: {}", terminal_text(error));
    };
    let reason = StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    writeln!(out, "  < {status} {reason}")?;
    for (name, value) in &ex.headers_received {
        writeln!(out, "  < {}: {}", terminal_text(name), terminal_text(value))?;
    }
    if (300..400).contains(&status) {
        match header(&ex.headers_received, "location") {
            Some(location) => writeln!(
                out,
                "  (redirect to {}: {})",
                terminal_text(location),
                if followed(ex, location, later) {
                    "followed"
                } else {
                    "not followed"
                }
            )?,
            None => writeln!(out, "  (redirect with no Location: not followed)")?,
        }
    }
    if ex.body_read {
        if !ex.body_excerpt.is_empty() {
            writeln!(out, "  <")?;
            write_lines(out, "  < ", &ex.body_excerpt)?;
        }
        let shown = ex.body_excerpt.len() as u64;
        if ex.body_bytes > shown && ex.body_bytes > EXCERPT_BYTES as u64 {
            writeln!(
                out,
                "  (body: {} bytes read, the first {EXCERPT_BYTES} shown)",
                ex.body_bytes
            )?;
        } else {
            writeln!(out, "  (body: {} bytes)", ex.body_bytes)?;
        }
    } else {
        writeln!(out, "  (body not read)")?;
    }
    if let Some(error) = &ex.error {
        writeln!(out, "  ! {}", terminal_text(error))?;
    }
    Ok(())
}

/// The verdict: what a crawl records for the site, in the record's field names.
pub fn write_verdict(out: &mut dyn Write, r: &Record) -> io::Result<()> {
    writeln!(out, "verdict")?;
    let site = r.origin.as_deref().unwrap_or(&r.input);
    field(out, "site", &terminal_text(site))?;
    field(out, "outcome", r.outcome.as_str())?;
    field(out, "reason", &terminal_text(&r.outcome_reason))?;
    field(out, "defect", if r.defect { "yes" } else { "no" })?;
    field(out, "endpoint", &opt(&r.endpoint))?;
    let via = r.discovered_via.map_or("-", |v| v.as_str());
    field(out, "discovered_via", via)?;
    field(out, "protocol_version", &opt(&r.protocol_version))?;
    if r.server_name.is_some() || r.server_version.is_some() {
        let server = format!("{} {}", opt(&r.server_name), opt(&r.server_version));
        field(out, "server", &server)?;
    }
    if r.session_id_issued {
        field(out, "session_id", "issued")?;
    }
    if let Some(count) = r.tool_count {
        field(out, "tool_count", &count.to_string())?;
        let names: Vec<Cow<'_, str>> = r.tool_names.iter().map(|n| terminal_text(n)).collect();
        let mut text = if names.is_empty() {
            "-".to_owned()
        } else {
            names.join(", ")
        };
        if (count as usize) > names.len() {
            text.push_str(&format!(" (the first {} of {count})", names.len()));
        }
        field(out, "tool_names", &text)?;
    }
    if r.timings.total_ms > 0 {
        field(out, "took", &format!("{} ms", r.timings.total_ms))?;
    }
    Ok(())
}

/// The discovery audit's findings, each with its title and what to do about it.
pub fn write_findings(out: &mut dyn Write, r: &Record) -> io::Result<()> {
    if r.findings.is_empty() {
        return writeln!(out, "findings: none");
    }
    writeln!(out, "findings")?;
    for f in &r.findings {
        let rule = crate::rule::rule(&f.rule_id);
        let title = rule.map_or("", |rule| rule.title);
        writeln!(out, "  {} [{}] {}", f.rule_id, f.severity, title)?;
        if let Some(url) = &f.url {
            writeln!(out, "    at: {}", terminal_text(url))?;
        }
        if let Some(tool) = &f.tool {
            writeln!(out, "    tool: {}", terminal_text(tool))?;
        }
        if !f.evidence.is_empty() {
            writeln!(out, "    evidence: {}", terminal_text(&f.evidence))?;
        }
        if let Some(fix) = rule.map(|r| r.fix) {
            writeln!(out, "    fix: {fix}")?;
        }
    }
    Ok(())
}

/// An optional text field: `-` when absent.
fn opt(value: &Option<String>) -> Cow<'_, str> {
    value.as_deref().map_or(Cow::Borrowed("-"), terminal_text)
}

fn field(out: &mut dyn Write, key: &str, value: &str) -> io::Result<()> {
    let key = format!("{key}:");
    writeln!(out, "  {key:<KEY_WIDTH$}{value}")
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Each line of `text` after `prefix` (a final newline adds no empty line).
fn write_lines(out: &mut dyn Write, prefix: &str, text: &str) -> io::Result<()> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            writeln!(out, "{}", prefix.trim_end())?;
        } else {
            writeln!(out, "{prefix}{}", terminal_text(line))?;
        }
    }
    Ok(())
}

/// A sent header's name the way the survey's curl lines spell it (the wire carries it in lower
/// case; names are case-insensitive).
fn sent_name(name: &str) -> String {
    match name {
        "mcp-protocol-version" => return "MCP-Protocol-Version".to_owned(),
        "www-authenticate" => return "WWW-Authenticate".to_owned(),
        _ => {}
    }
    name.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect::<Vec<_>>()
        .join("-")
}
