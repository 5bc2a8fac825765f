//! End-to-end tests: the real command line and pipeline, against files and (later) the
//! simulated web on loopback.

// Test helpers fail the test by panicking, like the tests themselves.
#![allow(clippy::unwrap_used)]

mod capabilities;
mod chdb;
mod check;
mod child;
mod cli;
mod clickhouse;
mod clickhouse_tls;
mod cluster;
mod deep;
mod discovery_audit;
mod export_tables;
mod hostile;
mod inert;
mod local_words;
mod mcp;
mod network;
mod network_waits;
mod nightly;
mod not_now;
mod readiness;
mod readings;
mod report;
mod report_clickhouse;
mod report_compare;
mod report_html;
mod report_page;
mod report_tables;
mod safety;
mod sdk;
mod second_look;
mod shapes;
mod shapes_net;
mod shapes_robots;
mod shapes_slow;
mod shapes_unavailable;
mod survey;
mod survey_sites;
mod trend;
mod unattended;
mod util;
mod wire;
