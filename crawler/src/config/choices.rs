//! The settings that are a choice among a few named values: their own module, below both the
//! settings and their named defaults.

use serde::{Deserialize, Serialize};

/// How deep a scan goes: the record's own vocabulary (`survey`: discovery and the capped
/// session; `deep`: the deep server probe as well), so the setting and the record's `probe`
/// field are one type.
pub use mcpcensus_store::ProbeDepth as Probe;

/// Whether the sites' robots.txt is read and followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Robots {
    /// Fetch `/robots.txt` once per site and skip every GET it disallows.
    Respect,
    /// Neither fetched nor followed (a single site's owner checking their own server).
    Ignore,
}

/// Which HTTP versions a connection offers in its TLS handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Http {
    /// HTTP/1.1 only: a site's requests go one after another anyway, and an HTTP/1.1
    /// connection costs less memory and CPU than an HTTP/2 one.
    Http1,
    /// HTTP/2 offered first, HTTP/1.1 if the server has no HTTP/2.
    Http2,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum LogFormat {
    Text,
    Json,
}
