//! The hostile-server set: sites that misbehave the way servers nobody controls do, each at
//! its own name, so a crawl of all of them (or of one, next to a normal site) shows the
//! crawler's records and costs stay bounded.
//!
//! ```
//! let sites = mcpcensus_simweb::hostile::all();
//! assert!(sites.iter().any(|s| s.name() == "trickle.hostile.test"));
//! ```

use std::time::Duration;

use serde_json::{json, Value};

use crate::h2fault::H2Fault;
use crate::mcp::{Fault, McpServer, Tool};
use crate::reply::{Reply, HANG_LIMIT};
use crate::site::{CertMode, Site, TlsFault};
use crate::sse::SseEvent;

/// Where the survey looks for the server card and the AI catalog.
const CARD_PATH: &str = "/.well-known/mcp/server-card.json";
const CATALOG_PATH: &str = "/.well-known/ai-catalog.json";
const CARD_TYPE: &str = "application/mcp-server-card+json";
const CATALOG_TYPE: &str = "application/ai-catalog+json";

fn catalog(entries: Vec<Value>) -> Reply {
    Reply::json(json!({"specVersion": "1.0", "entries": entries})).content_type(CATALOG_TYPE)
}

/// A homepage that names the MCP endpoint, so every hostile MCP server is found.
fn linked_home() -> Reply {
    Reply::html("<!doctype html><title>home</title>").header("link", "</mcp>; rel=\"mcp\"")
}

fn mcp_site(name: &str, server: &McpServer) -> Site {
    Site::new(name)
        .route("/", linked_home())
        .mcp("/mcp", server)
}

/// The answer to `initialize` of a plain server (id 1, as the survey sends it).
fn init_result() -> Value {
    json!({
        "protocolVersion": "2025-06-18",
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "hostile", "version": "1.0"}
    })
}

/// Response headers that never come.
pub fn slow_headers() -> Site {
    Site::new("slow-headers.hostile.test").default(Reply::html("late").delay(HANG_LIMIT))
}

/// A homepage sent one byte every 200 ms, with no end in sight of the site deadline.
pub fn trickled_body() -> Site {
    let page = format!("<!doctype html><title>t</title>{}", "x".repeat(64 * 1024));
    Site::new("trickle.hostile.test").route(
        "/",
        Reply::html(page).trickle(1, Duration::from_millis(200)),
    )
}

/// An MCP endpoint whose event stream sends keep-alives forever and never the answer.
pub fn endless_stream() -> Site {
    let stream = Reply::sse([SseEvent::comment("waiting")])
        .keep_open()
        .heartbeat(Duration::from_millis(20));
    mcp_site(
        "endless-sse.hostile.test",
        &McpServer::python_stateless().fault_on("initialize", Fault::Reply(stream)),
    )
}

/// 10,000 notifications on the stream before the `initialize` answer.
pub fn many_events() -> Site {
    let note = json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": "still working"}});
    let mut events: Vec<SseEvent> = (0..10_000).map(|_| SseEvent::message(&note)).collect();
    events.push(SseEvent::message(
        &json!({"jsonrpc": "2.0", "id": 1, "result": init_result()}),
    ));
    mcp_site(
        "many-events.hostile.test",
        &McpServer::python_stateless().fault_on("initialize", Fault::Reply(Reply::sse(events))),
    )
}

/// An `initialize` answer one byte over the survey's 64 KiB answer cap.
pub fn answer_over_cap() -> Site {
    let mut answer = json!({"jsonrpc": "2.0", "id": 1, "result": init_result()});
    let base = serde_json::to_vec(&answer).map_or(0, |b| b.len());
    let pad = 64 * 1024 + 1 - base - r#","pad":"""#.len();
    answer["pad"] = Value::String("p".repeat(pad));
    mcp_site(
        "over-cap.hostile.test",
        &McpServer::python_stateless().fault_on("initialize", Fault::Reply(Reply::json(answer))),
    )
}

/// An `initialize` answer just under the cap sent one byte per write, nearly every piece
/// ending in `}`: a reader that re-parses the answer on each such chunk does quadratic work.
pub fn byte_chunks() -> Site {
    let mut answer = json!({"jsonrpc": "2.0", "id": 1, "result": init_result()});
    answer["pad"] = Value::Array((0..12_000).map(|_| json!({})).collect());
    let body = serde_json::to_vec(&answer).unwrap_or_default();
    let reply = Reply::bytes("application/json", body).trickle(1, Duration::ZERO);
    mcp_site(
        "byte-chunks.hostile.test",
        &McpServer::python_stateless().fault_on("initialize", Fault::Reply(reply)),
    )
}

