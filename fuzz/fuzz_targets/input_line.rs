//! An input line (a domain, an origin or a URL) through the normalizer.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let _ = mcpcensus::input::normalize(&line);
});
