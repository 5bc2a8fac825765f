//! robots.txt bodies: parsed as the client enforces them, then asked about a few paths.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let rules = mcpcensus::net::RobotsRules::parse(data);
    for path in ["/", "/mcp", "/.well-known/mcp/server-card.json", "/a?b=c", "/%E2%9C%93"] {
        let _ = rules.allows(path);
    }
    let _ = rules.crawl_delay();
});