/// 2,000 response headers of 1 KiB each on the homepage.
pub fn huge_headers() -> Site {
    let mut home = Reply::html("<!doctype html><title>h</title>");
    for i in 0..2_000 {
        home = home.header(&format!("x-filler-{i}"), "h".repeat(1024));
    }
    Site::new("headers.hostile.test").default(home)
}

/// Every document gzip-compressed although the survey asks for identity (and a catalog
/// labelled brotli that is not).
pub fn compressed_bodies() -> Site {
    let card = json!({"name": "gz", "remotes": [{"type": "streamable-http", "url": "/mcp"}]});
    Site::new("gzip.hostile.test")
        .route(
            CARD_PATH,
            Reply::bytes(
                "application/json",
                gzip(&serde_json::to_vec(&card).unwrap_or_default()),
            )
            .header("content-encoding", "gzip"),
        )
        .route(
            CATALOG_PATH,
            Reply::bytes("application/json", vec![0x8b, 0x7f, 0x00, 0xff, 0x03])
                .header("content-encoding", "br"),
        )
        .route(
            "/",
            Reply::bytes("text/html", gzip(b"<a rel=mcp href=/mcp>mcp</a>"))
                .header("content-encoding", "gzip"),
        )
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(bytes);
    enc.finish().unwrap_or_default()
}

/// Invalid UTF-8 in every text field of a server card and of the MCP answers.
pub fn invalid_utf8() -> Site {
    let card =
        b"{\"name\":\"bad\xff\xfe\",\"description\":\"\xc3\x28\",\"version\":\"\xed\xa0\x80\",\
        \"remotes\":[{\"type\":\"streamable-http\",\"url\":\"/mcp\xff\"}]}"
            .to_vec();
    let answer = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\xff\",\
        \"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"\xc0\xaf\",\"version\":\"\xff\"}}}"
        .to_vec();
    mcp_site(
        "utf8.hostile.test",
        &McpServer::python_stateless().fault_on(
            "initialize",
            Fault::Reply(Reply::bytes("application/json", answer)),
        ),
    )
    .route(CARD_PATH, Reply::bytes("application/json", card))
    .route(
        "/",
        Reply::bytes(
            "text/html; charset=utf-8",
            b"<a rel=\"mcp\" href=\"/mcp\">\xff\xfe</a>".to_vec(),
        ),
    )
}

/// JSON nested 10,000 deep as the card, the catalog and the `initialize` answer.
pub fn deep_json() -> Site {
    let deep = |open: &str, close: &str| format!("{}{}", open.repeat(10_000), close.repeat(10_000));
    let answer = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}}",
        deep("{\"a\":", "}").replacen("}", "1}", 1)
    );
    mcp_site(
        "deep.hostile.test",
        &McpServer::python_stateless().fault_on(
            "initialize",
            Fault::Reply(Reply::bytes("application/json", answer)),
        ),
    )
    .route(CARD_PATH, Reply::bytes("application/json", deep("[", "]")))
    .route(
        CATALOG_PATH,
        Reply::bytes(
            "application/json",
            deep("{\"x\":", "}").replacen("}", "0}", 1),
        ),
    )
}

/// Duplicate keys in the card and the `initialize` answer, the last one different.
pub fn duplicate_keys() -> Site {
    let card = r#"{"name":"first","name":"second","remotes":[],"remotes":[{"type":"streamable-http","url":"/mcp"}]}"#;
    let answer = r#"{"jsonrpc":"2.0","id":1,"id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"a","name":"b","version":"1"}},"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"c","version":"2"}}}"#;
    mcp_site(
        "dupkeys.hostile.test",
        &McpServer::python_stateless().fault_on(
            "initialize",
            Fault::Reply(Reply::bytes("application/json", answer)),
        ),
    )
    .route(CARD_PATH, Reply::bytes("application/json", card))
}

