//! The report's methods read the run manifest's config by path: each path must name a setting
//! of the config a crawl records, or the methods would say "not recorded" for every run.

use mcpcensus_analysis::VERDICT_SETTINGS;

use super::setup::redacted;
use crate::config::Config;

#[test]
fn every_setting_that_changes_verdicts_is_in_the_recorded_config() {
    let recorded = serde_json::to_value(redacted(&Config::default())).unwrap();
    for (name, pointer) in VERDICT_SETTINGS {
        assert!(
            recorded.pointer(pointer).is_some(),
            "{name}: {pointer} is not in the config a run manifest records"
        );
    }
}
