//! The survey's sites, placement: which endpoints are opened.

use super::*;

/// The site of this part scanned as `host`, or `None` when it is not one of them.
pub(super) fn site(host: &'static str) -> Option<Built> {
    let built = match host {
        "elsewhere.test" => (
            Site::new(host).route("/", home()).route(
                "/.well-known/mcp/server-card.json",
                card_for("elsewhere", "other.test", "/mcp"),
            ),
            None,
        ),
        "other.test" => {
            let server = McpServer::new().tools_named(&["other_tool"]);
            with(at_mcp(host, &server), server)
        }
        "sub.test" => (
            Site::new(host).route("/", home()).route(
                "/.well-known/mcp/server-card.json",
                card_for("sub", "api.sub.test", "/mcp"),
            ),
            None,
        ),
        "api.sub.test" => {
            let server = McpServer::python_stateful().tools_named(&["sub_tool"]);
            with(at_mcp(host, &server), server)
        }
        "excl.test" => (
            Site::new(host).route("/", home()).route(
                "/.well-known/mcp/server-card.json",
                card_for("excl", "mcp.excl.test", "/mcp"),
            ),
            None,
        ),
        "mcp.excl.test" => {
            let server = McpServer::new();
            with(at_mcp(host, &server), server)
        }
        "sse-remote.test" => (
            Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card.json",
                    on_port(|port| {
                        card(
                            "sse-remote",
                            vec![remote(
                                "sse",
                                &format!("https://sse-remote.test:{port}/sse"),
                            )],
                        )
                    }),
                )
                .route("/sse", Reply::status(500)),
            None,
        ),
        "http-remote.test" => {
            // Served over both schemes: the http:// endpoint would answer if it were opened.
            let server = McpServer::new();
            let site = Site::new(host)
                .http_and_https()
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card.json",
                    on_port(|port| {
                        card(
                            "http-remote",
                            vec![remote(
                                "streamable-http",
                                &format!("http://http-remote.test:{port}/plain/mcp"),
                            )],
                        )
                    }),
                )
                .mcp("/plain/mcp", &server);
            with(site, server)
        }
        "userinfo.test" => {
            let server = McpServer::new();
            let site = Site::new(host)
                .route("/", home())
                .route(
                    "/.well-known/mcp/server-card.json",
                    on_port(|port| {
                        card(
                            "userinfo",
                            vec![remote(
                                "streamable-http",
                                &format!("https://user:secret@userinfo.test:{port}/cred/mcp"),
                            )],
                        )
                    }),
                )
                .mcp("/cred/mcp", &server);
            with(site, server)
        }
        "guarded.test" => (
            Site::new(host).route("/", home()).route(
                "/.well-known/mcp/server-card.json",
                card_for("guarded", GUARDED_SUBDOMAIN, "/mcp"),
            ),
            None,
        ),
        _ => return None,
    };
    Some(built)
}
