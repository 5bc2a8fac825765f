//! Caps on every list and text in a record, so no site can produce a record the store refuses
//! (or one that swamps a report). Applied to each record before it is handed to the writer;
//! what was cut is said in `Record::truncated`. The caps sit well above real shapes: a
//! catalog of 1,000 incomplete entries (two findings each) stays whole.

use crate::record::{Finding, Record};

/// Findings (2 per catalog entry at most, so 1,000 entries fit).
pub const MAX_FINDINGS: usize = 2_500;
pub const MAX_DOCUMENTS: usize = 400;
pub const MAX_REQUESTS: usize = 400;
/// Above the crawl's tools cap (200 by default), so the cap there decides.
pub const MAX_TOOLS: usize = 1_000;
pub const MAX_ADDRESSES: usize = 64;
/// Deprecated features, checklist items, authorization servers, metadata URLs.
pub const MAX_SHORT_LIST: usize = 128;
pub const MAX_HEADERS: usize = 64;
pub const MAX_URL_BYTES: usize = 2_048;
/// Reasons, evidence, descriptions, header values, notes.
pub const MAX_TEXT_BYTES: usize = 2_048;
/// Capabilities, annotations: JSON kept as text.
pub const MAX_JSON_BYTES: usize = 16 * 1024;
/// The whole record's text, so many lists each under their cap still stay small.
pub const MAX_RECORD_TEXT_BYTES: usize = 1_500_000;

/// Cuts `record` down to the caps; returns whether anything was cut.
pub fn bound(record: &mut Record) -> bool {
    let mut cut = Cuts::default();
    cut.list("findings", &mut record.findings, MAX_FINDINGS);
    cut.list("documents", &mut record.documents, MAX_DOCUMENTS);
    cut.list("requests", &mut record.requests, MAX_REQUESTS);
    cut.list("tools", &mut record.tools, MAX_TOOLS);
    cut.list("tool_names", &mut record.tool_names, MAX_TOOLS);
    cut.list("addresses", &mut record.addresses, MAX_ADDRESSES);
    cut.list(
        "deprecated_features",
        &mut record.deprecated_features,
        MAX_SHORT_LIST,
    );
    cut.list("checklist", &mut record.checklist, MAX_SHORT_LIST);
    cut.list("refused_urls", &mut record.refused_urls, MAX_SHORT_LIST);
    if let Some(robots) = &mut record.robots {
        cut.list("robots_skipped", &mut robots.skipped, MAX_SHORT_LIST);
    }
    if let Some(auth) = &mut record.auth {
        cut.list(
            "authorization_servers",
            &mut auth.authorization_servers,
            MAX_SHORT_LIST,
        );
        cut.list("metadata_urls", &mut auth.metadata_urls, MAX_SHORT_LIST);
    }
    bound_texts(record, &mut cut);
    // Many long texts in lists under their caps can still add up.
    while text_bytes(record) > MAX_RECORD_TEXT_BYTES && record.findings.len() > 1 {
        let keep = record.findings.len() / 2;
        cut.list("findings", &mut record.findings, keep);
    }
    cut.finish(record)
}

