//! The survey's capped MCP session: `initialize`, `notifications/initialized` and, when the
//! server declares tools, `tools/list` — at most three POSTs in 12 s, no redirect followed, no
//! other method ever sent — and the verdict it gives (`pass`, `partial`, `fail`, `not_measured`).
//!
//! ```no_run
//! # async fn demo(site: &mcpcensus::net::SiteClient, endpoint: &url::Url) {
//! use mcpcensus::net::ServerDeadline;
//! use mcpcensus::session::{can_open, run_session, SessionOptions};
//! let budget = std::time::Duration::from_secs(30);
//! let site_deadline = ServerDeadline::after(budget, site.waits().clone());
//! if can_open(tokio::time::Instant::now(), site_deadline.at()) {
//!     let report = run_session(site, endpoint, &SessionOptions::default(), &site_deadline).await;
//!     println!("{}: {}", report.verdict.outcome, report.verdict.reason);
//! }
//! # }
//! ```

mod capped;
mod judge;
mod report;
mod requests;
mod tools;

#[cfg(test)]
mod tests;

pub use capped::{
    can_open, run_session, SessionOptions, ANSWER_CAP, DEFAULT_TOOLS_CAP, SESSION_BUDGET,
};
pub use judge::{judge, Judged, Reply, Step, REDIRECT_REASON};
pub use report::SessionReport;
pub use requests::{
    initialize_body, initialized_body, tools_list_body, CLIENT_NAME, CLIENT_VERSION, INITIALIZE_ID,
    OFFERED_PROTOCOL_VERSION, TOOLS_LIST_ID,
};
pub use tools::{canonical_json, names_in_cut_list, read_tools, schema_hash, ToolList};
