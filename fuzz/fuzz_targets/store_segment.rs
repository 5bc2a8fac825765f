//! A whole segment file, read record by record.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("mcpcensus-fuzz-segment-{}", std::process::id()));
    std::fs::write(&path, data).expect("temp dir writable");
    if let Ok(reader) = mcpcensus_store::SegmentReader::open(&path) {
        for item in reader.take(1000) {
            let _ = item;
        }
    }
});
