//! Bounded records: one hostile site cannot produce a record the store refuses.

use mcpcensus_simweb::mcp::McpServer;
use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::Outcome;

use crate::util::{record_for, WebCrawl};

const AI_CATALOG: &str = "/.well-known/ai-catalog.json";

/// A catalog of `n` incomplete entries (`{}`: no identifier, type, url or data) and `nested`
/// entries naming more catalogs.
fn catalog(n: usize, nested: &[&str]) -> Reply {
    let mut entries: Vec<String> = vec!["{}".to_owned(); n];
    for url in nested {
        entries.push(format!(
            r#"{{"identifier":"urn:x:{url}","type":"application/ai-catalog+json","url":"{url}"}}"#
        ));
    }
    let body = format!(
        r#"{{"specVersion":"1.0","entries":[{}]}}"#,
        entries.join(",")
    );
    Reply::bytes("application/json", body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nested_catalogs_of_300000_incomplete_entries_give_one_bounded_record() {
    let server = McpServer::new();
    let nested = ["/c1.json", "/c2.json", "/c3.json", "/c4.json"];
    let mut hostile = Site::new("hostile.bounded.test")
        .route("/", Reply::html("<html>catalogs</html>"))
        .route(AI_CATALOG, catalog(60_000, &nested));
    for url in nested {
        hostile = hostile.route(url, catalog(60_000, &[]));
    }
    let mut sites = vec![
        hostile,
        Site::new("thousand.bounded.test")
            .route("/", Reply::html("<html>a catalog</html>"))
            .route(AI_CATALOG, catalog(1_000, &[])),
    ];
    for i in 0..20 {
        let name = format!("site{i}.bounded.test");
        sites.push(if i % 2 == 0 {
            Site::new(&name)
                .route(
                    "/",
                    Reply::html("<html>mcp</html>").header("link", "</mcp>; rel=\"mcp\""),
                )
                .mcp("/mcp", &server)
        } else {
            Site::new(&name).route("/", Reply::html("<html>plain</html>"))
        });
    }
    let names: Vec<String> = (0..20)
        .map(|i| format!("site{i}.bounded.test"))
        .chain([
            "hostile.bounded.test".into(),
            "thousand.bounded.test".into(),
        ])
        .collect();
    let web = SimWeb::builder().sites(sites).start().await.unwrap();
    let inputs: Vec<String> = names.iter().map(|n| web.input(n)).collect();
    let crawl = WebCrawl::new();
    let (code, _, records) = crawl
        .run(&web, &inputs, true, &["--site-deadline", "120"])
        .await;
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    assert_eq!(
        records.len(),
        inputs.len(),
        "every site's record is written"
    );

    let hostile = record_for(&records, &web.origin("hostile.bounded.test"));
    let size = serde_json::to_vec(hostile).unwrap().len();
    assert!(size < 2 * 1024 * 1024, "the record is {size} bytes");
    let truncated = hostile.truncated.as_deref().expect("marked truncated");
    // Without the bounds these entries would make a record of tens of megabytes: the first
    // 5,000 of the catalog are read, the audit stops at the record's 2,500 findings, and both
    // say how many they left.
    assert!(
        truncated.contains("the discovery audit stopped at 2500"),
        "{truncated}"
    );
    let unaudited: usize = truncated
        .split("2500; ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{truncated}"));
    assert!(unaudited >= 2_000, "{truncated}");
    let unread = hostile
        .documents
        .iter()
        .filter_map(|d| d.note.as_deref())
        .find(|n| n.contains("entries not read (at most 5000 a catalog)"))
        .unwrap_or_else(|| panic!("{:?}", hostile.documents));
    assert!(unread.starts_with("55004 entries not read"), "{unread}");
    assert!(!hostile.findings.is_empty());

    // A real catalog of 1,000 entries keeps every finding.
    let thousand = record_for(&records, &web.origin("thousand.bounded.test"));
    assert_eq!(thousand.truncated, None);
    assert!(
        thousand.findings.len() >= 1_000,
        "{}",
        thousand.findings.len()
    );

    for i in (0..20).step_by(2) {
        let r = record_for(&records, &web.origin(&format!("site{i}.bounded.test")));
        assert_eq!(r.outcome, Outcome::Pass, "{}", r.outcome_reason);
    }
}
