//! A configuration file.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(config) = mcpcensus::config::Config::from_toml(text, "fuzz.toml") {
        let _ = config.validate();
        let _ = config.max_duration();
    }
});
