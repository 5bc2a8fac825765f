//! The wire's pure pieces: request bytes, heads, framing and the chunked coding, against
//! hand-written answers (hyper's own strictness is checked in `differential.rs`).

use http::header::CONTENT_LENGTH;
use http::{HeaderValue, Method, StatusCode};

use crate::net::chunked::{ChunkStep, Chunked};
use crate::net::h1::*;

fn head(text: &str) -> Head {
    parse_head(text.as_bytes())
        .expect("parses")
        .expect("complete")
        .0
}

#[test]
fn a_request_is_origin_form_with_host_and_length() {
    let url = url::Url::parse("https://a.test:8443/p/q?x=1#frag").expect("url");
    let headers = [
        (http::header::ACCEPT, HeaderValue::from_static("text/html")),
        (CONTENT_LENGTH, HeaderValue::from_static("99")),
    ];
    let bytes = encode_request(&Method::POST, &url, &headers, b"{}");
    assert_eq!(
        String::from_utf8(bytes).expect("text"),
        "POST /p/q?x=1 HTTP/1.1\r\nhost: a.test:8443\r\naccept: text/html\r\n\
         content-length: 2\r\n\r\n{}"
    );
    let get = encode_request(
        &Method::GET,
        &url::Url::parse("http://[::1]/").expect("url"),
        &[],
        b"",
    );
    assert_eq!(get, b"GET / HTTP/1.1\r\nhost: [::1]\r\n\r\n");
}

#[test]
fn heads_parse_whole_or_ask_for_more() {
    let text = "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\nX-A: 1\r\nx-a: 2\r\n\r\nabc";
    let (parsed, len) = parse_head(text.as_bytes()).expect("ok").expect("complete");
    assert_eq!(parsed.status, StatusCode::NOT_FOUND);
    assert_eq!(parsed.headers.get_all("x-a").iter().count(), 2);
    assert_eq!(&text[len..], "abc");
    assert!(parse_head(&text.as_bytes()[..20]).expect("ok").is_none());
    assert_eq!(
        parse_head(b"SSH-2.0-OpenSSH\r\n\r\n").err(),
        Some(WireError::MalformedHead)
    );
    let many: String = (0..=MAX_HEADERS).map(|i| format!("h{i}: v\r\n")).collect();
    let many = format!("HTTP/1.1 200 OK\r\n{many}\r\n");
    assert_eq!(
        parse_head(many.as_bytes()).err(),
        Some(WireError::TooManyHeaders)
    );
    let long = format!("HTTP/1.1 200 OK\r\nx: {}", "a".repeat(MAX_HEAD));
    assert_eq!(
        parse_head(long.as_bytes()).err(),
        Some(WireError::HeadTooLong)
    );
}

