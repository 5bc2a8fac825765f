//! JSON-RPC message reading, id matching and the SSE parser.

use serde_json::{json, Value};

use crate::mcp::{
    answer_event, answer_in_body, answering_message, read_message, Answer, Message, RpcError,
    SseEvent, SseParser,
};

#[test]
fn classifies_json_rpc_messages() {
    let result = json!({"jsonrpc":"2.0","id":1,"result":{"ok":true}});
    assert!(matches!(read_message(&result), Message::Result { .. }));
    let error = json!({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad"}});
    assert_eq!(
        read_message(&error),
        Message::Error {
            id: Value::Null,
            error: RpcError {
                code: -32000,
                message: "Bad".into(),
                supported: Vec::new(),
            }
        }
    );
    let note = json!({"jsonrpc":"2.0","method":"notifications/message","params":{}});
    assert_eq!(read_message(&note), Message::Call);
    // Not JSON-RPC 2.0: no version, a REST-style error, both result and error.
    for other in [
        json!({"id":1,"result":{}}),
        json!({"jsonrpc":"2.0","error":"not found"}),
        json!({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1}}),
        json!([1, 2]),
    ] {
        assert_eq!(read_message(&other), Message::Other, "{other}");
    }
}

#[test]
fn answers_match_by_id() {
    let result = json!({"jsonrpc":"2.0","id":2,"result":{"tools":[]}});
    assert_eq!(
        answer_in_body(&result, 2),
        Some(Answer::Result(json!({"tools":[]})))
    );
    assert_eq!(answer_in_body(&result, 1), None);
    // The string "2" is another id.
    let string_id = json!({"jsonrpc":"2.0","id":"2","result":{}});
    assert_eq!(answer_in_body(&string_id, 2), None);
    // An error the server could not tie to a request answers ours.
    let anonymous =
        json!({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}});
    assert!(matches!(
        answer_in_body(&anonymous, 1),
        Some(Answer::Error(_))
    ));
    // A batch: the matching member.
    let batch = json!([
        {"jsonrpc":"2.0","method":"notifications/progress"},
        {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}
    ]);
    assert!(matches!(answer_in_body(&batch, 1), Some(Answer::Result(_))));
}

fn feed_all(parser: &mut SseParser, chunks: &[&[u8]]) -> Vec<SseEvent> {
    chunks.iter().flat_map(|c| parser.feed(c)).collect()
}

#[test]
fn sse_parses_fields_comments_and_line_ends() {
    let mut parser = SseParser::new(64 * 1024);
    let events = feed_all(
        &mut parser,
        &[
            b"\xEF\xBB\xBF: a comment\r\nid: 0\r\nretry: 1500\r\ndata:\r\n\r\n",
            b"event: message\rid: 7\rdata: {\"a\":\rdata:  1}\r\r",
            b"event: endpoint\ndata: /messages\n\n",
            b"data:x\n\n",
        ],
    );
    assert_eq!(
        events,
        vec![
            SseEvent {
                event: "message".into(),
                data: "{\"a\":\n 1}".into(),
                id: Some("7".into()),
            },
            SseEvent {
                event: "endpoint".into(),
                data: "/messages".into(),
                id: Some("7".into()),
            },
            SseEvent {
                event: "message".into(),
                data: "x".into(),
                id: Some("7".into()),
            },
        ]
    );
    assert_eq!(parser.retry_ms(), Some(1500));
    assert!(!events[1].is_message());
}

#[test]
fn sse_handles_every_split_of_a_crlf_stream() {
    let stream: &[u8] =
        b"\xEF\xBB\xBFid: 1\r\ndata: \r\n\r\n:ping\r\nevent: message\r\ndata: {\"id\":1}\r\n\r\n";
    for split in 0..=stream.len() {
        let mut parser = SseParser::new(1024);
        let events = feed_all(&mut parser, &[&stream[..split], &stream[split..]]);
        assert_eq!(events.len(), 1, "split at {split}");
        assert_eq!(events[0].data, "{\"id\":1}", "split at {split}");
        assert!(events[0].is_message());
    }
}

#[test]
fn sse_keeps_a_final_event_only_at_a_clean_end() {
    let mut parser = SseParser::new(1024);
    assert!(parser.feed(b"event: message\ndata: {\"id\":1}").is_empty());
    let last = parser.finish().expect("the unterminated event");
    assert_eq!(last.data, "{\"id\":1}");
    // A priming event alone never dispatches.
    let mut parser = SseParser::new(1024);
    assert!(parser.feed(b"id: 0\ndata: \n\n").is_empty());
    assert_eq!(parser.finish(), None);
}

#[test]
fn sse_never_holds_more_than_its_limit() {
    let mut parser = SseParser::new(100);
    let big = format!("data: {}\n", "x".repeat(60));
    assert!(parser.feed(big.as_bytes()).is_empty());
    assert!(!parser.overflowed());
    // A second data line would take the event past 100 bytes.
    assert!(parser.feed(big.as_bytes()).is_empty());
    assert!(parser.overflowed());
    assert!(parser.feed(b"\ndata: y\n\n").is_empty());
    assert_eq!(parser.finish(), None);
    // A line without an end is bounded too.
    let mut parser = SseParser::new(100);
    assert!(parser.feed(&[b'a'; 101]).is_empty());
    assert!(parser.overflowed());
}

/// The session and the probe once disagreed here: JSON-RPC 2.0 asks the server to echo the id
/// with "the same value", and JSON has one number type, so `1.0` is the value `1` (JavaScript
/// servers cannot even tell them apart). Both readers now take it; the string `"1"` stays
/// another id.
#[test]
fn an_integral_float_id_answers_the_request() {
    let float_id = json!({"jsonrpc":"2.0","id":1.0,"result":{"protocolVersion":"2025-11-25"}});
    assert!(matches!(
        answer_in_body(&float_id, 1),
        Some(Answer::Result(_))
    ));
    assert_eq!(
        answering_message(float_id.clone(), 1),
        Some(float_id.clone())
    );
    let mut calls = Vec::new();
    let event = SseEvent {
        event: "message".into(),
        data: float_id.to_string(),
        id: None,
    };
    assert_eq!(answer_event(&event, 1, &mut calls), Some(float_id));
    assert_eq!(
        answering_message(json!({"jsonrpc":"2.0","id":1.5,"result":{}}), 1),
        None
    );
    assert_eq!(
        answering_message(json!({"jsonrpc":"2.0","id":"1","result":{}}), 1),
        None
    );
}

#[test]
fn a_server_request_before_the_answer_is_noted_not_taken() {
    let mut calls = Vec::new();
    let call = SseEvent {
        event: "message".into(),
        data: r#"{"jsonrpc":"2.0","id":7,"method":"roots/list"}"#.into(),
        id: None,
    };
    let note = SseEvent {
        event: "message".into(),
        data: r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#.into(),
        id: None,
    };
    assert_eq!(answer_event(&call, 7, &mut calls), None);
    assert_eq!(answer_event(&note, 7, &mut calls), None);
    assert_eq!(calls, ["roots/list"]);
}
