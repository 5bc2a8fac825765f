//! A stand-in for the official MCP registry: a few hundred entries with every kind of remote
//! the registry's nightly probers meet (shared URLs, spellings of one URL, templates, SSE-only
//! and 2026-07-28-only servers, `notifications/initialized` refusals, 401/403, sign-in
//! redirects, dead hosts, 429/503, entries whose first remote is dead, stdio servers), the
//! simulated web serving them, and the counts the probers' classes give, computed from the
//! list itself (never from a crawler's output).

mod kind;
mod list;
mod sites;
mod truth;

pub use kind::{Class, Kind};
pub use list::{Endpoint, Entry, Remote, Spelling, Standin};
pub use truth::{Truth, FAN_OUTS_SHOWN};
