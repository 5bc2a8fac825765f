//! Every rule of the discovery audit: a stable id, a severity, the documents it reads, the
//! title a site owner sees and the fix, in our words. The table is data, `rules.toml` beside
//! this file; the build makes a constant of each rule and `RULES`. `docs/rules.md` documents
//! the same table (a test keeps the two in step).

pub use crate::rule::{AppliesTo, Rule, Severity};

include!(concat!(env!("OUT_DIR"), "/audit_rules.rs"));

/// The rule with this id (for `check --explain`: its title and fix).
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES.into_iter().find(|rule| rule.id == id)
}
