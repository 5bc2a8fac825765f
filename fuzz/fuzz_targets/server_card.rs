//! A server card or `/.well-known/mcp.json` manifest (one lenient parser reads both), with
//! the content type the first byte chooses.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpcensus_fuzz::{typed_body, CARD_TYPES};

fuzz_target!(|data: &[u8]| {
    if let Some((content_type, body)) = typed_body(data, &CARD_TYPES) {
        let _ = mcpcensus::discovery::parse_card(content_type, body);
    }
});
