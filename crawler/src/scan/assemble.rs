//! The record, assembled once from what the phases found: the audit runs here, once, over
//! every document the scan fetched, and the scan's verdict is chosen here (the session's, a
//! phase's, a pause's or the deadline's) and written by `crate::verdict`.

use std::time::Duration;

use mcpcensus_store::{FailureKind, ProbeDepth};

use super::job::{Recorded, Scanned};
use super::phases::{ms, Phases};
use super::site::ScanLogs;
use crate::audit::audit_site;
use crate::verdict::Verdict;

/// How the phases ended: `None` when the scan was cut short (its deadline, or a pause longer
/// than the time left), else the phases' result.
pub(super) type Ended = Option<Result<(), Verdict>>;

/// The scan's record from its logs, the phases' values and how they ended.
pub(super) fn assemble(
    logs: ScanLogs,
    phases: Phases,
    ended: Ended,
    site_deadline: Duration,
    tools_cap: usize,
    elapsed: Duration,
) -> Scanned {
    let ScanLogs {
        mut record,
        transcript,
        local,
        ended_early,
        hit_deadline,
    } = logs;
    let Phases {
        addresses,
        origin,
        moved,
        measured: _,
        homepage_ended: _,
        discovery,
        endpoint,
        via,
        session,
        probe,
        home: _,
        readiness,
        mut timings,
        held,
    } = phases;
    if let Some(ip) = held {
        return Scanned::Held(ip);
    }
    record.addresses = addresses.iter().map(ToString::to_string).collect();
    if moved {
        record.final_origin = origin.as_ref().map(|o| o.origin().ascii_serialization());
    }
    record.endpoint = endpoint.as_ref().map(ToString::to_string);
    record.discovered_via = via;
    if let (Some(found), Some(origin)) = (&discovery, &origin) {
        audit_site(found, origin).apply_to(&mut record);
        record.surface_signals = found.surface_signals();
        record.surface = !record.surface_signals.is_empty();
    }
    if let Some(session) = &session {
        session.apply_to(&mut record);
        record.probe = Some(ProbeDepth::Survey);
    }
    if let Some(probe) = &probe {
        probe.apply_to(&mut record, tools_cap);
    }
    crate::capability::apply_to(&mut record);
    record.readiness = readiness.map(|r| *r);
    let cut_short = ended.is_none();
    let mut transient = session.as_ref().is_some_and(|s| s.verdict.transient);
    if let Some(Err(verdict)) = ended {
        transient = verdict.transient;
        verdict.write_to(&mut record);
    }
    // A pause the host asked for, or the deadline: both may pass.
    transient |= ended_early.is_some() || cut_short || hit_deadline;
    if let Some((kind, reason)) = ended_early {
        Verdict::not_measured(kind, reason).write_to(&mut record);
    } else if cut_short || hit_deadline {
        let secs = site_deadline.as_secs();
        let reason = format!("the site deadline ({secs} s) passed before the scan finished");
        Verdict::not_measured(FailureKind::Deadline, reason).write_to(&mut record);
    }
    timings.total_ms = ms(elapsed);
    record.timings = timings;
    Scanned::Recorded(Recorded {
        record,
        local,
        transcript,
        transient,
    })
}
