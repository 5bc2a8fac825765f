//! An AI catalog, with the content type the first byte chooses.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpcensus_fuzz::{typed_body, CATALOG_TYPES};

fuzz_target!(|data: &[u8]| {
    if let Some((content_type, body)) = typed_body(data, &CATALOG_TYPES) {
        let _ = mcpcensus::discovery::parse_catalog(content_type, body);
    }
});
