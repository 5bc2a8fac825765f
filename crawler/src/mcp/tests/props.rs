//! The event-stream parser gives the same events however the stream is split into chunks.

use proptest::prelude::*;

use crate::mcp::{SseEvent, SseParser};

/// Streams of the fields MCP servers send, with every line ending, comments, BOMs and stray
/// bytes.
fn stream() -> impl Strategy<Value = Vec<u8>> {
    let field = prop_oneof![
        "[ -~]{0,20}".prop_map(|d| format!("data: {d}")),
        "[ -~]{0,8}".prop_map(|d| format!("data:{d}")),
        "[a-z]{0,8}".prop_map(|e| format!("event: {e}")),
        "[0-9a-f]{0,6}".prop_map(|i| format!("id: {i}")),
        "[0-9]{0,6}".prop_map(|r| format!("retry: {r}")),
        "[ -~]{0,10}".prop_map(|c| format!(": {c}")),
        Just(String::new()),
        Just("\u{feff}data: bom".to_owned()),
        "[ -~]{0,10}",
    ];
    let ending = prop_oneof![Just("\n"), Just("\r\n"), Just("\r")];
    prop::collection::vec((field, ending), 0..30).prop_map(|lines| {
        lines
            .into_iter()
            .flat_map(|(f, e)| format!("{f}{e}").into_bytes())
            .collect()
    })
}

fn parse(chunks: &[&[u8]], limit: usize) -> (Vec<SseEvent>, Option<SseEvent>, Option<u64>, bool) {
    let mut parser = SseParser::new(limit);
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(parser.feed(chunk));
    }
    let last = parser.finish();
    (events, last, parser.retry_ms(), parser.overflowed())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn any_split_gives_the_same_events(
        bytes in stream(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
        limit in prop_oneof![Just(64 * 1024), 16usize..200],
    ) {
        let whole = parse(&[&bytes], limit);
        let mut at: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
        at.sort_unstable();
        let mut chunks = Vec::new();
        let mut from = 0;
        for cut in at {
            chunks.push(&bytes[from..cut]);
            from = cut;
        }
        chunks.push(&bytes[from..]);
        prop_assert_eq!(parse(&chunks, limit), whole.clone());
        // One byte at a time, the most hostile split.
        let bytewise: Vec<&[u8]> = bytes.chunks(1).collect();
        prop_assert_eq!(parse(&bytewise, limit), whole);
    }
}

/// Found by the property above: an empty chunk between "\r" and "\n" made them two line ends.
#[test]
fn an_empty_chunk_between_cr_and_lf_is_one_line_end() {
    let bytes = b"data: a\r\ndata: b\r\n\r\n";
    let whole = parse(&[bytes], 1024);
    let split = parse(&[&bytes[..8], b"", &bytes[8..]], 1024);
    assert_eq!(split, whole);
}