#[test]
fn framing_follows_the_rules_of_rfc_9112() {
    let get = Method::GET;
    let f = |text: &str| framing(&get, &head(text));
    assert_eq!(
        f("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"),
        Ok((Framing::Length(5), true))
    );
    assert_eq!(
        f("HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n"),
        Ok((Framing::Length(5), true))
    );
    assert_eq!(
        f("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"),
        Err(WireError::BadContentLength)
    );
    assert_eq!(
        f("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"),
        Err(WireError::BadContentLength)
    );
    assert_eq!(
        f("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
        Ok((Framing::Chunked, true))
    );
    assert_eq!(
        f("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"),
        Ok((Framing::Chunked, false))
    );
    assert_eq!(
        f("HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\n\r\n"),
        Ok((Framing::UntilClose, false))
    );
    assert_eq!(
        f("HTTP/1.1 200 OK\r\n\r\n"),
        Ok((Framing::UntilClose, false))
    );
    assert_eq!(
        f("HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n"),
        Ok((Framing::Empty, true))
    );
    assert_eq!(
        f("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 0\r\n\r\n"),
        Ok((Framing::Length(0), false))
    );
    assert_eq!(
        f("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"),
        Ok((Framing::Length(0), false))
    );
    let head_req = framing(
        &Method::HEAD,
        &head("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"),
    );
    assert_eq!(head_req, Ok((Framing::Empty, true)));
}

/// Decodes `wire` fed in pieces of `step` bytes.
fn decode(wire: &[u8], step: usize) -> Result<(Vec<u8>, usize), WireError> {
    let mut decoder = Chunked::new();
    let mut out = Vec::new();
    let mut buf: Vec<u8> = Vec::new();
    let mut fed = 0;
    loop {
        match decoder.step(&buf)? {
            ChunkStep::NeedMore => {
                if fed == wire.len() {
                    return Err(WireError::BadChunk);
                }
                let next = (fed + step).min(wire.len());
                buf.extend_from_slice(&wire[fed..next]);
                fed = next;
            }
            ChunkStep::Skip(n) => {
                buf.drain(..n);
            }
            ChunkStep::Data { start, len } => {
                out.extend_from_slice(&buf[start..start + len]);
                buf.drain(..start + len);
            }
            ChunkStep::Done(n) => {
                buf.drain(..n);
                return Ok((out, buf.len() + wire.len() - fed));
            }
        }
    }
}

#[test]
fn the_chunked_coding_decodes_in_any_pieces() {
    let wire = b"5;ext=1\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-T: 1\r\n\r\nNEXT";
    for step in [1, 2, 3, 7, 100] {
        let (body, left) = decode(wire, step).expect("decodes");
        assert_eq!(body, b"helloabcdefghijklmnopqrstuvwxyz", "step {step}");
        assert_eq!(left, 4, "what follows the body is left, step {step}");
    }
    assert_eq!(decode(b"zz\r\n", 10).err(), Some(WireError::BadChunk));
    assert_eq!(
        decode(b"3\r\nabcX\r\n", 10).err(),
        Some(WireError::BadChunk)
    );
    let endless_trailers = format!("0\r\n{}", "t: v\r\n".repeat(4000));
    assert_eq!(
        decode(endless_trailers.as_bytes(), 512).err(),
        Some(WireError::TrailersTooLong)
    );
}

#[test]
fn codings_not_asked_for_are_refused_not_handed_on() {
    let f = |text: &str| framing(&Method::GET, &head(text)).err();
    for (te, error) in [
        ("gzip, chunked", WireError::UnrequestedCoding),
        ("gzip", WireError::UnrequestedCoding),
        ("chunked, gzip", WireError::UnrequestedCoding),
        ("chunked, chunked", WireError::ChunkedTwice),
    ] {
        let text = format!("HTTP/1.1 200 OK\r\nTransfer-Encoding: {te}\r\n\r\n");
        assert_eq!(f(&text), Some(error), "{te}");
    }
    let twice =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n";
    assert_eq!(f(twice), Some(WireError::ChunkedTwice));
    assert_eq!(
        f("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
        Some(WireError::TransferEncodingOnHttp10)
    );
    assert_eq!(
        f("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"),
        Some(WireError::UnsolicitedSwitch)
    );
    // A HEAD's answer and a 304 have no body, whatever their codings say.
    assert_eq!(
        framing(
            &Method::HEAD,
            &head("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n")
        ),
        Ok((Framing::Empty, true))
    );
    assert_eq!(
        f("HTTP/1.1 200 OK\r\nContent-Length: 00000000000000000000007\r\n\r\n"),
        None,
        "leading zeros are digits"
    );
}

#[test]
fn a_folded_field_is_one_value_and_heads_past_a_hundred_fields_are_read() {
    let folded =
        head("HTTP/1.1 200 OK\r\nX-Long: one\r\n two \r\n\tthree\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(
        folded.headers.get("x-long").map(HeaderValue::as_bytes),
        Some(b"one two three".as_slice())
    );
    let fields: String = (0..129).map(|i| format!("h{i}: v\r\n")).collect();
    let many = head(&format!("HTTP/1.1 200 OK\r\n{fields}\r\n"));
    assert_eq!(many.headers.len(), 129);
    let pad = format!("x-pad: {}\r\n", "p".repeat(1000));
    let large = format!("HTTP/1.1 200 OK\r\n{}\r\n", pad.repeat(300));
    assert!(large.len() > 300_000 && large.len() < MAX_HEAD);
    assert_eq!(head(&large).headers.get_all("x-pad").iter().count(), 300);
}

#[test]
fn the_chunked_coding_is_as_strict_as_hypers() {
    // No size digit: before, read as the last chunk, and the rest of the body as trailers.
    assert_eq!(
        decode(b"5\r\nhello\r\n;ext\r\nworld\r\n0\r\n\r\n", 4).err(),
        Some(WireError::BadChunk)
    );
    assert_eq!(decode(b"\r\n", 1).err(), Some(WireError::BadChunk));
    // A bare LF in an extension, after a size, after data.
    for wire in [
        b"5;a\nb\r\nhello\r\n0\r\n\r\n".as_slice(),
        b"5\nhello\r\n0\r\n\r\n",
        b"5\r\nhello\n0\r\n\r\n",
        b"5 6\r\nhello\r\n0\r\n\r\n",
        b"10000000000000000\r\n",
    ] {
        assert_eq!(
            decode(wire, 3).err(),
            Some(WireError::BadChunk),
            "{}",
            String::from_utf8_lossy(wire)
        );
    }
    // Spaces after the size and extensions are read (and dropped).
    let (body, _) = decode(b"5 \t;name=\"v\"\r\nhello\r\n0\r\n\r\n", 2).expect("decodes");
    assert_eq!(body, b"hello");
    // Extensions have one budget for the whole body, however they are spread.
    let ext = format!(";{}", "e".repeat(1000));
    let spread = format!("{}0\r\n\r\n", format!("1{ext}\r\nx\r\n").repeat(17));
    assert_eq!(
        decode(spread.as_bytes(), 512).err(),
        Some(WireError::ChunkExtensionsTooLong)
    );
    let within = format!("{}0\r\n\r\n", format!("1{ext}\r\nx\r\n").repeat(15));
    assert_eq!(decode(within.as_bytes(), 512).expect("decodes").0.len(), 15);
    // Trailers must be fields.
    assert_eq!(
        decode(b"0\r\nnot a field\r\n\r\n", 5).err(),
        Some(WireError::BadChunk)
    );
    let trailers: String = (0..101).map(|i| format!("t{i}: v\r\n")).collect();
    assert_eq!(
        decode(format!("0\r\n{trailers}\r\n").as_bytes(), 64).err(),
        Some(WireError::TrailersTooLong)
    );
}
