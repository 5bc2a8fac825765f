//! The comparison of two runs, computed by the server over both runs' sites rows: only the
//! sites scanned in both are compared.

use clickhouse::query::Query;
use clickhouse::Client;

use super::query::{all, one};
use super::rows::{CompareRow, TransitionRow};
use super::sql;
use crate::error::AnalysisError;
use crate::model::{Comparison, Transition, LIST_CAP};

fn compare_query(outer: &str) -> String {
    outer.replace("{sites}", sql::COMPARE_SITES)
}

/// The site subquery reads both runs eight times (seven columns per run, then the filter).
fn bind_sites(mut q: Query, base: &str, run: &str) -> Query {
    for _ in 0..8 {
        q = q.bind(base).bind(run);
    }
    q
}

pub async fn comparison(c: &Client, base: &str, run: &str) -> Result<Comparison, AnalysisError> {
    let cap = LIST_CAP as u64;
    let q = sql::query(c, &compare_query(sql::COMPARE))
        .bind(cap)
        .bind(cap)
        .bind(cap)
        .bind(cap)
        .bind(cap)
        .bind(cap)
        .bind(cap);
    let row: CompareRow = one(bind_sites(q, base, run), "compare").await?;
    let q = sql::query(c, &compare_query(sql::TRANSITIONS));
    let transitions: Vec<TransitionRow> = all(bind_sites(q, base, run), "transitions").await?;
    let delta = |now: u64, before: u64| now as i64 - before as i64;
    Ok(Comparison {
        base_run: base.to_owned(),
        run: run.to_owned(),
        sites_in_both: row.sites_in_both,
        sites_only_in_base: row.sites_only_in_base,
        sites_only_in_run: row.sites_only_in_run,
        endpoints_delta: delta(row.endpoints_now, row.endpoints_before),
        passing_delta: delta(row.passing_now, row.passing_before),
        new_endpoint_count: row.new_count,
        new_endpoints: row.new_list,
        vanished_endpoint_count: row.vanished_count,
        vanished_endpoints: row.vanished_list,
        endpoints_still_there: row.still_there,
        endpoints_moved_count: row.moved_count,
        endpoints_moved: row.moved_list,
        endpoints_unavailable_count: row.unavailable_count,
        endpoints_unavailable: row.unavailable_list,
        endpoints_not_scanned_count: row.not_scanned_count,
        endpoints_not_scanned: row.not_scanned_list,
        changed_tool_list_count: row.changed_count,
        changed_tool_lists: row.changed_list,
        changed_tool_description_count: row.descriptions_changed_count,
        changed_tool_descriptions: row.descriptions_changed_list,
        tool_changes: tool_changes_of(c, base, run).await?,
        outcome_transitions: transitions
            .into_iter()
            .map(|t| Transition {
                from: t.base_outcome,
                to: t.run_outcome,
                sites: t.sites,
            })
            .collect(),
    })
}

/// The tool changes: both runs' tools of the sites scanned in both, compared by the same
/// function as the embedded store's.
async fn tool_changes_of(
    c: &Client,
    base: &str,
    run: &str,
) -> Result<crate::tool_changes::ToolChanges, AnalysisError> {
    use crate::tool_changes::{tool_changes, ServerTools, ToolState, LISTED};
    use std::collections::BTreeMap;
    let q = sql::query(c, sql::TOOL_CHANGES)
        .bind(base)
        .bind(run)
        .bind(base)
        .bind(run);
    let rows: Vec<super::rows::ToolStateRow> = all(q, "tool_changes").await?;
    let (mut before, mut now): (BTreeMap<String, ServerTools>, BTreeMap<String, ServerTools>) =
        (BTreeMap::new(), BTreeMap::new());
    for row in rows {
        let side = if row.run_id == base {
            &mut before
        } else {
            &mut now
        };
        let state = ToolState {
            description: row.description,
            capabilities: row.capabilities,
        };
        side.entry(row.origin).or_default().insert(row.name, state);
    }
    Ok(tool_changes(&before, &now, LISTED))
}
