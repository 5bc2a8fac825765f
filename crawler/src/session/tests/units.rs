//! JSON-RPC bodies and classification, the SSE parser, tool reading and the schema hash.

use serde_json::{json, Value};

use crate::session::{
    answer_in_body, canonical_json, classify, initialize_body, initialized_body, read_tools,
    schema_hash, tools_list_body, Answer, Message, RpcError, SseEvent, SseParser,
};

#[test]
fn request_bodies_are_the_seeds_bytes() {
    assert_eq!(
        initialize_body(),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"mcpcensus","version":"{}"}}}}}}"#,
            env!("CARGO_PKG_VERSION")
        )
    );
    assert_eq!(
        initialized_body(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
    );
    assert_eq!(
        tools_list_body(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#
    );
    for body in [initialize_body(), tools_list_body()] {
        serde_json::from_str::<Value>(&body).expect("valid JSON");
    }
}

#[test]
fn classifies_json_rpc_messages() {
    let result = json!({"jsonrpc":"2.0","id":1,"result":{"ok":true}});
    assert!(matches!(classify(&result), Message::Result { .. }));
    let error = json!({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad"}});
    assert_eq!(
        classify(&error),
        Message::Error {
            id: Value::Null,
            error: RpcError {
                code: -32000,
                message: "Bad".into()
            }
        }
    );
    let note = json!({"jsonrpc":"2.0","method":"notifications/message","params":{}});
    assert_eq!(classify(&note), Message::Call);
    // Not JSON-RPC 2.0: no version, a REST-style error, both result and error.
    for other in [
        json!({"id":1,"result":{}}),
        json!({"jsonrpc":"2.0","error":"not found"}),
        json!({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1}}),
        json!([1, 2]),
    ] {
        assert_eq!(classify(&other), Message::Other, "{other}");
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

#[test]
fn canonical_json_sorts_keys_at_every_level() {
    let a: Value =
        serde_json::from_str(r#"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"number","enum":[2,1]}},"required":["b"]}"#)
            .expect("json");
    let b: Value =
        serde_json::from_str(r#"{"required":["b"],"properties":{"a":{"enum":[2,1],"type":"number"},"b":{"type":"string"}},"type":"object"}"#)
            .expect("json");
    let text = canonical_json(&a);
    assert_eq!(
        text,
        r#"{"properties":{"a":{"enum":[2,1],"type":"number"},"b":{"type":"string"}},"required":["b"],"type":"object"}"#
    );
    assert_eq!(text, canonical_json(&b));
    assert_eq!(schema_hash(&a), schema_hash(&b));
    assert_eq!(schema_hash(&a).len(), 16);
    assert_ne!(schema_hash(&a), schema_hash(&json!({"type":"object"})));
    assert_eq!(
        canonical_json(&json!({"k":"a\"b\u{e9}"})),
        r#"{"k":"a\"bé"}"#
    );
}

#[test]
fn reads_named_tools_up_to_the_cap() {
    let result = json!({"tools":[
        {"name":"a","title":"A","description":"first","inputSchema":{"type":"object"},
         "annotations":{"readOnlyHint":true,"title":"A!"}},
        {"title":"no name"},
        {"name":""},
        {"name":"b","inputSchema":{"type":"object"}},
        {"name":"c"}
    ], "nextCursor":"more"});
    let list = read_tools(&result, 2);
    assert_eq!(list.count, 3);
    assert_eq!(list.names(), ["a", "b"]);
    let a = &list.tools[0];
    assert_eq!(a.title.as_deref(), Some("A"));
    assert_eq!(a.description.as_deref(), Some("first"));
    assert_eq!(
        a.annotations.as_deref(),
        Some(r#"{"readOnlyHint":true,"title":"A!"}"#)
    );
    assert_eq!(
        a.input_schema_hash,
        Some(schema_hash(&json!({"type":"object"})))
    );
    assert_eq!(read_tools(&json!({}), 200).count, 0);
    assert_eq!(read_tools(&json!({"tools":"x"}), 200).count, 0);
}
