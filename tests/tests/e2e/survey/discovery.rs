//! Discovery: where the endpoint comes from, in the survey's order.

use super::*;

#[test]
fn server_card_names_the_endpoint() {
    check(
        "card.test",
        Expect::pass(&["search", "fetch"])
            .at(&url("card.test", "/api/mcp"), DiscoveredVia::ServerCard),
    );
    // /mcp is still requested once, with one plain GET; nothing is posted there.
    assert_eq!(fixture().gets("card.test", "/mcp"), 1);
}

#[test]
fn legacy_card_paths_name_the_endpoint() {
    // The folk manifest in its pre-SEP shape (transport.endpoint), served as text/plain.
    check(
        "legacy-json.test",
        Expect::pass(&["lookup"]).at(&url("legacy-json.test", "/rpc"), DiscoveredVia::LegacyCard),
    );
    check(
        "legacy-dashed.test",
        Expect::pass(&["dashed"]).at(
            &url("legacy-dashed.test", "/dashed/mcp"),
            DiscoveredVia::LegacyCard,
        ),
    );
    check(
        "legacy-bare.test",
        Expect::pass(&["bare"]).at(
            &url("legacy-bare.test", "/bare/mcp"),
            DiscoveredVia::LegacyCard,
        ),
    );
}

#[test]
fn catalog_lists_a_card_url() {
    let record = check(
        "catalog.test",
        Expect::pass(&["forecast"]).at(&url("catalog.test", "/v1/mcp"), DiscoveredVia::AiCatalog),
    );
    let fx = fixture();
    assert_eq!(fx.gets("catalog.test", "/cards/weather.json"), 1);
    // The A2A entry is not a server card: not fetched.
    assert_eq!(fx.gets("catalog.test", "/agent.json"), 0);
    assert!(record
        .documents
        .iter()
        .any(|d| d.kind == DocumentKind::CatalogCard && d.parsed));
}

#[test]
fn catalog_with_an_inline_card() {
    check(
        "inline.test",
        Expect::pass(&["inline_tool"])
            .at(&url("inline.test", "/inline/mcp"), DiscoveredVia::AiCatalog),
    );
}

#[test]
fn nested_catalog_lists_the_card() {
    check(
        "nested.test",
        Expect::pass(&["team_tool"]).at(&url("nested.test", "/team/mcp"), DiscoveredVia::AiCatalog),
    );
    let fx = fixture();
    assert_eq!(fx.gets("nested.test", "/catalogs/team.json"), 1);
    assert_eq!(fx.gets("nested.test", "/cards/team.json"), 1);
}

#[test]
fn link_header_names_the_endpoint() {
    check(
        "link-header.test",
        Expect::pass(&["linked"]).at(
            &url("link-header.test", "/rpc/mcp"),
            DiscoveredVia::LinkHeader,
        ),
    );
}

#[test]
fn html_link_element_names_the_endpoint() {
    check(
        "link-html.test",
        Expect::pass(&["linked_html"])
            .at(&url("link-html.test", "/srv/mcp"), DiscoveredVia::LinkHtml),
    );
}

#[test]
fn mcp_get_405_with_allow_post_signals() {
    check(
        "get-405.test",
        Expect::pass(&["echo"]).at(&url("get-405.test", "/mcp"), DiscoveredVia::McpPath),
    );
}

