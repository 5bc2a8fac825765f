//! A frame payload: the checked rkyv decode must reject, never misread, foreign bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = mcpcensus_store::decode_frame_checked(data);
});
