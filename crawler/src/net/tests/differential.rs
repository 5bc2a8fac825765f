//! The differential test of the crawler's own HTTP/1.1 exchange: every raw answer of the wire
//! corpus (`crawler/tests/wire-corpus/`: each framing case the exchange must get right) and of
//! the fuzz corpus (`fuzz/corpus/h1_answer/`, when a fuzz run left one) is read by the exchange
//! and by hyper's HTTP/1.1 client, each over an in-memory stream from a server that writes the
//! answer and closes. For every answer both must accept it with the same status, header fields
//! and body bytes, or both refuse it, or the difference must be one of the departures `h1.rs`
//! documents, each recognised here from what hyper read, not from our own verdict alone.

use std::collections::BTreeMap;
use std::path::Path;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;

use crate::net::harness::{read_answer, server_answering, RawAnswer};

/// Header fields hyper's client reads by default (ours reads more: `h1.rs`).
const HYPER_MAX_HEADERS: usize = 100;

/// `raw` as hyper's HTTP/1.1 client reads it (obs-fold unfolded, as RFC 9112 asks of a user
/// agent and as `h1.rs` does), or its error.
async fn hyper_reads(raw: Vec<u8>, head: bool) -> Result<RawAnswer, String> {
    let client = server_answering(raw);
    let (mut sender, conn) = hyper::client::conn::http1::Builder::new()
        .allow_obsolete_multiline_headers_in_responses(true)
        .handshake::<_, Empty<Bytes>>(TokioIo::new(client))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let method = if head {
        http::Method::HEAD
    } else {
        http::Method::GET
    };
    let request = http::Request::builder()
        .method(method)
        .uri("/")
        .header(http::header::HOST, "wire.test")
        .body(Empty::new())
        .map_err(|e| e.to_string())?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string())?;
    let (parts, body) = response.into_parts();
    let body = body.collect().await.map_err(|e| e.to_string())?.to_bytes();
    Ok(RawAnswer {
        status: parts.status.as_u16(),
        headers: parts
            .headers
            .iter()
            .map(|(name, value)| (name.as_str().to_owned(), value.as_bytes().to_vec()))
            .collect(),
        body: body.to_vec(),
    })
}

/// The documented departure that explains hyper accepting what we refuse, or we accepting what
/// hyper refuses; `None` when nothing does.
fn departure(
    ours: &Result<RawAnswer, &'static str>,
    theirs: &Result<RawAnswer, String>,
) -> Option<&'static str> {
    match (ours, theirs) {
        (Err(refusal), Ok(hyper)) => {
            let codings: Vec<String> = hyper
                .headers
                .iter()
                .filter(|(name, _)| name == "transfer-encoding")
                .flat_map(|(_, value)| {
                    String::from_utf8_lossy(value)
                        .split(',')
                        .map(|t| t.trim().to_ascii_lowercase())
                        .filter(|t| !t.is_empty() && t != "identity")
                        .collect::<Vec<_>>()
                })
                .collect();
            let chunked = codings.iter().filter(|t| *t == "chunked").count();
            match *refusal {
                "unrequested_coding" if codings.iter().any(|t| t != "chunked") => {
                    Some("a coding not asked for is refused, not handed on")
                }
                "chunked_twice" if chunked > 1 => Some("chunked twice is refused"),
                "unsolicited_switch" if hyper.status == 101 => {
                    Some("an unasked-for 101 is refused")
                }
                _ => None,
            }
        }
        (Ok(answer), Err(_)) if answer.headers.len() > HYPER_MAX_HEADERS => {
            Some("more than hyper's 100 header fields are read")
        }
        _ => None,
    }
}

/// The corpus: each file's name and bytes (a fuzz input's first byte picks GET or HEAD).
fn corpus() -> Vec<(String, Vec<u8>, bool)> {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut cases = Vec::new();
    let read_dir = |dir: &Path| {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        files
    };
    for path in read_dir(&top.join("tests/wire-corpus")) {
        if path.extension().is_some_and(|e| e == "http") {
            let bytes = std::fs::read(&path).expect("corpus file");
            let name = path.file_stem().unwrap_or_default().to_string_lossy();
            cases.push((format!("{name} (GET)"), bytes.clone(), false));
            cases.push((format!("{name} (HEAD)"), bytes, true));
        }
    }
    for path in read_dir(&top.join("../fuzz/corpus/h1_answer")) {
        let bytes = std::fs::read(&path).expect("fuzz corpus file");
        if let Some((&first, raw)) = bytes.split_first() {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            cases.push((format!("fuzz {name}"), raw.to_vec(), first & 1 == 1));
        }
    }
    cases
}

#[tokio::test]
async fn the_exchange_reads_every_answer_as_hyper_does_or_departs_as_documented() {
    let cases = corpus();
    assert!(cases.len() >= 100, "the wire corpus is in the repo");
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut wrong = Vec::new();
    for (name, raw, head) in cases {
        let ours = read_answer(raw.clone(), head).await;
        let theirs = hyper_reads(raw, head).await;
        let outcome = match (&ours, &theirs) {
            (Ok(a), Ok(b)) if a == b => "both accept, the same answer",
            (Err(_), Err(_)) => "both refuse",
            _ => match departure(&ours, &theirs) {
                Some(reason) => reason,
                None => {
                    wrong.push(format!("{name}: ours {ours:?}\n  hyper {theirs:?}"));
                    continue;
                }
            },
        };
        *counts.entry(outcome).or_default() += 1;
    }
    eprintln!("differential test: {counts:#?}");
    assert!(
        wrong.is_empty(),
        "undocumented differences:\n{}",
        wrong.join("\n")
    );
    // Each documented departure is still met in the corpus (a list that no case needs is
    // stale), and both agreements are common.
    for needed in [
        "a coding not asked for is refused, not handed on",
        "chunked twice is refused",
        "an unasked-for 101 is refused",
        "more than hyper's 100 header fields are read",
        "both accept, the same answer",
        "both refuse",
    ] {
        assert!(counts.contains_key(needed), "no case shows: {needed}");
    }
}
