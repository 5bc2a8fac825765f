use mcpcensus_store::SurfaceSignal;
use serde_json::json;

use super::url;
use crate::discovery::*;

const JSON: Option<&str> = Some("application/json");
const HTML: Option<&str> = Some("text/html");

fn counts(parse: &SurfaceParse) -> bool {
    parse.parsed().is_some()
}

fn body(value: serde_json::Value) -> Vec<u8> {
    value.to_string().into_bytes()
}

#[test]
fn an_api_catalog_counts_as_a_linkset_or_another_json_document() {
    let linkset = body(json!({"linkset": [{"anchor": "https://example.com/api",
        "service-desc": [{"href": "https://example.com/openapi.json"}]}]}));
    let ct = Some("application/linkset+json");
    assert_eq!(parse_api_catalog(ct, &linkset), DocumentParse::Parsed(None));
    // RFC 9727 lets a publisher negotiate other formats (APIs.json here): counted, and said.
    let apis_json = body(json!({"name": "Example APIs", "apis": [{"baseURL": "/v1"}]}));
    let other = parse_api_catalog(JSON, &apis_json);
    assert!(matches!(other, DocumentParse::Parsed(Some(note)) if note.contains("not a Linkset")));
    // Linkset's Link header form.
    let text = b"<https://example.com/api>; rel=\"item\"";
    assert!(counts(&parse_api_catalog(
        Some("application/linkset"),
        text
    )));
    // What does not count: a soft 404, empty documents, a linkset that is not a list.
    let page = b"<!doctype html><html><body>Not found</body></html>";
    assert_eq!(parse_api_catalog(HTML, page), DocumentParse::Html);
    assert_eq!(
        parse_api_catalog(Some("application/linkset"), page),
        DocumentParse::Html
    );
    for empty in [
        json!({}),
        json!([]),
        json!({"linkset": []}),
        json!("catalog"),
    ] {
        assert!(
            !counts(&parse_api_catalog(JSON, &body(empty.clone()))),
            "{empty}"
        );
    }
    let wrong = parse_api_catalog(JSON, &body(json!({"linkset": {"anchor": "x"}})));
    assert_eq!(
        wrong.why_not().as_deref(),
        Some("linkset is a object, not an array")
    );
    assert_eq!(parse_api_catalog(JSON, b""), DocumentParse::Empty);
    assert!(!counts(&parse_api_catalog(
        Some("application/linkset"),
        b"nothing here"
    )));
}

#[test]
fn an_agent_card_needs_a_name_and_a_way_to_reach_it() {
    let ok = [
        json!({"name": "Travel agent", "url": "https://example.com/a2a"}),
        json!({"name": "Travel agent", "supportedInterfaces": [{"url": "https://example.com/a2a",
            "protocolBinding": "JSONRPC"}]}),
        json!({"name": "Travel agent", "skills": []}),
    ];
    for card in ok {
        assert!(
            counts(&parse_agent_card(JSON, &body(card.clone()))),
            "{card}"
        );
    }
    let not = [
        json!({"url": "https://example.com/a2a"}),
        json!({"name": "", "url": "https://example.com/a2a"}),
        json!({"name": 7, "url": "https://example.com/a2a"}),
        json!({"name": "Travel agent"}),
        json!({"name": "Travel agent", "skills": "many"}),
        json!([{"name": "Travel agent", "url": "x"}]),
    ];
    for card in not {
        assert!(
            !counts(&parse_agent_card(JSON, &body(card.clone()))),
            "{card}"
        );
    }
    assert_eq!(
        parse_agent_card(HTML, b"<html><body>Welcome</body></html>"),
        DocumentParse::Html
    );
}

#[test]
fn oauth_metadata_needs_its_identifier() {
    let prm = body(json!({"resource": "https://example.com", "authorization_servers": []}));
    assert!(counts(&parse_protected_resource(JSON, &prm)));
    assert!(!counts(&parse_auth_server(JSON, &prm)));
    let asm = body(json!({"issuer": "https://example.com", "token_endpoint": "/token"}));
    assert!(counts(&parse_auth_server(JSON, &asm)));
    assert!(!counts(&parse_protected_resource(JSON, &asm)));
    let why = parse_auth_server(JSON, b"{}").why_not().unwrap();
    assert!(why.contains("no issuer string"), "{why}");
    // A 200 HTML page at the path (a soft 404) never counts, whatever its type says.
    let page = b"<!DOCTYPE html><html><head><title>Home</title></head></html>";
    assert_eq!(parse_protected_resource(JSON, page), DocumentParse::Html);
    assert_eq!(parse_auth_server(HTML, page), DocumentParse::Html);
}

