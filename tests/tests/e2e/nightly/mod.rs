//! The nightly routine: re-scans of what the store holds, run labels, Prometheus metrics.

mod label;
mod metrics;
mod registry;
mod registry_all;
mod registry_standin;
mod rescan;
