//! A real server from the official MCP Python SDK (`mcp`, installed by scripts/setup.sh),
//! scanned through a simulated TLS site that proxies to it. Our own simulated servers must
//! not be the only MCP servers the crawler is tested against.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcpcensus_simweb::{Reply, SimWeb, Site};
use mcpcensus_store::{AuthKind, DiscoveredVia, Outcome, Transport};

use crate::util::{record_for, WebCrawl};

/// The SDK server process, killed when the test ends.
struct SdkServer {
    child: Child,
    addr: SocketAddr,
}

impl SdkServer {
    fn start(mode: &str) -> SdkServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/sdk_server.py");
        let child = Command::new("python3")
            .args([script, &port.to_string(), mode])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 (run scripts/setup.sh, which installs the MCP Python SDK)");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let mut server = SdkServer { child, addr };
        let started = Instant::now();
        while TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("the SDK server exited ({status}); is `mcp` installed (scripts/setup.sh)?");
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the SDK server did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        server
    }
}

impl Drop for SdkServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn official_python_sdk_servers_pass_with_their_tools() {
    let stateless = SdkServer::start("stateless");
    let stateful = SdkServer::start("stateful");
    let page = || Reply::html("<!doctype html><title>docs</title>");
    let web = SimWeb::builder()
        .site(
            Site::new("stateless.sdk.test")
                .route("/", page())
                .proxy_to(stateless.addr),
        )
        .site(
            Site::new("stateful.sdk.test")
                .route("/", page())
                .proxy_to(stateful.addr),
        )
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs = vec![
        web.input("stateless.sdk.test"),
        web.input("stateful.sdk.test"),
    ];
    let (_, _, records) = crawl
        .run(
            &web,
            &inputs,
            true,
            &["--per-host-rps", "20", "--per-host-burst", "20"],
        )
        .await;

    for (host, session) in [("stateless.sdk.test", false), ("stateful.sdk.test", true)] {
        let r = record_for(&records, &web.origin(host));
        assert_eq!(r.outcome, Outcome::Pass, "{host}: {}", r.outcome_reason);
        // Neither SDK serves cards or catalogs: /mcp signals MCP by its GET answer (an endless
        // event stream when stateless, a JSON-RPC error when stateful).
        assert_eq!(r.discovered_via, Some(DiscoveredVia::McpPath), "{host}");
        assert_eq!(r.protocol_version.as_deref(), Some("2025-11-25"), "{host}");
        assert_eq!(r.tool_names, ["search_docs", "get_page"], "{host}");
        assert_eq!(r.server_name.as_deref(), Some("census-fixture"), "{host}");
        assert_eq!(r.session_id_issued, session, "{host}");
        assert!(!r.defect, "{host}");
        let posts = web
            .requests(host)
            .iter()
            .filter(|q| q.method == "POST")
            .count();
        assert_eq!(posts, 3, "{host}");
    }
}

/// The deep probe against the same SDK servers: it classifies them from what they answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn official_python_sdk_servers_are_classified_by_the_deep_probe() {
    let stateless = SdkServer::start("stateless");
    let stateful = SdkServer::start("stateful");
    let page = || Reply::html("<!doctype html><title>docs</title>");
    let web = SimWeb::builder()
        .site(
            Site::new("stateless.sdk.test")
                .route("/", page())
                .proxy_to(stateless.addr),
        )
        .site(
            Site::new("stateful.sdk.test")
                .route("/", page())
                .proxy_to(stateful.addr),
        )
        .start()
        .await
        .unwrap();
    let crawl = WebCrawl::new();
    let inputs = vec![
        web.input("stateless.sdk.test"),
        web.input("stateful.sdk.test"),
    ];
    let (_, _, records) = crawl
        .run(
            &web,
            &inputs,
            true,
            &[
                "--probe",
                "deep",
                "--per-host-rps",
                "20",
                "--per-host-burst",
                "20",
            ],
        )
        .await;
    // `mcp` 2.x answers server/discover listing 2026-07-28: Ready, whatever its 2025 mode.
    for host in ["stateless.sdk.test", "stateful.sdk.test"] {
        let r = record_for(&records, &web.origin(host));
        assert_eq!(r.probe.map(|v| v.as_str()), Some("deep"), "{host}");
        assert_eq!(r.transport, Some(Transport::StreamableHttp), "{host}");
        assert_eq!(r.spec_version.as_deref(), Some("2026-07-28"), "{host}");
        assert!(r.deprecated_features.is_empty(), "{host}");
        assert_eq!(
            r.migration_status.map(|v| v.as_str()),
            Some("ready"),
            "{host}"
        );
        assert_eq!(
            r.checklist,
            [mcpcensus_store::ChecklistStep::NothingToMigrate],
            "{host}"
        );
        assert_eq!(
            r.auth.as_ref().map(|a| a.kind),
            Some(AuthKind::None),
            "{host}"
        );
        let names: Vec<&str> = r.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["search_docs", "get_page"], "{host}");
        assert!(r
            .tools
            .iter()
            .all(|t| t.grade.is_some() && t.fingerprint.is_some()));
        // No read-only hints: the unauthenticated list is high.
        assert!(r
            .findings
            .iter()
            .any(|f| f.rule_id == "SW-MCP-001" && f.severity.as_str() == "high"));
        let probe: Vec<&str> = r
            .requests
            .iter()
            .filter_map(|q| q.purpose.strip_prefix("probe:"))
            .collect();
        assert_eq!(probe, ["server/discover", "tools/list"], "{host}");
    }
}
