//! Configuration: defaults, the TOML file and validation. Command-line flags override it.

mod choices;
pub mod defaults;
mod net;
mod settings;
#[cfg(test)]
mod tests;

pub use settings::{
    duration_at_most, parse_resolver, whole_seconds, ClickHouseSettings, Config, CrawlSettings,
    Http, InputSettings, LogFormat, NetSettings, OutputSettings, Probe, Robots,
};
