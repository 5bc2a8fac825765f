//! The session's request bodies, tool reading and the schema hash.

use serde_json::{json, Value};

use crate::session::{
    canonical_json, initialize_body, initialized_body, read_tools, schema_hash, tools_list_body,
};

#[test]
fn request_bodies_are_the_surveys_bytes() {
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

#[test]
fn a_cut_tool_list_gives_its_complete_entries_only() {
    use crate::session::names_in_cut_list;
    let text = br#"{"jsonrpc":"2.0","id":2,"result":{"capabilities":{"tools":{}},"tools": [
        {"name":"a","inputSchema":{"properties":{"name":{"type":"string"}}}},
        {"description":"no name"},
        {"name":"b"}, {"name":"cut-in-the-mid"#;
    assert_eq!(names_in_cut_list(text, 10), ["a", "b"]);
    assert_eq!(names_in_cut_list(text, 1), ["a"]);
    assert!(names_in_cut_list(b"{\"tools\":", 10).is_empty());
    assert!(names_in_cut_list(b"not json at all", 10).is_empty());
}

#[test]
fn revisions_are_newer_only_as_later_dates() {
    use crate::session::judge::is_newer_revision;
    let offered = crate::session::OFFERED_PROTOCOL_VERSION;
    assert!(is_newer_revision("2026-07-28", offered));
    assert!(!is_newer_revision("2025-11-25", offered), "the same");
    assert!(!is_newer_revision("2025-06-18", offered), "older");
    // Lexically past "2025-11-25", but no date: not a newer revision.
    for token in [
        "draft",
        "latest",
        "DRAFT-2026",
        "2026-7-28",
        "2026-13-01",
        "2026-07-28x",
    ] {
        assert!(!is_newer_revision(token, offered), "{token}");
    }
}
