//! What each tool can do, end to end: a server whose tools cover every capability tag, with
//! and without annotations (a `readOnlyHint` lowers nothing), its record's tags and its toxic
//! flow (MCP-TOOLS-001), the report's capability mix the same from the embedded store and from
//! ClickHouse, and a second run in which the server adds a `delete_*` tool and rewrites one
//! description: the comparison's tool changes.

use std::collections::BTreeSet;
use std::process::ExitCode;

use mcpcensus_simweb::mcp::{McpServer, Tool};
use mcpcensus_simweb::{Reply, SimWeb, Site};
use serde_json::{json, Value};

use crate::util::{mcpcensus, record_for, test_server_url, unique_db, WebCrawl};

fn schema(props: &[&str]) -> Value {
    let properties: serde_json::Map<String, Value> = props
        .iter()
        .map(|p| ((*p).to_owned(), json!({"type": "string"})))
        .collect();
    json!({"type": "object", "properties": properties})
}

/// The tools of the server on the first night, each with the tags the capability table gives
/// it (docs/rules.md, "Tool capabilities": the rows each tool's name, first sentence, schema
/// and annotations match).
fn tools() -> Vec<(Tool, &'static [&'static str])> {
    vec![
        (
            // The hint and the verb both say it reads; nothing says it writes.
            Tool::new("search_docs")
                .description("Search the documentation and return matching pages.")
                .input_schema(schema(&["query"]))
                .read_only(),
            &["read_only"],
        ),
        (
            // No annotations: the name deletes; a `path` input reads the user's files only in
            // a tool that writes nothing (schema-path), so not here.
            Tool::new("delete_file")
                .description("Delete a file from the workspace.")
                .input_schema(schema(&["path"])),
            &["writes", "destructive"],
        ),
        (
            // A readOnlyHint lowers nothing: running code writes.
            Tool::new("run_python")
                .description("Run Python code in a sandbox.")
                .input_schema(schema(&["code"]))
                .read_only(),
            &["writes", "executes_code"],
        ),
        (
            Tool::new("create_refund")
                .description("Create a refund for a charge.")
                .input_schema(schema(&["payment_intent", "amount"])),
            &["writes", "moves_money"],
        ),
        (
            // A verb and a thing sent: `post` alone could be a noun (get_post).
            Tool::new("send_message")
                .description("Send a message to a team channel.")
                .input_schema(schema(&["channel", "text"])),
            &["writes", "sends_messages"],
        ),
        (
            Tool::new("fetch_page")
                .description("Fetch a web page and return its text.")
                .input_schema(schema(&["url"]))
                .annotations(json!({"readOnlyHint": true, "openWorldHint": true})),
            &["read_only", "reads_untrusted_content"],
        ),
        (
            Tool::new("read_file")
                .description("Read the contents of a file.")
                .input_schema(schema(&["path"])),
            &["read_only", "reads_private_data"],
        ),
        (
            // The server's own word for destructive is taken.
            Tool::new("update_record")
                .description("Update a record.")
                .input_schema(schema(&["id", "fields"]))
                .annotations(json!({"destructiveHint": true})),
            &["writes", "destructive"],
        ),
    ]
}

fn site(host: &str, server: &McpServer) -> Site {
    Site::new(host)
        .route(
            "/",
            Reply::html("<html></html>").header("link", "</mcp>; rel=\"mcp\""),
        )
        .mcp("/mcp", server)
}

fn everything(second_night: bool) -> McpServer {
    let mut list: Vec<Tool> = tools().into_iter().map(|(t, _)| t).collect();
    if second_night {
        list[0] = Tool::new("search_docs")
            .description("Search every page of the documentation, newest first.")
            .input_schema(schema(&["query"]))
            .read_only();
        list.push(
            Tool::new("delete_records")
                .description("Delete records from the table.")
                .input_schema(schema(&["ids"])),
        );
    }
    McpServer::new().tools(list)
}

async fn crawl(web: &SimWeb, crawl: &WebCrawl, out: &str, hosts: &[&str]) {
    let list = crawl.path("list.txt");
    let lines: Vec<String> = hosts.iter().map(|h| web.input(h)).collect();
    std::fs::write(&list, lines.join("\n")).unwrap();
    let ca = crawl.path("ca.pem");
    web.write_ca_pem(&ca).unwrap();
    let dns = web.dns_addr().to_string();
    let argv = [
        "crawl",
        &list,
        "--quiet",
        "--out",
        out,
        "--resolver",
        &dns,
        "--ca-file",
        &ca,
        "--allow-net",
        "127.0.0.0/8",
        "--no-second-look",
    ];
    assert_eq!(mcpcensus(&argv).await.unwrap(), ExitCode::SUCCESS);
}

