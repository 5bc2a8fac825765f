//! Plain-text tables for a terminal. Every text from the records (tool and server names,
//! versions, labels) goes through `terminal_text`, so a server's escape sequences are shown,
//! not run.

use std::collections::BTreeMap;
use std::fmt::Write;

use mcpcensus_store::inert::terminal_text as shown;

use super::sections::reason_headline;
use crate::model::{Ranked, Report, Share, MEASURED_OUTCOMES};

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let r = &report.run;
    let _ = writeln!(out, "mcpcensus report: run {}", shown(&r.run_id));
    let _ = writeln!(
        out,
        "sites: {} read, {} scanned, {} reachable; {} with a discovery document; {} endpoints",
        r.sites_read,
        r.sites_scanned,
        r.sites_reachable,
        r.sites_with_discovery_document,
        r.endpoints
    );
    let _ = writeln!(out, "{}", reason_headline(r));
    section(
        &mut out,
        &format!(
            "Outcomes of the {} sites scanned (unreachable is \"not measured: no answer\")",
            r.sites_scanned
        ),
    );
    for o in MEASURED_OUTCOMES {
        if let Some(s) = r.measured_outcomes.get(o) {
            share_row(&mut out, o, s);
        }
    }
    section(&mut out, "Every record by outcome");
    for (k, s) in &r.outcomes {
        share_row(&mut out, k, s);
    }
    let _ = writeln!(out, "  {:<28} {:>10}", "defects", r.defects);
    section(
        &mut out,
        "Scanned sites by outcome and reason kind (verdicts with a typed reason)",
    );
    for k in &r.outcomes_by_reason_kind {
        let _ = writeln!(
            out,
            "  {:<14} {:<24} {:>10}",
            shown(&k.outcome),
            shown(&k.reason_kind),
            k.sites
        );
    }
    counts(
        &mut out,
        "Sites robots.txt kept out, by reason kind (robots: the site's own rules)",
        &r.robots_kept_out,
    );
    counts(
        &mut out,
        "Sites a \"not now\" answer left not measured (the literal reading would not)",
        &r.not_now_readings,
    );
    section(
        &mut out,
        &format!(
            "Outcomes of the {} sites with an API or agent surface",
            r.sites_with_surface
        ),
    );
    for (k, s) in &r.outcomes_surface {
        share_row(&mut out, k, s);
    }
    section(
        &mut out,
        "API and agent surface evidence (scanned sites per signal)",
    );
    for (k, s) in &r.surface_signals {
        share_row(&mut out, k, s);
    }
    let looks = &r.second_look;
    if looks.looked_again > 0 {
        section(
            &mut out,
            &format!(
                "Second looks: {} sites looked at again, {} changed outcome",
                looks.looked_again, looks.flipped
            ),
        );
        for c in &looks.changes {
            let _ = writeln!(
                out,
                "  {:<14} -> {:<14} {:>10}",
                shown(&c.first),
                shown(&c.second),
                c.sites
            );
        }
    }
    if !r.registry.is_empty() {
        section(&mut out, "The MCP registry beside the web");
        let reg = &r.registry;
        let _ = writeln!(out, "  {:<28} {:>10} {:>10}", "state", "entries", "urls");
        for ((key, n), (_, urls)) in reg.by_entry.rows().into_iter().zip(reg.by_url.rows()) {
            let _ = writeln!(out, "  {key:<28} {n:>10} {urls:>10}");
        }
        for (key, n) in reg.totals() {
            let _ = writeln!(out, "  {key:<28} {n:>10}");
        }
        for f in &reg.fan_outs {
            let _ = writeln!(out, "    {:>6} entries  {}", f.entries, shown(&f.url));
        }
        for ((key, n), (_, origins)) in reg.overlap().into_iter().zip(reg.origin_lists()) {
            let _ = writeln!(out, "  {key:<28} {n:>10}");
            for o in origins.iter() {
                let _ = writeln!(out, "    {}", shown(o));
            }
        }
    }
    let moved: u64 = r.measured_elsewhere.values().sum();
    section(
        &mut out,
        &format!("Sites measured at another origin than their input's: {moved}"),
    );
    for kind in mcpcensus_store::OriginMove::ALL {
        let n = r
            .measured_elsewhere
            .get(kind.as_str())
            .copied()
            .unwrap_or(0);
        let _ = writeln!(out, "  {:<28} {:>10}", kind.as_str(), n);
    }
    counts(
        &mut out,
        "Endpoints by discovery method",
        &r.endpoints_by_method,
    );
    counts(&mut out, "Discovery sources", &r.discovery_sources);
    section(&mut out, "Discovery documents (sites)");
    for (k, d) in &r.documents {
        let _ = writeln!(
            out,
            "  {:<28} {:>10} parsed {:>8} soft 404",
            shown(k),
            d.parsed,
            d.soft_404
        );
    }
    if !r.adoption_by_rank.is_empty() {
        section(
            &mut out,
            "Adoption by rank (cumulative buckets: scanned, with a surface, endpoints, passing)",
        );
        for b in &r.adoption_by_rank {
            let _ = writeln!(
                out,
                "  {:<12} {:>10} {:>10} {:>10} {:>6.1}% {:>10}",
                b.bucket,
                b.scanned,
                b.surface,
                b.endpoints,
                Share::of(b.endpoints, b.scanned).percent,
                b.passing
            );
        }
    }
    if let Some(rep) = &r.readiness {
        readiness(&mut out, rep);
    }
    if let Some(rep) = &r.tool_capabilities {
        capabilities(&mut out, rep);
    }
    section(&mut out, "Adoption");
    let a = &r.adoption;
    let _ = writeln!(
        out,
        "  {:<28} {:>10} ({} counting each platform once)",
        "endpoints", a.endpoints, a.endpoints_platforms_once
    );
    let _ = writeln!(
        out,
        "  {:<28} {:>10} ({} counting each platform once)",
        "passing", a.passing, a.passing_platforms_once
    );
    counts(&mut out, "Protocol versions", &r.protocol_versions);
    counts(&mut out, "Transports", &r.transports);
    counts(&mut out, "Authentication", &r.auth_kinds);
    counts(&mut out, "Spec versions", &r.spec_versions);
    counts(&mut out, "Migration status", &r.migration_status);
    counts(&mut out, "Deprecated features", &r.deprecated_features);
    section(&mut out, "Tools per server");
    let t = &r.tool_counts;
    let _ = writeln!(
        out,
        "  servers {}  min {}  median {}  p90 {}  max {}",
        t.servers, t.min, t.median, t.p90, t.max
    );
    for (k, v) in &t.buckets {
        let _ = writeln!(out, "  {:<28} {v:>10}", shown(k));
    }
    ranked(&mut out, "Most common tool names", &r.top_tool_names);
    section(&mut out, "Findings");
    for f in &r.findings {
        let _ = writeln!(
            out,
            "  {:<16} {:<10} {:>10}  {}",
            shown(&f.rule_id),
            shown(&f.severity),
            f.count,
            shown(f.title.as_deref().unwrap_or(""))
        );
    }
    counts(&mut out, "Tool description grades", &r.grades);
    ranked(
        &mut out,
        "Top registrable domains by endpoints",
        &r.top_domains,
    );
    ranked(&mut out, "Top hosting IPs by endpoints", &r.top_ips);
    if !r.adoption_by_tld.is_empty() {
        section(&mut out, "Adoption by top-level domain");
        for t in &r.adoption_by_tld {
            let _ = writeln!(
                out,
                "  {:<28} {:>8} scanned {:>8} endpoints {:>8} passing",
                shown(&t.tld),
                t.scanned,
                t.endpoints,
                t.passing
            );
        }
    }
    section(&mut out, "Platforms (one server fingerprint on many sites)");
    for p in &r.platforms {
        let _ = writeln!(
            out,
            "  {} {} {}: {} sites, {} tools",
            shown(&p.fingerprint),
            shown(p.server_name.as_deref().unwrap_or("-")),
            shown(p.server_version.as_deref().unwrap_or("-")),
            p.sites,
            p.tool_count
        );
    }
    if let Some(c) = &report.comparison {
        section(&mut out, &format!("Compared with run {}", c.base_run));
        let _ = writeln!(
            out,
            "  sites scanned in both runs {} (compared); in the earlier run only {}, in this \
             run only {} (not compared)",
            c.sites_in_both, c.sites_only_in_base, c.sites_only_in_run
        );
        let _ = writeln!(
            out,
            "  endpoints {:+}, passing {:+}",
            c.endpoints_delta, c.passing_delta
        );
        let _ = writeln!(
            out,
            "  new endpoints {}, changed tool names {}, same names with changed descriptions {}",
            c.new_endpoint_count, c.changed_tool_list_count, c.changed_tool_description_count
        );
        let _ = writeln!(
            out,
            "  the earlier run's endpoints: still there {}, moved {}, vanished {} (measured, \
             none), unavailable {} (not measured or unreachable now), not scanned {}",
            c.endpoints_still_there,
            c.endpoints_moved_count,
            c.vanished_endpoint_count,
            c.endpoints_unavailable_count,
            c.endpoints_not_scanned_count
        );
        let t = &c.tool_changes;
        let _ = writeln!(
            out,
            "  tools, over {} servers read in both: {} servers changed, {} tools added, {} \
             removed, {} descriptions rewritten, {} gained destructive, code or money ({} \
             servers)",
            t.servers_compared,
            t.servers_changed,
            t.tools_added,
            t.tools_removed,
            t.descriptions_changed,
            t.tools_gained_risk,
            t.servers_gained_risk
        );
        for s in &t.servers {
            let _ = writeln!(
                out,
                "    {}: added [{}] removed [{}] rewritten [{}] gained [{}]",
                shown(&s.origin),
                shown(&s.added.join(", ")),
                shown(&s.removed.join(", ")),
                shown(&s.descriptions_changed.join(", ")),
                shown(&s.gained.join("; "))
            );
        }
        for t in &c.outcome_transitions {
            let _ = writeln!(
                out,
                "  {:>12} -> {:<12} {:>10}",
                shown(&t.from),
                shown(&t.to),
                t.sites
            );
        }
    }
    if report.history.len() > 1 {
        section(&mut out, "Adoption over runs");
        for h in &report.history {
            let _ = writeln!(
                out,
                "  {:<28} {:<24} {:>8} scanned {:>8} endpoints {:>8} passing",
                shown(&h.run_id),
                shown(h.first_scan_at.as_deref().unwrap_or("-")),
                h.sites_scanned,
                h.endpoints,
                h.passing
            );
        }
        by_label(&mut out, &report.history);
    }
    out
}

