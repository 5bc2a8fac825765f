//! `Link` header values, alone and as a header map.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = mcpcensus::discovery::parse_link_header(&text);
    if let Ok(value) = http::HeaderValue::from_bytes(data) {
        let mut headers = http::HeaderMap::new();
        headers.append(http::header::LINK, value);
        let page = url::Url::parse("https://fuzz.test/").expect("static URL");
        let _ = mcpcensus::discovery::links_from_headers(&headers, &page);
    }
});
