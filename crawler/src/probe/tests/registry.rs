//! Registry names: the exact entry, its remotes, else its repository.

use serde_json::json;

use crate::probe::{
    resolve_in, search_url, search_url_at, RegistryError, Remote, RemoteKind, Resolved,
};

fn streamable(u: &str) -> Remote {
    Remote {
        url: u.into(),
        kind: RemoteKind::StreamableHttp,
    }
}

#[test]
fn the_exact_name_gives_its_remotes_else_its_repository() {
    let doc = json!({"servers": [
        {"server": {"name": "com.example/a-beta", "remotes": [{"url": "https://beta.test/mcp"}]}},
        {"server": {"name": "com.example/a", "remotes": [
            {"type": "streamable-http", "url": "https://a.test/mcp"},
            {"type": "sse", "url": "https://a.test/sse"}]}},
        {"name": "com.example/old-shape", "remotes": [{"url": "https://old.test/mcp"}]},
        {"server": {"name": "com.example/stdio", "remotes": [],
            "repository": {"url": "https://github.com/example/stdio"}}},
        {"server": {"name": "com.example/nothing"}},
    ]});
    let remote = |u: &str| Ok(Resolved::Remotes(vec![streamable(u)]));
    let sse = Remote {
        url: "https://a.test/sse".into(),
        kind: RemoteKind::Sse,
    };
    assert_eq!(
        resolve_in(&doc, "com.example/a"),
        Ok(Resolved::Remotes(vec![
            streamable("https://a.test/mcp"),
            sse
        ]))
    );
    assert_eq!(
        resolve_in(&doc, "com.example/old-shape"),
        remote("https://old.test/mcp")
    );
    assert_eq!(
        resolve_in(&doc, "com.example/stdio"),
        Ok(Resolved::Stdio("https://github.com/example/stdio".into()))
    );
    assert_eq!(
        resolve_in(&doc, "com.example/A"),
        Err(RegistryError::NotFound("com.example/A".into()))
    );
    assert_eq!(
        resolve_in(&doc, "com.example/nothing"),
        Err(RegistryError::Empty("com.example/nothing".into()))
    );
}

#[test]
fn the_search_url_keeps_the_registry_path_and_encodes_the_name() {
    assert_eq!(
        search_url("https://registry.example/", "com.example/a")
            .unwrap()
            .as_str(),
        "https://registry.example/v0.1/servers?search=com.example%2Fa"
    );
    assert_eq!(
        search_url("https://r.example/api", "x").unwrap().as_str(),
        "https://r.example/api/v0.1/servers?search=x"
    );
    assert_eq!(
        search_url_at("https://r.example/api", "v0", "x")
            .unwrap()
            .as_str(),
        "https://r.example/api/v0/servers?search=x"
    );
}

#[test]
fn several_versions_of_the_name_give_the_latest() {
    let meta =
        |latest: bool| json!({"io.modelcontextprotocol.registry/official": {"isLatest": latest}});
    // v0.1: the mark beside `server`; older answers: inside it. Oldest version listed first.
    let doc = json!({"servers": [
        {"server": {"name": "com.example/a", "version": "1.0.0",
            "remotes": [{"url": "https://old.a.test/mcp"}]}, "_meta": meta(false)},
        {"server": {"name": "com.example/a", "version": "2.0.0",
            "remotes": [{"url": "https://new.a.test/mcp"}]}, "_meta": meta(true)},
        {"server": {"name": "com.example/b", "version": "1.0.0", "_meta": meta(false),
            "remotes": [{"url": "https://old.b.test/mcp"}]}},
        {"server": {"name": "com.example/b", "version": "1.1.0", "_meta": meta(true),
            "remotes": [{"url": "https://new.b.test/mcp"}]}},
    ]});
    let remote = |u: &str| Ok(Resolved::Remotes(vec![streamable(u)]));
    assert_eq!(
        resolve_in(&doc, "com.example/a"),
        remote("https://new.a.test/mcp")
    );
    assert_eq!(
        resolve_in(&doc, "com.example/b"),
        remote("https://new.b.test/mcp")
    );
}

#[test]
fn every_remote_is_kept_streamable_first_and_templates_as_written() {
    let doc = json!({"servers": [{"server": {"name": "x/t", "remotes": [
        {"type": "sse", "url": "https://t.test/sse"},
        {"type": "streamable-http", "url": "https://t.test:{PORT}/mcp"},
        {"type": "streamable-http", "url": "https://{HOST}/mcp"},
        {"type": "streamable-http", "url": "https://t.test/{path}"},
        {"type": "streamable-http", "url": "https://t.test/mcp"},
        {"type": "streamable-http", "url": ""}]}}]});
    let Ok(Resolved::Remotes(remotes)) = resolve_in(&doc, "x/t") else {
        panic!("remotes, the templates among them")
    };
    let urls: Vec<&str> = remotes.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "https://t.test:{PORT}/mcp",
            "https://{HOST}/mcp",
            "https://t.test/{path}",
            "https://t.test/mcp",
            "https://t.test/sse"
        ]
    );
    let templates: Vec<bool> = remotes.iter().map(Remote::is_template).collect();
    assert_eq!(templates, [true, true, true, false, false]);
    assert!(remotes.iter().take(3).all(|r| r.to_url().is_none()));
    assert_eq!(remotes[4].kind, RemoteKind::Sse);
}