async fn report(crawl: &WebCrawl, name: &str, source: &[&str]) -> Value {
    let path = crawl.path(name);
    let mut argv = vec!["report"];
    argv.extend_from_slice(source);
    argv.extend_from_slice(&["--format", "json", "-o", &path]);
    assert_eq!(mcpcensus(&argv).await.unwrap(), ExitCode::SUCCESS);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// `tag -> (servers, tools)` of a mix row.
fn mix(row: &Value) -> Vec<(String, u64, u64)> {
    row["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["tag"].as_str().unwrap().to_owned(),
                t["servers"]["count"].as_u64().unwrap(),
                t["tools"]["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tag_its_toxic_flow_the_mix_and_the_changes_between_runs() {
    let reader = McpServer::new().tools([Tool::new("list_items")
        .description("List the items in the catalog.")
        .input_schema(schema(&["page"]))
        .read_only()]);
    let web = SimWeb::builder()
        .site(site("everything.test", &everything(false)))
        .site(site("reader.test", &reader))
        .start()
        .await
        .unwrap();
    let hosts = ["everything.test", "reader.test"];
    let crawl_dir = WebCrawl::new();
    let out = crawl_dir.path("store");
    crawl(&web, &crawl_dir, &out, &hosts).await;

    let store = mcpcensus_store::Store::open(&out).unwrap();
    let first = store.latest_run().unwrap().unwrap().run_id;
    let records: Vec<_> = store
        .read_run(&first)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    drop(store);
    let r = record_for(&records, &web.origin("everything.test"));
    for (tool, want) in tools() {
        let got: BTreeSet<&str> = r
            .tools
            .iter()
            .find(|t| t.name == tool.name())
            .unwrap_or_else(|| panic!("{} listed", tool.name()))
            .capabilities
            .iter()
            .map(|c| c.as_str())
            .collect();
        assert_eq!(got, want.iter().copied().collect(), "{}", tool.name());
    }
    // The server's counts per tag: every tag is covered.
    let counts = r.tool_capabilities.as_ref().expect("counted");
    assert_eq!(counts.tools, 8);
    assert_eq!(r.capabilities_version.as_deref(), Some("tools-1"));
    // Readers of others' text or the user's data beside a sink: one finding naming a pair.
    let flows: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule_id == "MCP-TOOLS-001")
        .collect();
    assert_eq!(flows.len(), 1, "{:?}", r.findings);
    let evidence = flows[0].evidence.as_str();
    let readers = ["fetch_page", "read_file"];
    let sinks = ["run_python", "create_refund", "send_message"];
    assert!(
        readers.iter().any(|t| evidence.contains(t)) && sinks.iter().any(|t| evidence.contains(t)),
        "{evidence}"
    );
    let plain = record_for(&records, &web.origin("reader.test"));
    assert!(plain.findings.iter().all(|f| f.rule_id != "MCP-TOOLS-001"));

    // The second run: one destructive tool more, one description rewritten.
    web.add_site(site("everything.test", &everything(true)))
        .unwrap();
    crawl(&web, &crawl_dir, &out, &hosts).await;
    let from_store = report(&crawl_dir, "store.json", &["--from", &out]).await;
    let caps = &from_store["run"]["tool_capabilities"];
    let want: Vec<(String, u64, u64)> = [
        ("read_only", 2, 4),
        ("writes", 1, 6),
        ("destructive", 1, 3),
        ("executes_code", 1, 1),
        ("moves_money", 1, 1),
        ("sends_messages", 1, 1),
        ("reads_untrusted_content", 1, 1),
        ("reads_private_data", 1, 1),
    ]
    .iter()
    .map(|(t, s, n)| ((*t).to_owned(), *s, *n))
    .collect();
    assert_eq!(mix(&caps["all"]), want, "{caps}");
    assert_eq!(caps["all"]["servers"], 2);
    assert_eq!(caps["all"]["tools"], 10);
    assert_eq!(caps["all"]["toxic_flow"]["count"], 1);
    assert_eq!(
        caps["toxic_flow_servers"][0]["origin"],
        web.origin("everything.test")
    );
    let changes = &from_store["comparison"]["tool_changes"];
    assert_eq!(changes["servers_compared"], 2, "{changes}");
    assert_eq!(changes["servers_changed"], 1);
    assert_eq!(changes["tools_added"], 1);
    assert_eq!(changes["tools_removed"], 0);
    assert_eq!(changes["descriptions_changed"], 1);
    assert_eq!(changes["tools_gained_risk"], 1);
    assert_eq!(changes["servers_gained_risk"], 1);
    let server = &changes["servers"][0];
    assert_eq!(server["origin"], web.origin("everything.test"));
    assert_eq!(server["added"], json!(["delete_records"]));
    assert_eq!(server["descriptions_changed"], json!(["search_docs"]));

    if let Some(url) = test_server_url() {
        let db = unique_db("capabilities");
        let load = ["load", &out, "--clickhouse", &url, "--database", &db];
        assert_eq!(mcpcensus(&load).await.unwrap(), ExitCode::SUCCESS);
        let from_ch = report(
            &crawl_dir,
            "ch.json",
            &["--clickhouse", &url, "--database", &db],
        )
        .await;
        assert_eq!(from_ch["run"], from_store["run"], "both back ends: the run");
        assert_eq!(
            from_ch["comparison"], from_store["comparison"],
            "both back ends: the comparison"
        );
    }
    web.shutdown().await;
}