/// The runs by label, when some run has one (the sectioned formats' "Adoption by label").
fn by_label(out: &mut String, history: &[crate::model::HistoryPoint]) {
    let Some(table) = super::sections::label_table(history) else {
        return;
    };
    section(out, &table.title);
    for row in &table.rows {
        let cells: Vec<String> = row.iter().map(|c| shown(&c.shown()).into_owned()).collect();
        let _ = writeln!(out, "  {}", cells.join("  "));
    }
}

fn section(out: &mut String, title: &str) {
    let _ = writeln!(out, "\n{}", shown(title));
}

fn share_row(out: &mut String, key: &str, s: &Share) {
    let _ = writeln!(
        out,
        "  {:<28} {:>10} {:>7.2}%",
        shown(key),
        s.count,
        s.percent
    );
}

fn counts(out: &mut String, title: &str, map: &BTreeMap<String, u64>) {
    if map.is_empty() {
        return;
    }
    section(out, title);
    for (k, v) in map {
        let _ = writeln!(out, "  {:<28} {v:>10}", shown(k));
    }
}

fn ranked(out: &mut String, title: &str, list: &[Ranked]) {
    if list.is_empty() {
        return;
    }
    section(out, title);
    for r in list {
        let _ = writeln!(out, "  {:<40} {:>10}", shown(&r.name), r.count);
    }
}

