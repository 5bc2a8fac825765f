//! The discovery audit's rules: rows of the crate's one rule table (`crate::rule`, built from
//! `rules.toml`), named here by the constants the audit's code uses.

pub use crate::rule::*;
