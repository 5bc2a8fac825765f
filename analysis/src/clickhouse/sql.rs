//! The SQL files, by name (configs/clickhouse/queries/), and the one way a query is sent:
//! [`query`] fills in the constants shared with Rust (`shared.rs`) first.

use clickhouse::query::Query;
use clickhouse::Client;

use super::shared::fill;

macro_rules! queries {
    ($($(#[$meta:meta])* $name:ident => $file:literal,)+) => {
        $($(#[$meta])* pub const $name: &str =
            include_str!(concat!("../../../configs/clickhouse/queries/", $file));)+
        /// Every file and its text, as written (placeholders unfilled).
        pub const ALL: &[(&str, &str)] = &[$(($file, $name)),+];
    };
}

/// `template` with the shared constants filled in, ready to bind and send.
pub fn query(c: &Client, template: &str) -> Query {
    c.query(&fill(template))
}

queries! {
    LATEST_RUN => "latest_run.sql",
    RUN_TOTALS => "run_totals.sql",
    OUTCOMES => "outcomes.sql",
    DOCUMENTS => "documents.sql",
    FIELD_COUNTS => "field_counts.sql",
    TOOL_COUNTS => "tool_counts.sql",
    TOP_TOOL_NAMES => "top_tool_names.sql",
    TOP_DOMAINS => "top_domains.sql",
    TOP_IPS => "top_ips.sql",
    FINDINGS => "findings.sql",
    GRADES => "grades.sql",
    PLATFORMS => "platforms.sql",
    COMPARE_SITES => "compare_sites.sql",
    COMPARE => "compare.sql",
    TRANSITIONS => "transitions.sql",
    HISTORY => "history.sql",
    HISTORY_OUTCOMES => "history_outcomes.sql",
    HISTORY_PLATFORMS => "history_platforms.sql",
    RUNS => "runs.sql",
    RUN_PARTS => "run_parts.sql",
    DEPRECATED_FEATURES => "deprecated_features.sql",
    ADOPTION_BY_TLD => "adoption_by_tld.sql",
    REASON_KINDS => "reason_kinds.sql",
    NOT_NOW => "not_now.sql",
    RANK_SLOTS => "rank_slots.sql",
    SURFACE_SIGNALS => "surface_signals.sql",
    SECOND_LOOKS => "second_looks.sql",
    READINESS => "readiness.sql",
    TOOL_CAPABILITIES => "tool_capabilities.sql",
    TOOL_CHANGES => "tool_changes.sql",
    TOXIC_FLOWS => "toxic_flows.sql",
    TOOL_CAPABILITY_VERSIONS => "tool_capability_versions.sql",
    REGISTRY_CLASSES => "registry_classes.sql",
    REGISTRY_OVERLAP => "registry_overlap.sql",
    /// Analysts' questions (not run by the report).
    ANALYST_ADOPTION_BY_TLD => "analyst_adoption_by_tld.sql",
    ANALYST_TOOL_COUNT_DISTRIBUTION => "analyst_tool_count_distribution.sql",
    ANALYST_AUTH_KINDS_OVER_TIME => "analyst_auth_kinds_over_time.sql",
}
