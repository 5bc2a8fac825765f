//! HTTP/1.1 answers as the crawler's own exchange reads them: the head parser, the framing
//! decision and the chunked decoder, over an in-memory stream (the first byte's low bit asks
//! for a HEAD). Refusals are fine; a panic, a hang or runaway memory is not. The seeds are the
//! wire corpus of the differential test (`scripts/fuzz.sh` copies them in).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, raw)) = data.split_first() else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let answer = runtime.block_on(mcpcensus::net::harness::read_answer(
        raw.to_vec(),
        first & 1 == 1,
    ));
    if let Ok(answer) = answer {
        // A body is never longer than what was sent.
        assert!(answer.body.len() <= raw.len());
    }
});
