//! The survey's sites, the session and its verdicts.

use super::*;

/// The site of this part scanned as `host`, or `None` when it is not one of them.
pub(super) fn site(host: &'static str) -> Option<Built> {
    let built = match host {
        "auth-challenge.test" => {
            let server = McpServer::new().bearer_auth(BearerAuth::python_sdk());
            with(carded(host, "/mcp", &server), server)
        }
        "auth-nocard.test" => {
            let server = McpServer::new().bearer_auth(BearerAuth::python_sdk());
            with(at_mcp(host, &server), server)
        }
        "auth-bare.test" => {
            let server = fault_at("initialize", Fault::Status(401));
            with(at_mcp(host, &server), server)
        }
        "s403-init.test" | "s403-notif.test" | "s403-tools.test" | "s429-init.test"
        | "s429-notif.test" | "s429-tools.test" | "s500-init.test" | "s500-notif.test"
        | "s500-tools.test" => {
            let status: u16 = host[1..4].parse().unwrap();
            let server = fault_at(step_of(host), Fault::Status(status));
            with(at_mcp(host, &server), server)
        }
        "redirect-init.test" | "redirect-notif.test" | "redirect-tools.test" => {
            let code = match step_of(host) {
                "initialize" => 307,
                "notifications/initialized" => 302,
                _ => 308,
            };
            let server = fault_at(step_of(host), Fault::Redirect(code, "/moved/mcp".into()));
            let site = at_mcp(host, &server).mcp("/moved/mcp", &McpServer::new());
            with(site, server)
        }
        "html-init.test" => {
            let server = fault_at("initialize", Fault::Html);
            with(at_mcp(host, &server), server)
        }
        "rpc-error.test" => {
            let server = fault_at(
                "initialize",
                Fault::RpcError(-32603, "Internal error".into()),
            );
            with(at_mcp(host, &server), server)
        }
        "not-json.test" => {
            let server = fault_at("initialize", Fault::NotJson);
            with(at_mcp(host, &server), server)
        }
        "status-404.test" => {
            let server = fault_at("initialize", Fault::Status(404));
            with(at_mcp(host, &server), server)
        }
        "result-in-400.test" => {
            let result = json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "odd", "version": "1"}
            });
            let server = fault_at(
                "initialize",
                Fault::Reply(Reply::rpc_result(json!(1), result).with_status(400)),
            );
            with(at_mcp(host, &server), server)
        }
        "rpc-error-tools.test" => {
            let server = fault_at(
                "tools/list",
                Fault::RpcError(-32603, "Database down".into()),
            );
            with(at_mcp(host, &server), server)
        }
        "reset.test" => {
            let server = fault_at("initialize", Fault::Reset);
            with(at_mcp(host, &server), server)
        }
        "no-tools-cap.test" => {
            let server = McpServer::new().no_tools_capability();
            with(at_mcp(host, &server), server)
        }
        "empty-tools.test" => {
            let server = McpServer::new().empty_tools();
            with(at_mcp(host, &server), server)
        }
        "session.test" => {
            // Requires the session id and the protocol header on every later request.
            let server = McpServer::new()
                .stateful()
                .require_protocol_header()
                .tools_named(&["session_tool"]);
            with(at_mcp(host, &server), server)
        }
        "sse-priming.test" => {
            let server = McpServer::new()
                .stateful()
                .sse()
                .priming(true)
                .retry_ms(1000)
                .keep_alive_comments(1)
                .notify_before(json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": "info", "data": "warming up"}
                }))
                .notify_before(json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": {"progressToken": 1, "progress": 1}
                }))
                .tools_named(&["primed"]);
            with(at_mcp(host, &server), server)
        }
        "notif-html.test" => {
            // The notification's answer is an HTML page with 200: its body is never read.
            let server = fault_at("notifications/initialized", Fault::Html);
            with(at_mcp(host, &server), server)
        }
        "oversize-tools.test" => {
            let server = fault_at("tools/list", Fault::Oversized(OVERSIZE_BYTES));
            with(at_mcp(host, &server), server)
        }
        "long-list-tools.test" => {
            // 300 tools of ~400 bytes each: a list over 64 KB whose first 64 KB name the
            // first tools whole.
            let tools: Vec<mcpcensus_simweb::mcp::Tool> = (0..300)
                .map(|i| {
                    mcpcensus_simweb::mcp::Tool::new(format!("long_{i:03}"))
                        .description("lorem ipsum ".repeat(32))
                })
                .collect();
            let server = McpServer::new().tools(tools);
            with(at_mcp(host, &server), server)
        }
        "tools30.test" => {
            let server = McpServer::new().n_tools(30);
            with(at_mcp(host, &server), server)
        }
        "old-proto.test" => {
            let server = McpServer::new()
                .protocol("2025-03-26")
                .tools_named(&["old_tool"]);
            with(at_mcp(host, &server), server)
        }
        "slow.test" => {
            let server = fault_at("initialize", Fault::Delay(SLOW_INITIALIZE));
            with(at_mcp(host, &server), server)
        }
        "late.test" => {
            // Two slow discovery documents use up the site's deadline but 11 s.
            let server = McpServer::new();
            let site = Site::new(host)
                .route("/", home().delay(LATE_DOCUMENT_DELAY))
                .route(
                    "/.well-known/mcp.json",
                    Reply::not_found().delay(LATE_DOCUMENT_DELAY),
                )
                .mcp("/mcp", &server);
            with(site, server)
        }
        _ => return None,
    };
    Some(built)
}
