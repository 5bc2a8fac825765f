use serde_json::json;

use crate::discovery::*;

fn parsed(body: &str) -> ParsedCard {
    match parse_card(Some("application/json"), body.as_bytes()) {
        DocumentParse::Parsed(card) => card,
        other => panic!("not parsed: {other:?}"),
    }
}

const CURRENT: &str = r#"{
  "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
  "name": "com.example/docs",
  "version": "1.0.0",
  "description": "Search and read the Example documentation.",
  "websiteUrl": "https://example.com",
  "remotes": [
    {"type": "sse", "url": "https://example.com/sse"},
    {
      "type": "streamable-http",
      "url": "https://{tenant}.example.com/mcp",
      "supportedProtocolVersions": ["2026-07-28", 2025],
      "headers": [{"name": "Authorization", "value": "Bearer {token}"}],
      "variables": {"tenant": {"default": "default"}}
    }
  ]
}"#;

#[test]
fn current_card_keeps_every_field() {
    let card = parsed(CURRENT);
    assert_eq!(card.shape(), CardShape::Current);
    assert_eq!(
        card.schema.text(),
        Some("https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json")
    );
    assert_eq!(card.name.text(), Some("com.example/docs"));
    assert_eq!(card.version.text(), Some("1.0.0"));
    assert_eq!(card.website_url.text(), Some("https://example.com"));
    assert!(card.title.is_absent());
    assert!(card.tools.is_absent());
    let remotes = card.remotes.get().unwrap();
    assert_eq!(remotes.len(), 2);
    assert!(remotes[0].supported_protocol_versions.is_absent());
    assert_eq!(
        remotes[1].supported_protocol_versions.get().unwrap(),
        &vec!["2026-07-28".to_owned(), "2025".to_owned()]
    );
    assert_eq!(remotes[1].headers.get().map(Vec::len), Some(1));
    assert!(remotes[1].variables.get().unwrap().contains_key("tenant"));
    assert_eq!(
        card.remote_refs(),
        vec![
            RemoteRef {
                url: "https://example.com/sse".into(),
                transport: RemoteTransport::Sse,
                source: RemoteSource::Remote(0),
            },
            RemoteRef {
                url: "https://{tenant}.example.com/mcp".into(),
                transport: RemoteTransport::StreamableHttp,
                source: RemoteSource::Remote(1),
            },
        ]
    );
    assert!(card.names_server());
}

#[test]
fn a_card_with_tools_and_wrong_types_is_recorded_as_found() {
    let card = parsed(
        r#"{"name": 42, "description": null, "title": "Docs",
            "tools": [{"name": "search", "description": "Finds pages"}],
            "remotes": {"type": "streamable-http"}}"#,
    );
    assert_eq!(
        card.name,
        Field::WrongType {
            kind: JsonKind::Number,
            raw: "42".into()
        }
    );
    assert_eq!(
        card.description,
        Field::WrongType {
            kind: JsonKind::Null,
            raw: "null".into()
        }
    );
    assert!(card.schema.is_absent() && card.version.is_absent());
    assert_eq!(card.title.text(), Some("Docs"));
    assert_eq!(card.tools.get().map(Vec::len), Some(1));
    assert!(matches!(
        card.remotes,
        Field::WrongType {
            kind: JsonKind::Object,
            ..
        }
    ));
    // `remotes` is there, though broken: the older top-level fields are not consulted.
    assert!(card.remote_refs().is_empty());
    assert!(!card.names_server());
}

#[test]
fn older_card_shape_with_server_info_and_transport() {
    let card = parsed(
        r#"{"$schema": "https://example.org/schemas/mcp-server-card/v1.json",
            "serverInfo": {"name": "Example", "version": "0.3"},
            "transport": {"type": "streamable-http", "endpoint": "/mcp"},
            "capabilities": {"tools": true},
            "protocolVersion": "2025-06-18",
            "tools": ["search", {"name": "fetch"}],
            "resources": [{"uri": "docs://index"}]}"#,
    );
    let info = card.server_info.get().unwrap();
    assert_eq!(info.name.text(), Some("Example"));
    assert_eq!(info.version.text(), Some("0.3"));
    assert_eq!(card.server_name(), Some("Example"));
    assert_eq!(card.protocol_version.text(), Some("2025-06-18"));
    assert_eq!(
        card.capabilities.get().unwrap().get("tools"),
        Some(&json!(true))
    );
    assert_eq!(card.resources.get().map(Vec::len), Some(1));
    assert_eq!(
        card.remote_refs(),
        vec![RemoteRef {
            url: "/mcp".into(),
            transport: RemoteTransport::StreamableHttp,
            source: RemoteSource::Transport,
        }]
    );
    let transport = card.transport.get().unwrap();
    assert_eq!(transport.kind.text(), Some("streamable-http"));
}

