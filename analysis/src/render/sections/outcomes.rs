//! The outcome tables of the reported run: the headline (the measurement's five), every
//! record, by reason kind, over the sites with a surface and its evidence, and the second looks.

use super::{Cell, Table};
use crate::methods::OUTCOME_MAPPING;
use crate::model::{RunReport, Share, MEASURED_OUTCOMES};

fn measured_as(outcome: &str) -> &'static str {
    OUTCOME_MAPPING
        .iter()
        .find(|(o, _)| *o == outcome)
        .map_or("", |(_, m)| m)
}

/// The headline: the sites scanned by the measurement's five outcomes, in their order.
pub fn measured_outcomes(r: &RunReport) -> Table {
    let mut t = Table::new(
        "measured-outcomes",
        "Outcomes of the sites scanned",
        &["Outcome", "Sites", "Share"],
    )
    .note(format!(
        "{} sites scanned, a site robots.txt closed included (not measured); a site that never \
         answered is \"not measured: no answer\". Every record outcome is in the table below.",
        r.sites_scanned
    ))
    .bars(2, "%");
    t.rows = MEASURED_OUTCOMES
        .iter()
        .filter_map(|o| r.measured_outcomes.get(*o).map(|s| (o, s)))
        .map(|(o, s)| {
            vec![
                Cell::text(o.replace('_', " ")),
                Cell::Count(s.count),
                Cell::Percent(s.percent),
            ]
        })
        .collect();
    t
}

pub fn outcomes(r: &RunReport) -> Table {
    let note = format!("{} records; {} with a defect.", r.sites_read, r.defects);
    outcome_table("outcomes", "Every record by outcome", note, &r.outcomes)
}

/// Scanned sites whose verdict has a typed reason, by outcome and kind.
pub fn reason_kinds(r: &RunReport) -> Table {
    let mut t = Table::new(
        "outcomes-by-reason-kind",
        "Outcomes by reason kind",
        &["Outcome", "Reason kind", "Sites"],
    )
    .note(format!(
        "Scanned sites whose verdict has a typed reason (docs/records.md). {} answered over \
         64 KB (body_cap); {} speak a newer revision only (newer_revision_only, not a defect).",
        r.sites_body_cap, r.sites_newer_revision_only
    ))
    .bars(2, "")
    .labelled_by(&[0, 1]);
    t.rows = r
        .outcomes_by_reason_kind
        .iter()
        .map(|k| {
            vec![
                Cell::text(&k.outcome),
                Cell::text(&k.reason_kind),
                Cell::Count(k.sites),
            ]
        })
        .collect();
    t
}

/// The population's evidence: scanned sites per kind of API or agent surface signal.
pub fn surface_signals(r: &RunReport) -> Table {
    let mut t = Table::new(
        "surface-signals",
        "API and agent surface evidence",
        &["Signal", "Sites", "Share"],
    )
    .note(format!(
        "Scanned sites that showed each kind of evidence (a site counts once per kind it \
         showed), shares of the {} sites scanned; {} showed at least one (docs/rules.md).",
        r.sites_scanned, r.sites_with_surface
    ))
    .bars(2, "%");
    t.rows = r
        .surface_signals
        .iter()
        .map(|(k, s)| {
            vec![
                Cell::text(k.as_str()),
                Cell::Count(s.count),
                Cell::Percent(s.percent),
            ]
        })
        .collect();
    t
}

/// Sites looked at twice after a failure that may pass, by how their outcome changed.
pub fn second_looks(r: &RunReport) -> Table {
    let s = &r.second_look;
    let mut t = Table::new(
        "second-looks",
        "Second looks",
        &["First look", "Second look", "Sites"],
    )
    .note(format!(
        "{} sites ended not measured or unreachable on a failure that may pass (no answer, a \
         timeout, 429, 5xx) and were looked at again near the end of the run; the second look \
         is their outcome. {} of them changed outcome.",
        s.looked_again, s.flipped
    ))
    .bars(2, "")
    .labelled_by(&[0, 1]);
    t.rows = s
        .changes
        .iter()
        .map(|c| {
            vec![
                Cell::text(&c.first),
                Cell::text(&c.second),
                Cell::Count(c.sites),
            ]
        })
        .collect();
    t
}

pub fn outcome_table(
    id: &str,
    title: &str,
    note: String,
    shares: &std::collections::BTreeMap<String, Share>,
) -> Table {
    let mut t = Table::new(id, title, &["Outcome", "Measured as", "Records", "Share"])
        .note(note)
        .bars(3, "%");
    t.rows = shares
        .iter()
        .map(|(k, s)| {
            vec![
                Cell::text(k.as_str()),
                Cell::text(measured_as(k)),
                Cell::Count(s.count),
                Cell::Percent(s.percent),
            ]
        })
        .collect();
    t
}
