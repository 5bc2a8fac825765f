//! mcpcensus: measures how the web adopts the Model Context Protocol.
//!
//! # Glossary
//!
//! The three measurements, each mapped to the document that defines it (the one place that
//! names those documents; code and docs speak of the measurements):
//!
//! - the survey: discovery, capped session, outcomes ("MCP server answers and lists its tools").
//! - the discovery audit: findings on the discovery documents ("MCP (Model Context Protocol)").
//! - the deep probe: the server probe and its rules ("Check MCP servers and plan their migration").
//!
//! # Layout
//!
//! Modules in data-path order; each imports only modules before it (`tests/layers.rs`
//! checks it):
//!
//! - [`error`], [`rule`]: the crate's errors; the shape of a rule (id, severity, fix).
//! - [`capability`]: pure tagging of what a tool can do, and the toxic-flow finding.
//! - [`input`]: domain lists read, normalised, deduplicated and planned into sites.
//! - [`net`]: resolver, address guard, politeness, HTTP client, content sniffing and the one
//!   request recorder (compact log and optional transcript).
//! - [`verdict`]: the one verdict type (outcome, typed reason, defect, may it pass) and the one
//!   place that writes it into a record.
//! - [`discovery`]: pure reading of what discovery fetched (cards, catalogs, links, `/mcp`)
//!   and the endpoint choice.
//! - [`readiness`]: pure reading of the readiness level's documents (robots.txt's AI rules and
//!   content signals, llms.txt, Link relations, WebMCP markers) and the negative control.
//! - [`mcp`]: the MCP client over HTTP (JSON-RPC messages, SSE, the answer reader).
//! - [`session`]: the survey's capped session (three POSTs, 64 KB, 12 s) and its verdict.
//! - [`probe`]: the deep probe's budgeted sequence, classification, server rules and grades.
//! - [`audit`]: the discovery audit, pure over discovery's types.
//! - [`config`]: the strict configuration file and its named defaults.
//! - [`scan`]: one site's scan: fetches the documents, runs the session and the probe, audits.
//! - [`run`]: a crawl: intake, workers, sinks, progress.
//! - [`cli`]: the command line.

pub mod audit;
pub mod capability;
pub mod cli;
pub mod config;
pub mod discovery;
pub mod error;
pub mod input;
pub mod mcp;
pub mod net;
pub mod probe;
pub mod readiness;
pub mod rule;
pub mod run;
pub mod scan;
pub mod session;
#[cfg(test)]
mod testkit;
pub mod verdict;

pub use error::{ConfigError, Error, InputError};
