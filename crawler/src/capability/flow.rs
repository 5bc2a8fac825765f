//! The toxic-flow finding (ours, reported and never scored): a server whose tools include one
//! that reads untrusted or private data and one that sends messages, moves money or runs code.
//! Text an attacker writes (a page, a mail, an issue) can then steer the model into a tool
//! that carries data out or acts on it; the pair is what the security scanners flag.

use mcpcensus_store::{Finding, Record, Severity, ToolCapability, ToolInfo, CAPABILITIES_VERSION};

use crate::rule::TOXIC_FLOW;

/// The tags that make a tool a source, and a sink, of a toxic flow.
const SOURCES: [ToolCapability; 2] = [
    ToolCapability::ReadsUntrustedContent,
    ToolCapability::ReadsPrivateData,
];
const SINKS: [ToolCapability; 3] = [
    ToolCapability::SendsMessages,
    ToolCapability::MovesMoney,
    ToolCapability::ExecutesCode,
];

fn first<'a>(
    tools: &'a [ToolInfo],
    tags: &[ToolCapability],
) -> Option<(&'a ToolInfo, ToolCapability)> {
    tools.iter().find_map(|t| {
        let tag = tags.iter().find(|tag| t.capabilities.contains(tag))?;
        Some((t, *tag))
    })
}

/// The finding for a list of tagged tools: the first source and the first sink in the
/// server's order, with how many of each it lists. `url` is the endpoint.
pub fn toxic_flow(tools: &[ToolInfo], url: Option<&str>) -> Option<Finding> {
    let (source, read) = first(tools, &SOURCES)?;
    let (sink, acts) = first(tools, &SINKS)?;
    let count = |tags: &[ToolCapability]| {
        let has = |t: &&ToolInfo| tags.iter().any(|tag| t.capabilities.contains(tag));
        tools.iter().filter(has).count()
    };
    let evidence = format!(
        "`{}` {} and `{}` {} ({} tools read such data, {} send, pay or run code)",
        source.name,
        words(read),
        sink.name,
        words(acts),
        count(&SOURCES),
        count(&SINKS),
    );
    Some(TOXIC_FLOW.finding_on(Severity::Reported, evidence, url, Some(&source.name)))
}

fn words(tag: ToolCapability) -> &'static str {
    match tag {
        ToolCapability::ReadsUntrustedContent => "reads untrusted content",
        ToolCapability::ReadsPrivateData => "reads private data",
        ToolCapability::SendsMessages => "sends messages",
        ToolCapability::MovesMoney => "moves money",
        ToolCapability::ExecutesCode => "executes code",
        _ => "",
    }
}

/// Counts the record's tools per tag (with the table's version) and adds the toxic-flow
/// finding when its tools hold one: once per record, after the survey and the probe.
pub fn apply_to(record: &mut Record) {
    record.count_tool_capabilities(CAPABILITIES_VERSION);
    if let Some(finding) = toxic_flow(&record.tools, record.endpoint.as_deref()) {
        record.findings.push(finding);
    }
}