/// Wrong content types (a card as an image, an answer as HTML) and missing ones.
pub fn wrong_content_types() -> Site {
    let answer = json!({"jsonrpc": "2.0", "id": 1, "result": init_result()}).to_string();
    mcp_site(
        "ctype.hostile.test",
        &McpServer::python_stateless().fault_on(
            "initialize",
            Fault::Reply(Reply::bytes("text/html", answer)),
        ),
    )
    .route(
        CARD_PATH,
        Reply::bytes("image/png", r#"{"name":"png","remotes":[]}"#),
    )
    .route(
        CATALOG_PATH,
        catalog(Vec::new()).without_header("content-type"),
    )
}

/// An AI catalog of 100,000 entries.
pub fn huge_catalog() -> Site {
    let entries: Vec<Value> = (0..100_000)
        .map(|i| {
            json!({"identifier": format!("urn:air:h:mcp:{i}"), "type": CARD_TYPE,
            "url": format!("/cards/{i}.json")})
        })
        .collect();
    Site::new("catalog.hostile.test").route(CATALOG_PATH, catalog(entries))
}

/// Catalogs naming catalogs as deep as the survey follows, each with inline cards.
pub fn nested_catalogs() -> Site {
    let mut site = Site::new("nested.hostile.test");
    for depth in 0..12 {
        let path = if depth == 0 {
            CATALOG_PATH.to_owned()
        } else {
            format!("/catalog{depth}.json")
        };
        let mut entries: Vec<Value> = (0..2_000)
            .map(|i| {
                json!({"identifier": format!("urn:air:h:mcp:{depth}-{i}"), "type": CARD_TYPE,
                "data": {"name": format!("test.example/inline-{i}"), "version": "1.0.0",
                    "remotes": [{"type": "streamable-http", "url": "/mcp"}]}})
            })
            .collect();
        entries.push(json!({"identifier": format!("urn:air:h:catalog:{depth}"),
            "type": CATALOG_TYPE, "url": format!("/catalog{}.json", depth + 1)}));
        site = site.route(&path, catalog(entries));
    }
    site
}

/// A `tools/list` answer of 100,000 tools (built once, so the server answers at once).
pub fn many_tools() -> Site {
    let tools: Vec<Value> = (0..100_000)
        .map(|i| json!({"name": format!("t{i}"), "inputSchema": {"type": "object"}}))
        .collect();
    let answer = Reply::rpc_result(json!(2), json!({"tools": tools}));
    mcp_site(
        "tools.hostile.test",
        &McpServer::python_stateless().fault_on("tools/list", Fault::Reply(answer)),
    )
}

/// `tools/list` with a 1 MiB description.
pub fn huge_descriptions() -> Site {
    let tool = Tool::new("big").description("d".repeat(1024 * 1024));
    mcp_site(
        "descriptions.hostile.test",
        &McpServer::python_stateless().tool(tool),
    )
}

/// Tool names a server can choose that act in the outputs a reader opens: a spreadsheet
/// formula, a tag with a script, terminal escape sequences (set the window title, clear the
/// screen) and a bidi override that shows the name reversed.
pub const ACTIVE_TOOL_NAMES: [&str; 4] = [
    "=HYPERLINK(\"https://evil.example/\",\"click\")",
    "<img src=x onerror=alert(1)>",
    "title\u{1b}]0;pwned\u{7}clear\u{1b}[2J",
    "report\u{202e}fdp.exe",
];
/// The server's `serverInfo.name`: all of the above in one.
pub const ACTIVE_SERVER_NAME: &str =
    "@SUM(1+1)<script>alert(1)</script>\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}|x|";
/// The server's `serverInfo.version`.
pub const ACTIVE_SERVER_VERSION: &str = "-1+1\u{1b}[31m\u{202e}";

/// An MCP server whose tool names and server info carry text that is active in a spreadsheet,
/// a page, Markdown or a terminal ([`ACTIVE_TOOL_NAMES`], [`ACTIVE_SERVER_NAME`]).
pub fn active_text_server() -> McpServer {
    let tools = ACTIVE_TOOL_NAMES.map(|name| Tool::new(name).description("Does a thing."));
    McpServer::python_stateless()
        .name(ACTIVE_SERVER_NAME)
        .version(ACTIVE_SERVER_VERSION)
        .tools(tools)
}

/// A site linking [`active_text_server`] from its homepage.
pub fn active_text_site(name: &str) -> Site {
    mcp_site(name, &active_text_server())
}

/// [`active_text_site`] at its name in the set.
pub fn active_text() -> Site {
    active_text_site("active-text.hostile.test")
}

/// The connection reset half-way through the `initialize` answer.
pub fn reset_mid_answer() -> Site {
    let answer = Reply::rpc_result(json!(1), init_result()).fail_after(40);
    mcp_site(
        "reset.hostile.test",
        &McpServer::python_stateless().fault_on("initialize", Fault::Reply(answer)),
    )
}

/// Five catalogs of about 250 KB of small inline cards each, the first naming the other
/// four, every one sent with 12 KB of response headers: what a crawler that copies headers
/// per inline card, or keeps every catalog parsed, pays for.
pub fn heavy_catalogs() -> Site {
    let mut site = Site::new("heavy-catalogs.hostile.test");
    for n in 0..5 {
        let path = if n == 0 {
            CATALOG_PATH.to_owned()
        } else {
            format!("/heavy{n}.json")
        };
        let mut entries: Vec<Value> = (0..2_300)
            .map(|i| {
                json!({"identifier": format!("urn:air:h:{n}:{i}"), "type": CARD_TYPE,
                "data": {"name": format!("x/{i}")}})
            })
            .collect();
        if n == 0 {
            entries.extend((1..5).map(|k| {
                json!({"identifier": format!("urn:air:h:cat:{k}"),
                "type": CATALOG_TYPE, "url": format!("/heavy{k}.json")})
            }));
        }
        let mut reply = catalog(entries);
        for h in 0..8 {
            reply = reply.header(&format!("x-pad-{h}"), "p".repeat(1500));
        }
        site = site.route(&path, reply);
    }
    site
}

/// Incomplete entries (`{}`) that fill a catalog to a little under the survey's document cap
/// (256 KB): about 83,000 of them.
pub const INCOMPLETE_ENTRIES: usize = 83_000;

/// Ten catalogs at the size cap, each naming the next and otherwise holding only incomplete
/// entries: every entry read would be an audit finding (the case that cost one site 300 MB).
pub fn incomplete_catalogs(name: &str) -> Site {
    let mut site = Site::new(name).route("/", Reply::html("<!doctype html><title>home</title>"));
    for n in 0..10 {
        let path = if n == 0 {
            CATALOG_PATH.to_owned()
        } else {
            format!("/incomplete{n}.json")
        };
        let mut entries = vec![json!({"identifier": format!("urn:air:h:cat:{n}"),
            "type": CATALOG_TYPE, "url": format!("/incomplete{}.json", n + 1)})];
        entries.extend((0..INCOMPLETE_ENTRIES).map(|_| json!({})));
        site = site.route(&path, catalog(entries));
    }
    site
}

/// A site with this certificate problem.
pub fn bad_cert(name: &str, mode: CertMode) -> Site {
    Site::new(name).cert(mode).route("/", linked_home())
}

/// Every site of the set above (the TLS ones on their own names), for a crawl of all of them.
/// A server that speaks only TLS 1.0 (its ServerHello says version 3.1).
pub fn tls10_only() -> Site {
    Site::new("tls10.hostile.test")
        .route("/", linked_home())
        .tls_fault(TlsFault::Tls10Only)
}

/// The HTTP/2 faults, each at `<fault>.h2.hostile.test` on its own loopback address (so
/// its connections can be counted): GOAWAY and RST_STREAM on the MCP POST, a zero send
/// window, SETTINGS and CONTINUATION floods, GOAWAY before any answer.
pub fn h2_faults() -> Vec<Site> {
    [
        ("goaway", H2Fault::GoAwayOnMcp),
        ("reset", H2Fault::ResetOnMcp),
        ("zero-window", H2Fault::ZeroWindow),
        ("settings-flood", H2Fault::SettingsFlood),
        ("continuation-flood", H2Fault::ContinuationFlood),
        ("goaway-at-once", H2Fault::GoAwayAtOnce),
    ]
    .into_iter()
    .zip(1u8..)
    .map(|((name, fault), i)| {
        Site::new(format!("{name}.h2.hostile.test"))
            .ip([127, 0, 5, i])
            .h2_fault(fault)
    })
    .collect()
}

pub fn all() -> Vec<Site> {
    let mut all = vec![
        slow_headers(),
        trickled_body(),
        endless_stream(),
        many_events(),
        answer_over_cap(),
        byte_chunks(),
        huge_headers(),
        compressed_bodies(),
        invalid_utf8(),
        deep_json(),
        duplicate_keys(),
        wrong_content_types(),
        huge_catalog(),
        nested_catalogs(),
        many_tools(),
        huge_descriptions(),
        heavy_catalogs(),
        reset_mid_answer(),
        active_text(),
        bad_cert("expired.hostile.test", CertMode::Expired),
        bad_cert("wrong-name.hostile.test", CertMode::WrongHost),
        bad_cert("unknown-issuer.hostile.test", CertMode::SelfSigned),
        bad_cert("no-cert.hostile.test", CertMode::Missing),
        tls10_only(),
    ];
    all.extend(h2_faults());
    all
}
