//! A homepage's HTML through the link extractor.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let page = url::Url::parse("https://fuzz.test/dir/page.html").expect("static URL");
    let _ = mcpcensus::discovery::links_from_html(data, &page);
});
