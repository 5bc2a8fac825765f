//! A server card or `/.well-known/mcp.json` manifest (one lenient parser reads both), with
//! the content type the first byte chooses.
#![no_main]
use libfuzzer_sys::fuzz_target;

const TYPES: [Option<&str>; 4] = [
    None,
    Some("application/json"),
    Some("text/html; charset=utf-8"),
    Some("text/plain"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let _ = mcpcensus::discovery::parse_card(TYPES[usize::from(first % 4)], body);
});