fn bound_texts(r: &mut Record, cut: &mut Cuts) {
    cut.text("outcome_reason", &mut r.outcome_reason, MAX_TEXT_BYTES);
    for url in [&mut r.origin, &mut r.endpoint].into_iter().flatten() {
        cut.text("urls", url, MAX_URL_BYTES);
    }
    if let Some(c) = &mut r.capabilities {
        cut.text("capabilities", c, MAX_JSON_BYTES);
    }
    for f in &mut r.findings {
        bound_finding(f, cut);
    }
    for u in r.refused_urls.iter_mut() {
        cut.text("urls", u, MAX_URL_BYTES);
    }
    if let Some(robots) = &mut r.robots {
        for u in std::iter::once(&mut robots.url).chain(robots.skipped.iter_mut()) {
            cut.text("urls", u, MAX_URL_BYTES);
        }
    }
    for d in &mut r.documents {
        cut.text("urls", &mut d.url, MAX_URL_BYTES);
        if let Some(n) = &mut d.note {
            cut.text("texts", n, MAX_TEXT_BYTES);
        }
    }
    for q in &mut r.requests {
        cut.text("urls", &mut q.url, MAX_URL_BYTES);
        if let Some(e) = &mut q.error {
            cut.text("texts", e, MAX_TEXT_BYTES);
        }
        cut.list("headers", &mut q.headers, MAX_HEADERS);
        for h in &mut q.headers {
            cut.text("texts", &mut h.value, MAX_TEXT_BYTES);
        }
    }
    for t in &mut r.tools {
        cut.text("texts", &mut t.name, MAX_TEXT_BYTES);
        for text in [&mut t.title, &mut t.description].into_iter().flatten() {
            cut.text("texts", text, MAX_TEXT_BYTES);
        }
        if let Some(a) = &mut t.annotations {
            cut.text("annotations", a, MAX_JSON_BYTES);
        }
    }
    for n in r
        .tool_names
        .iter_mut()
        .chain(r.tool_names_first_25.iter_mut())
    {
        cut.text("texts", n, MAX_TEXT_BYTES);
    }
}

fn bound_finding(f: &mut Finding, cut: &mut Cuts) {
    cut.text("texts", &mut f.evidence, MAX_TEXT_BYTES);
    if let Some(u) = &mut f.url {
        cut.text("urls", u, MAX_URL_BYTES);
    }
    if let Some(t) = &mut f.tool {
        cut.text("texts", t, MAX_TEXT_BYTES);
    }
}

/// The bytes of the texts that can be long (a close enough proxy for the encoded size).
fn text_bytes(r: &Record) -> usize {
    let findings: usize = r
        .findings
        .iter()
        .map(|f| 64 + f.evidence.len() + f.url.as_ref().map_or(0, String::len))
        .sum();
    let documents: usize = r.documents.iter().map(|d| 64 + d.url.len()).sum();
    let requests: usize = r
        .requests
        .iter()
        .map(|q| {
            64 + q.url.len()
                + q.headers
                    .iter()
                    .map(|h| h.name.len() + h.value.len())
                    .sum::<usize>()
        })
        .sum();
    let tools: usize = r
        .tools
        .iter()
        .map(|t| 64 + t.name.len() + t.description.as_ref().map_or(0, String::len))
        .sum();
    findings + documents + requests + tools
}

/// What was cut, by list, in first-cut order.
#[derive(Default)]
struct Cuts {
    lists: Vec<(&'static str, usize, usize)>,
    texts: Vec<(&'static str, usize)>,
}

impl Cuts {
    fn list<T>(&mut self, name: &'static str, list: &mut Vec<T>, cap: usize) {
        if list.len() <= cap {
            return;
        }
        match self.lists.iter_mut().find(|(n, _, _)| *n == name) {
            Some(entry) => entry.1 = cap,
            None => self.lists.push((name, cap, list.len())),
        }
        list.truncate(cap);
    }

    fn text(&mut self, name: &'static str, text: &mut String, cap: usize) {
        if text.len() <= cap {
            return;
        }
        let mut end = cap;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        match self.texts.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 += 1,
            None => self.texts.push((name, 1)),
        }
    }

    fn finish(self, record: &mut Record) -> bool {
        if self.lists.is_empty() && self.texts.is_empty() {
            return false;
        }
        let mut parts: Vec<String> = self
            .lists
            .iter()
            .map(|(name, kept, of)| format!("{name}: {kept} of {of} kept"))
            .collect();
        parts.extend(
            self.texts
                .iter()
                .map(|(name, n)| format!("{name}: {n} cut to length")),
        );
        let text = parts.join("; ");
        record.truncated = Some(match record.truncated.take() {
            Some(before) => format!("{before}; {text}"),
            None => text,
        });
        true
    }
}