/// The readiness level's checks: present, share of the sites checked, the naive 2xx count.
fn readiness(out: &mut String, rep: &crate::readiness::ReadinessReport) {
    section(
        out,
        &format!(
            "Agent readiness ({} sites checked, {} catch-alls: checked, present, share, naive 2xx)",
            rep.sites_checked, rep.catch_all
        ),
    );
    for c in &rep.checks {
        let _ = writeln!(
            out,
            "  {:<28} {:>10} {:>10} {:>6.1}% {:>10}",
            c.check, c.checked, c.present.count, c.present.percent, c.naive
        );
    }
}

/// The capability mix: servers and tools per tag (every site; platforms once), the toxic flows.
fn capabilities(out: &mut String, rep: &crate::capabilities::ToolCapabilityReport) {
    let m = &rep.all;
    section(
        out,
        &format!(
            "What the open servers' tools can do ({} servers, {} tools; {} and {} counting \
             each platform once; table {}: servers, share, tools, share)",
            m.servers,
            m.tools,
            m.servers_platforms_once,
            m.tools_platforms_once,
            shown(&rep.capabilities_versions.join(", "))
        ),
    );
    for t in &m.tags {
        let _ = writeln!(
            out,
            "  {:<28} {:>10} {:>6.1}% {:>10} {:>6.1}%",
            t.tag, t.servers.count, t.servers.percent, t.tools.count, t.tools.percent
        );
    }
    let _ = writeln!(
        out,
        "  {:<28} {:>10} {:>6.1}%",
        "toxic flow", m.toxic_flow.count, m.toxic_flow.percent
    );
    for b in &rep.by_rank {
        let flows = &b.mix.toxic_flow;
        let _ = writeln!(
            out,
            "  {:<12} {:>10} servers, {:>10} tools, {} with a toxic flow",
            b.bucket, b.mix.servers, b.mix.tools, flows.count
        );
        let tags: Vec<String> = b
            .mix
            .tags
            .iter()
            .map(|t| format!("{} {}", t.tag, t.servers.count))
            .collect();
        let _ = writeln!(out, "  {:<12} servers per tag: {}", "", tags.join(", "));
    }
    for f in &rep.toxic_flow_servers {
        let _ = writeln!(out, "    {}: {}", shown(&f.origin), shown(&f.evidence));
    }
}
