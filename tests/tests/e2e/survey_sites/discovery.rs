//! The survey's sites, discovery: where the endpoint comes from.

use super::*;

/// The site of this part scanned as `host`, or `None` when it is not one of them.
pub(super) fn site(host: &'static str) -> Option<Built> {
    let built = match host {
        "card.test" => {
            let server = McpServer::new().tools_named(&["search", "fetch"]);
            with(carded(host, "/api/mcp", &server), server)
        }
        "legacy-json.test" => {
            // The folk manifest in a pre-SEP shape, served as text/plain.
            let server = McpServer::new().tools_named(&["lookup"]);
            let manifest = typed_on_port("text/plain", move |port| {
                json!({
                    "serverInfo": {"name": "legacy-json", "version": "0.9"},
                    "transport": {
                        "type": "streamable-http",
                        "endpoint": format!("https://legacy-json.test:{port}/rpc")
                    },
                    "capabilities": {"tools": true}
                })
            });
            let site = Site::new(host)
                .route("/", home())
                .route("/.well-known/mcp.json", manifest)
                .mcp("/rpc", &server);
            with(site, server)
        }
        "legacy-dashed.test" => {
            let server = McpServer::new().tools_named(&["dashed"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp-server-card.json",
                    card_for("dashed", host, "/dashed/mcp"),
                )
                .mcp("/dashed/mcp", &server);
            with(site, server)
        }
        "legacy-bare.test" => {
            let server = McpServer::new().tools_named(&["bare"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card",
                    card_for("bare", host, "/bare/mcp"),
                )
                .mcp("/bare/mcp", &server);
            with(site, server)
        }
        "catalog.test" => {
            let server = McpServer::new().tools_named(&["forecast"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/ai-catalog.json",
                    on_port(|port| {
                        catalog(vec![
                            json!({"identifier": "urn:air:catalog.test:a2a:agent",
                                   "type": "application/a2a-agent-card+json",
                                   "url": format!("https://catalog.test:{port}/agent.json")}),
                            json!({"identifier": "urn:air:catalog.test:mcp:weather",
                                   "type": CARD_TYPE,
                                   "url": format!("https://catalog.test:{port}/cards/weather.json")}),
                        ])
                    }),
                )
                .route(
                    "/cards/weather.json",
                    typed_card_for(CARD_TYPE, "weather", host, "/v1/mcp"),
                )
                .mcp("/v1/mcp", &server);
            with(site, server)
        }
        "inline.test" => {
            let server = McpServer::new().tools_named(&["inline_tool"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/ai-catalog.json",
                    on_port(|port| {
                        catalog(vec![json!({
                            "identifier": "urn:air:inline.test:mcp:inline",
                            "type": CARD_TYPE,
                            "data": card("inline", vec![remote(
                                "streamable-http",
                                &format!("https://inline.test:{port}/inline/mcp"),
                            )]),
                        })])
                    }),
                )
                .mcp("/inline/mcp", &server);
            with(site, server)
        }
        "nested.test" => {
            // The site's catalog lists a nested catalog (with the older `mediaType` key),
            // which lists the card by a relative URL.
            let server = McpServer::new().tools_named(&["team_tool"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/ai-catalog.json",
                    Reply::json(catalog(vec![json!({
                        "identifier": "urn:air:nested.test:catalog:team",
                        "mediaType": CATALOG_TYPE,
                        "url": "/catalogs/team.json",
                    })])),
                )
                .route(
                    "/catalogs/team.json",
                    Reply::json(catalog(vec![json!({
                        "identifier": "urn:air:nested.test:mcp:team",
                        "type": CARD_TYPE,
                        "url": "/cards/team.json",
                    })])),
                )
                .route("/cards/team.json", card_for("team", host, "/team/mcp"))
                .mcp("/team/mcp", &server);
            with(site, server)
        }
        "link-header.test" => {
            let server = McpServer::new().tools_named(&["linked"]);
            let site = Site::new(host)
                .route(
                    "/",
                    home().header("link", "</rpc/mcp>; rel=\"mcp\", </about>; rel=\"about\""),
                )
                .mcp("/rpc/mcp", &server);
            with(site, server)
        }
        "link-html.test" => {
            let server = McpServer::new().tools_named(&["linked_html"]);
            let site = Site::new(host)
                .route(
                    "/",
                    Reply::html(
                        "<!doctype html><html><head><title>Linked</title>\
                         <link rel=\"stylesheet\" href=\"/style.css\">\
                         <link rel=\"mcp-server\" href=\"/srv/mcp\"></head>\
                         <body>Welcome</body></html>",
                    ),
                )
                .mcp("/srv/mcp", &server);
            with(site, server)
        }
        "get-405.test" => {
            let server = McpServer::new();
            with(at_mcp(host, &server), server)
        }
        "get-jsonrpc.test" => {
            let server = McpServer::python_stateful().tools_named(&["py_tool"]);
            with(at_mcp(host, &server), server)
        }
        "get-stream.test" => {
            let server = McpServer::python_stateless().tools_named(&["stream_tool"]);
            with(at_mcp(host, &server), server)
        }
        "get-405-rpc.test" => {
            let server = McpServer::ts_v1_stateless().tools_named(&["ts_tool"]);
            with(at_mcp(host, &server), server)
        }
        "ts-v1-card.test" => {
            let server = McpServer::ts_v1_stateful().tools_named(&["ts_card_tool"]);
            with(carded(host, "/mcp", &server), server)
        }
        "ts-v1-nocard.test" => {
            let server = McpServer::ts_v1_stateful().tools_named(&["hidden"]);
            with(at_mcp(host, &server), server)
        }
        "held-back.test" => {
            // A stateless Python server behind nginx: the GET's headers never arrive.
            let server = McpServer::python_stateless()
                .get_style(GetStyle::HeldBack)
                .tools_named(&["nginx_tool"]);
            with(carded(host, "/mcp", &server), server)
        }
        "soft404.test" => {
            // Every unknown path is a 200 HTML page, the card paths and the catalog included.
            let server = McpServer::new().tools_named(&["soft"]);
            let site = at_mcp(host, &server).default(Reply::html(
                "<!doctype html><html><head><title>Not here</title></head><body>Sorry</body></html>",
            ));
            with(site, server)
        }
        "order.test" => {
            // Every source names a different endpoint: the server card wins.
            let server = McpServer::new().tools_named(&["from_card"]);
            let site = Site::new(host)
                .route("/", home().header("link", "</c/mcp>; rel=\"mcp\""))
                .route(
                    "/.well-known/mcp/server-card.json",
                    card_for("order", host, "/a/mcp"),
                )
                .route(
                    "/.well-known/ai-catalog.json",
                    Reply::json(catalog(vec![json!({
                        "identifier": "urn:air:order.test:mcp:b",
                        "type": CARD_TYPE,
                        "data": card("b", vec![remote("streamable-http", "/b/mcp")]),
                    })])),
                )
                .mcp("/a/mcp", &server)
                .mcp("/b/mcp", &McpServer::new())
                .mcp("/c/mcp", &McpServer::new())
                .mcp("/mcp", &McpServer::new());
            with(site, server)
        }
        "order-catalog.test" => {
            // No card at the card paths: the catalog comes before the Link header and /mcp.
            let server = McpServer::new().tools_named(&["from_catalog"]);
            let site = Site::new(host)
                .route("/", home().header("link", "</c/mcp>; rel=\"mcp-server\""))
                .route(
                    "/.well-known/ai-catalog.json",
                    Reply::json(catalog(vec![json!({
                        "identifier": "urn:air:order-catalog.test:mcp:b",
                        "type": CARD_TYPE,
                        "data": card("b", vec![remote("streamable-http", "/b/mcp")]),
                    })])),
                )
                .mcp("/b/mcp", &server)
                .mcp("/c/mcp", &McpServer::new())
                .mcp("/mcp", &McpServer::new());
            with(site, server)
        }
        "sse-first.test" => {
            // The card lists an sse remote first: it is passed over for the streamable one.
            let server = McpServer::new().tools_named(&["streamable"]);
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card.json",
                    on_port(|port| {
                        card(
                            "sse-first",
                            vec![
                                remote("sse", &format!("https://sse-first.test:{port}/sse")),
                                remote(
                                    "streamable-http",
                                    &format!("https://sse-first.test:{port}/stream/mcp"),
                                ),
                            ],
                        )
                    }),
                )
                .route("/sse", Reply::status(500))
                .mcp("/stream/mcp", &server);
            with(site, server)
        }
        "redirect-get.test" => {
            // /mcp redirects to the real endpoint: the GET follows it, the session does not.
            let server = McpServer::new();
            let site = Site::new(host)
                .route("/", home())
                .route("/mcp", Reply::redirect(308, "/mcp/"))
                .mcp("/mcp/", &server);
            with(site, server)
        }
        "get-403.test" => {
            // /mcp refuses the GET (a bot wall): an answer without a signal, however it reads.
            let server = McpServer::new().fault_on("GET", Fault::Status(403));
            with(at_mcp(host, &server), server)
        }
        "get-noanswer.test" => {
            // The stateless Python server behind nginx without a card: the GET of /mcp never
            // gets its headers, so /mcp did not answer.
            let server = McpServer::python_stateless().get_style(GetStyle::HeldBack);
            with(at_mcp(host, &server), server)
        }
        "plain.test" => (Site::new(host).route("/", home()), None),
        _ => return None,
    };
    Some(built)
}