#[test]
fn older_shape_without_schema_or_remotes_is_older() {
    let card = parsed(
        r#"{"name": "x", "transport": "sse", "url": "https://example.com/sse",
            "endpoint": "https://example.com/e"}"#,
    );
    assert_eq!(card.shape(), CardShape::Older);
    // `transport.endpoint` first, then `endpoint`, then `url`, all typed by `transport`.
    let refs = card.remote_refs();
    assert_eq!(refs.len(), 2);
    assert_eq!(refs[0].source, RemoteSource::Endpoint);
    assert_eq!(refs[1].source, RemoteSource::Url);
    assert!(refs.iter().all(|r| r.transport == RemoteTransport::Sse));
    assert_eq!(parsed(r#"{"title":"t"}"#).shape(), CardShape::Unknown);
}

#[test]
fn manifest_tools_keep_description_presence() {
    let card = parsed(
        r#"{"name": "example", "url": "https://example.com/mcp",
            "tools": [
              {"name": "search", "description": "Search the docs"},
              {"name": "fetch", "description": "  "},
              {"name": "query"},
              "bare",
              7
            ]}"#,
    );
    let tools = card.tools.get().unwrap();
    let described: Vec<bool> = tools.iter().map(ToolEntry::has_description).collect();
    assert_eq!(described, [true, false, false, false, false]);
    assert!(tools[3].bare && tools[3].name.text() == Some("bare"));
    assert!(matches!(
        tools[4].name,
        Field::WrongType {
            kind: JsonKind::Number,
            ..
        }
    ));
    assert!(card.description.is_absent());
    assert!(card.resources.is_absent());
    assert!(card.protocol_version.is_absent());
    assert_eq!(
        card.remote_refs(),
        vec![RemoteRef {
            url: "https://example.com/mcp".into(),
            transport: RemoteTransport::Implied,
            source: RemoteSource::Url,
        }]
    );
    assert_eq!(card.keys, ["name", "tools", "url"]);
}

#[test]
fn remotes_without_type_or_url_and_non_objects() {
    let card = parsed(
        r#"{"remotes": [{"url": "https://example.com/a"}, {"type": "streamable-http"},
                         "https://example.com/c", {"type": "http", "url": "/d"}]}"#,
    );
    let remotes = card.remotes.get().unwrap();
    assert_eq!(remotes[2].not_object, Some(JsonKind::String));
    let refs = card.remote_refs();
    assert_eq!(refs.len(), 2);
    assert_eq!(refs[0].transport, RemoteTransport::Missing);
    assert_eq!(refs[1].transport, RemoteTransport::Other("http".into()));
    assert_eq!(refs[1].source, RemoteSource::Remote(3));
}

#[test]
fn html_soft_404_by_content_type_or_body() {
    let page = b"<!DOCTYPE html><html><body>Not found</body></html>";
    assert_eq!(parse_card(Some("text/html"), page), DocumentParse::Html);
    assert_eq!(
        parse_card(Some("application/json"), page),
        DocumentParse::Html
    );
    assert_eq!(
        parse_card(None, b"\xEF\xBB\xBF\n  <HTML lang=en>"),
        DocumentParse::Html
    );
    // An HTML type on something that is neither JSON nor marked up is still a page.
    assert_eq!(
        parse_card(Some("text/html"), b"Page not found"),
        DocumentParse::Html
    );
    // A JSON card served as text/html is still a card.
    let card = parse_card(Some("text/html"), br#"{"name":"com.example/x"}"#);
    assert_eq!(card.parsed().unwrap().name.text(), Some("com.example/x"));
}

#[test]
fn invalid_json_empty_and_wrong_shape() {
    let trailing_comma = parse_card(Some("application/json"), br#"{"name": "x",}"#);
    assert!(
        matches!(&trailing_comma, DocumentParse::NotJson { reason } if reason.contains("trailing comma")),
        "{trailing_comma:?}"
    );
    assert_eq!(trailing_comma.label(), "not_json");
    assert!(matches!(
        parse_card(None, br#"{"name": "cut off"#),
        DocumentParse::NotJson { .. }
    ));
    assert_eq!(parse_card(None, b""), DocumentParse::Empty);
    assert_eq!(parse_card(None, b" \r\n\t"), DocumentParse::Empty);
    let array = parse_card(None, br#"[{"name":"x"}]"#);
    assert_eq!(
        array,
        DocumentParse::WrongShape {
            reason: "a JSON array, not an object".into()
        }
    );
    assert_eq!(
        array.why_not().as_deref(),
        Some("a JSON array, not an object")
    );
    // A byte order mark before JSON is tolerated.
    assert!(parse_card(None, b"\xEF\xBB\xBF{\"name\":\"x\"}")
        .parsed()
        .is_some());
}

#[test]
fn names_server_needs_a_name_or_an_endpoint() {
    assert!(!parsed("{}").names_server());
    assert!(!parsed(r#"{"error": "not found", "status": 404}"#).names_server());
    assert!(!parsed(r#"{"name": "  "}"#).names_server());
    assert!(parsed(r#"{"name": "com.example/x"}"#).names_server());
    assert!(parsed(r#"{"serverInfo": {"name": "x"}}"#).names_server());
    assert!(parsed(r#"{"endpoint": "/mcp"}"#).names_server());
}

#[test]
fn long_raw_values_are_cut() {
    let long = "x".repeat(500);
    let card = parsed(&format!(r#"{{"name": ["{long}"]}}"#));
    let Field::WrongType { kind, raw } = card.name else {
        panic!("expected a wrong type");
    };
    assert_eq!(kind, JsonKind::Array);
    assert_eq!(raw.chars().count(), 201);
    assert!(raw.ends_with('…'));
}
