//! An event stream, fed in chunks whose sizes the first byte chooses, with a small limit so
//! the overflow path is reached too.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpcensus::mcp::SseParser;

fuzz_target!(|data: &[u8]| {
    let Some((&first, stream)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(first % 17) + 1;
    let limit = if first & 0x80 == 0 { 64 * 1024 } else { 64 };
    let mut parser = SseParser::new(limit);
    for piece in stream.chunks(chunk) {
        let _ = parser.feed(piece);
    }
    let _ = parser.finish();
    let _ = (parser.retry_ms(), parser.overflowed());
});