#[test]
fn mcp_get_answering_a_json_rpc_message_signals() {
    // The Python SDK, stateful: GET without a session gets 400 with a JSON-RPC error body and
    // a fresh session id; the session then uses the id its own initialize was given.
    let record = check(
        "get-jsonrpc.test",
        Expect::pass(&["py_tool"]).at(&url("get-jsonrpc.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert!(record.session_id_issued);
    let calls = fixture().world.server("get-jsonrpc.test").calls();
    let posts: Vec<_> = calls.iter().filter(|c| c.http_method == "POST").collect();
    assert_eq!(posts.len(), 3, "{calls:?}");
    let session = fixture().world.server("get-jsonrpc.test").sessions();
    assert_eq!(session.len(), 2, "one id from the GET, one from initialize");
    assert_eq!(posts[0].session_id, None);
    assert!(posts[1].session_id.is_some());
    assert_eq!(posts[1].session_id, posts[2].session_id);
}

#[test]
fn mcp_get_answering_an_endless_event_stream_signals_at_once() {
    // The Python SDK, stateless: the GET opens an event stream that never ends. It counts as
    // soon as its headers arrive and costs the scan nothing more.
    let record = check(
        "get-stream.test",
        Expect::pass(&["stream_tool"]).at(&url("get-stream.test", "/mcp"), DiscoveredVia::McpPath),
    );
    assert!(!record.session_id_issued);
    assert!(
        record.timings.total_ms < 4_000,
        "the endless GET held the scan: {:?}",
        record.timings
    );
}

#[test]
fn mcp_get_405_with_a_json_rpc_body_and_no_allow_signals() {
    // The TypeScript SDK v1, stateless.
    check(
        "get-405-rpc.test",
        Expect::pass(&["ts_tool"]).at(&url("get-405-rpc.test", "/mcp"), DiscoveredVia::McpPath),
    );
}

#[test]
fn ts_v1_stateful_gives_no_signal_at_mcp_but_its_card_finds_it() {
    // GET /mcp answers 400 text/html "Missing session ID": no MCP signal. With a card the
    // endpoint is found and passes; without one the site is out of scope and nothing is posted.
    let record = check(
        "ts-v1-card.test",
        Expect::pass(&["ts_card_tool"])
            .at(&url("ts-v1-card.test", "/mcp"), DiscoveredVia::ServerCard),
    );
    assert!(record.session_id_issued);
    let nocard = check(
        "ts-v1-nocard.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP",
        ),
    );
    let mcp_doc = nocard
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::McpPath)
        .unwrap();
    assert_eq!(mcp_doc.status, Some(400));
    assert_eq!(mcp_doc.note.as_deref(), Some("html"));
}

#[test]
fn held_back_mcp_get_does_not_eat_the_sessions_time() {
    // Behind nginx the stateless server's GET headers never arrive: the GET gives up after
    // its own short timeout and the session still gets its 12 s.
    let record = check(
        "held-back.test",
        Expect::pass(&["nginx_tool"]).at(&url("held-back.test", "/mcp"), DiscoveredVia::ServerCard),
    );
    let mcp_doc = record
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::McpPath)
        .unwrap();
    assert_eq!(mcp_doc.status, None);
    let limit = mcpcensus::scan::MCP_GET_TIMEOUT.as_millis() as u32;
    assert!(
        record.timings.total_ms < limit + 4_000,
        "{:?}",
        record.timings
    );
}

#[test]
fn soft_404_pages_are_no_cards() {
    let record = check(
        "soft404.test",
        Expect::pass(&["soft"]).at(&url("soft404.test", "/mcp"), DiscoveredVia::McpPath),
    );
    let card = record
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::ServerCard)
        .unwrap();
    assert!(card.soft_404 && !card.parsed, "{card:?}");
}

#[test]
fn the_server_card_comes_before_the_catalog_links_and_mcp() {
    check(
        "order.test",
        Expect::pass(&["from_card"]).at(&url("order.test", "/a/mcp"), DiscoveredVia::ServerCard),
    );
    check(
        "order-catalog.test",
        Expect::pass(&["from_catalog"]).at(
            &url("order-catalog.test", "/b/mcp"),
            DiscoveredVia::AiCatalog,
        ),
    );
}

#[test]
fn an_sse_remote_is_passed_over_for_the_next_one() {
    check(
        "sse-first.test",
        Expect::pass(&["streamable"]).at(
            &url("sse-first.test", "/stream/mcp"),
            DiscoveredVia::ServerCard,
        ),
    );
    assert_eq!(fixture().gets("sse-first.test", "/sse"), 0);
}

#[test]
fn the_get_of_mcp_follows_its_redirect_and_the_session_does_not() {
    // The survey's reproduction follows the plain GET of /mcp (`curl -L`) and POSTs to
    // $ORIGIN/mcp: the GET's redirect to /mcp/ is followed and signals MCP; the session's
    // POST to /mcp gets the redirect, and "No redirect is followed: a 3xx answer is reported
    // as "redirects; not followed", and the check is not measured."
    check(
        "redirect-get.test",
        Expect::new(Outcome::NotMeasured, "redirects; not followed")
            .at(&url("redirect-get.test", "/mcp"), DiscoveredVia::McpPath)
            .posts(&["initialize"]),
    );
    assert_eq!(fixture().gets("redirect-get.test", "/mcp/"), 1);
}

#[test]
fn an_error_status_at_mcp_is_no_signal() {
    let record = check(
        "get-403.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP",
        ),
    );
    let mcp_doc = record
        .documents
        .iter()
        .find(|d| d.kind == DocumentKind::McpPath)
        .unwrap();
    assert_eq!(mcp_doc.status, Some(403));
}

#[test]
fn no_answer_at_mcp_is_not_measured_not_out_of_scope() {
    // Out of scope needs "/mcp answered without signalling MCP"; this one did not answer.
    let record = check(
        "get-noanswer.test",
        Expect::new(
            Outcome::NotMeasured,
            "no document names an endpoint the scan opens, and the GET of /mcp got no answer \
             (no answer within 5 s): not measured",
        ),
    );
    let limit = mcpcensus::scan::MCP_GET_TIMEOUT.as_millis() as u32;
    assert!(
        record.timings.total_ms < limit + 4_000,
        "{:?}",
        record.timings
    );
}

#[test]
fn a_plain_site_is_out_of_scope() {
    check(
        "plain.test",
        Expect::new(
            Outcome::OutOfScope,
            "out of scope: no document names an endpoint the scan opens, and /mcp answered \
             without signalling MCP",
        ),
    );
}