#[test]
fn an_openapi_document_in_json_or_yaml() {
    let doc = body(json!({"openapi": "3.1.0", "info": {"title": "x", "version": "1"}}));
    assert_eq!(
        parse_openapi(JSON, &doc, false),
        DocumentParse::Parsed(None)
    );
    let swagger = body(json!({"swagger": "2.0", "paths": {}}));
    assert!(counts(&parse_openapi(JSON, &swagger, false)));
    let yaml = b"# An API\nopenapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths: {}\n";
    assert_eq!(
        parse_openapi(Some("application/yaml"), yaml, false),
        DocumentParse::Parsed(Some("YAML"))
    );
    assert!(counts(&parse_openapi(
        None,
        b"\"swagger\": \"2.0\"\n",
        false
    )));
    // A nested or empty key is not the document's.
    let nested = b"info:\n  openapi: 3.0.0\n";
    assert!(!counts(&parse_openapi(Some("text/yaml"), nested, false)));
    assert!(!counts(&parse_openapi(
        Some("text/yaml"),
        b"openapi:\n",
        false
    )));
    assert!(!counts(&parse_openapi(
        JSON,
        &body(json!({"info": {}})),
        false
    )));
    assert!(!counts(&parse_openapi(
        JSON,
        &body(json!({"openapi": 3})),
        false
    )));
    // Cut at the cap: counted when its first key names OpenAPI, not otherwise.
    let cut = br#"{ "openapi" : "3.0.1", "paths": {"/a": {"get": "#;
    assert!(counts(&parse_openapi(JSON, cut, true)));
    assert!(!counts(&parse_openapi(JSON, cut, false)));
    let late = br#"{"info": {"title": "x"}, "openapi": "3.0.1", "paths": {"#;
    assert!(!counts(&parse_openapi(JSON, late, true)));
    // Soft 404s and nothing at all.
    let page = b"<!doctype html><html><body>openapi: 3.0.0</body></html>";
    assert_eq!(parse_openapi(HTML, page, false), DocumentParse::Html);
    assert_eq!(parse_openapi(HTML, b"Welcome", false), DocumentParse::Html);
    assert_eq!(parse_openapi(JSON, b"  ", false), DocumentParse::Empty);
}

#[test]
fn read_surface_dispatches_by_signal() {
    let prm = body(json!({"resource": "https://example.com"}));
    assert!(counts(&read_surface(
        SurfaceSignal::OauthProtectedResource,
        JSON,
        &prm,
        false
    )));
    assert!(!counts(&read_surface(
        SurfaceSignal::OauthAuthorizationServer,
        JSON,
        &prm,
        false
    )));
    // Relations are not documents.
    assert!(!counts(&read_surface(
        SurfaceSignal::ServiceDesc,
        JSON,
        &prm,
        false
    )));
}

#[test]
fn the_openapi_document_asked_for_is_the_first_service_desc_on_the_site() {
    let page = url("https://www.example.com/");
    let measured = MeasuredSite::new(&url("https://example.com/"), &page).unwrap();
    let html = r#"<link rel="service-desc" href="https://api.other.com/openapi.json">
        <link rel="service-desc" href="https://user:pw@api.example.com/openapi.json">
        <link rel="service-desc" href="http://api.example.com/openapi.json">
        <link rel="service-doc" href="/docs">
        <link rel="service-desc" href="https://api.example.com/v1/openapi.yaml">
        <link rel="service-desc" href="/second.json">"#;
    let links = links_from_html(html.as_bytes(), &page);
    assert_eq!(
        service_desc_url(&links, &measured).map(|u| u.to_string()),
        Some("https://api.example.com/v1/openapi.yaml".to_owned())
    );
    let off_site = links_from_html(
        br#"<link rel="service-desc" href="https://other.com/o.json">"#,
        &page,
    );
    assert_eq!(service_desc_url(&off_site, &measured), None);
}
