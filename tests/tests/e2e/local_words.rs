//! A server's words are never this machine's failure: sites whose JSON-RPC error, `Location`
//! header, server card or catalog entry say exactly what the net layer writes when this machine
//! runs out of a resource get their own verdicts, and the census goes on and ends complete.
//! (The run once searched a record's text for those words, retried such a site six times and
//! stopped the whole census.)

use mcpcensus::net::LocalResource;
use mcpcensus_simweb::mcp::{Fault, McpServer};
use mcpcensus_simweb::{RecordedRequest, Reply, SimWeb, Site};
use mcpcensus_store::{FailureKind, Outcome, RunStatus};
use serde_json::{json, Value};

use crate::util::{counts, record_for, WebCrawl};

/// The words of each resource, as the net layer renders it.
fn words() -> Vec<String> {
    LocalResource::ALL.iter().map(|r| r.to_string()).collect()
}

fn home() -> Reply {
    Reply::html("<!doctype html><title>home</title>")
}

fn rpc_site(i: usize, text: &str) -> Site {
    let server = McpServer::new().fault_on("initialize", Fault::RpcError(-32000, text.to_owned()));
    Site::new(format!("rpc-{i}.words.test"))
        .route("/", home())
        .mcp("/mcp", &server)
}

/// A document computed from the port the request came in on, so it can name absolute URLs.
fn on_port(
    content_type: &'static str,
    make: impl Fn(u16) -> Value + Send + Sync + 'static,
) -> Reply {
    Reply::handler(move |req: &RecordedRequest| {
        Reply::bytes(content_type, make(req.local.port()).to_string())
    })
}

fn card(host: &'static str, text: String, port: u16) -> Value {
    json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
        "name": format!("test.example/{text}"),
        "version": "1.0.0",
        "description": text,
        "remotes": [{
            "type": "streamable-http",
            "url": format!("https://{host}:{port}/mcp"),
            "supportedProtocolVersions": ["2025-11-25"]
        }],
    })
}

fn sites(text: &str) -> Vec<Site> {
    let mut sites: Vec<Site> = words()
        .iter()
        .enumerate()
        .map(|(i, w)| rpc_site(i, w))
        .collect();
    // A Location that does not parse, so the reason quotes it as sent.
    sites.push(
        Site::new("location.words.test")
            .route("/", Reply::redirect(302, &format!("https://[{text}]/"))),
    );
    let card_text = text.to_owned();
    sites.push(
        Site::new("card.words.test")
            .route("/", home())
            .route(
                "/.well-known/mcp/server-card.json",
                on_port("application/json", move |port| {
                    card("card.words.test", card_text.clone(), port)
                }),
            )
            .mcp("/mcp", &McpServer::new().tools_named(&["card_tool"])),
    );
    let entry_text = text.to_owned();
    sites.push(
        Site::new("catalog.words.test")
            .route("/", home())
            .route(
                "/.well-known/ai-catalog.json",
                on_port("application/ai-catalog+json", move |port| {
                    json!({"specVersion": "1.0", "entries": [{
                        "identifier": format!("urn:air:catalog.words.test:mcp:{entry_text}"),
                        "displayName": entry_text,
                        "type": "application/mcp-server-card+json",
                        "data": card("catalog.words.test", entry_text.clone(), port),
                    }]})
                }),
            )
            .mcp("/mcp", &McpServer::new().tools_named(&["catalog_tool"])),
    );
    sites
}

#[tokio::test]
async fn a_servers_words_about_local_resources_get_their_own_verdict_and_the_run_goes_on() {
    let text = words()[0].clone();
    let sites = sites(&text);
    let hosts: Vec<String> = sites.iter().map(|s| s.name().to_owned()).collect();
    let web = SimWeb::builder().sites(sites).start().await.unwrap();
    let inputs: Vec<String> = hosts.iter().map(|h| web.input(h)).collect();
    let crawl = WebCrawl::new();
    let (code, manifest, records) = crawl.run(&web, &inputs, true, &[]).await;

    assert_eq!(code, std::process::ExitCode::SUCCESS, "the census goes on");
    assert_eq!(manifest.status, RunStatus::Complete);
    assert_eq!(counts(&manifest).local_resource_retries, 0);
    assert_eq!(records.len(), inputs.len());
    for (i, w) in words().iter().enumerate() {
        let r = record_for(&records, &web.origin(&format!("rpc-{i}.words.test")));
        assert_eq!(r.outcome, Outcome::Fail, "{}", r.outcome_reason);
        assert_eq!(r.reason_kind, Some(FailureKind::Answer));
        assert!(
            r.outcome_reason.contains(w.as_str()),
            "{}",
            r.outcome_reason
        );
    }
    // The homepage's Location ends the homepage only; nothing else there names MCP.
    let moved = record_for(&records, &web.origin("location.words.test"));
    assert_eq!(
        moved.outcome,
        Outcome::OutOfScope,
        "{}",
        moved.outcome_reason
    );
    assert_eq!(moved.reason_kind, Some(FailureKind::NoEndpoint));
    assert!(
        moved.outcome_reason.contains(&text),
        "{}",
        moved.outcome_reason
    );
    for (host, tool) in [
        ("card.words.test", "card_tool"),
        ("catalog.words.test", "catalog_tool"),
    ] {
        let r = record_for(&records, &web.origin(host));
        assert_eq!(r.outcome, Outcome::Pass, "{host}: {}", r.outcome_reason);
        assert_eq!(r.reason_kind, None);
        assert_eq!(r.tool_names, [tool]);
    }
    // No request of any site is typed as this machine's failure.
    assert!(records
        .iter()
        .flat_map(|r| &r.requests)
        .all(|q| q.error_kind != Some(FailureKind::LocalResource)));
}
