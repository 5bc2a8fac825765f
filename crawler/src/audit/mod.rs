//! The discovery audit: what a site owner is told about their discovery documents. Pure,
//! like `discovery`: the scan fetches, the audit judges what it fetched (the four places in
//! the audit's order, the AI catalogs walked, the manifest) and returns the discovery source
//! and one finding per problem, each under a stable rule id (`rules.rs`, `docs/rules.md`).

mod card;
mod catalog;
mod evidence;
mod manifest;
mod revision;
mod rules;
mod site;

pub use revision::{classify_revision, Revision, RELEASED_REVISIONS};
pub use rules::{rule, AppliesTo, Rule, Severity, RULES};
pub use site::{audit_site, SiteAudit};

#[cfg(test)]
mod tests;
